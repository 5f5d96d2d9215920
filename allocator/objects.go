package allocator

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
)

// ObjectOptions are the settings of AllocateObjects.
type ObjectOptions struct {
	// Node is the node the claims are for; nil for none (see Options.Node).
	Node *corev1.Node
	// Mode relates the claims; Joint by default.
	Mode Mode
}

// ObjectResult is the outcome for one claim given to AllocateObjects.
type ObjectResult struct {
	// Name is the claim's "namespace/name".
	Name string
	// Version is the claim's version ("v1alpha1", "v1alpha2", "v1alpha3").
	Version string
	// Claim is the claim in its own version with status.allocation filled
	// in (v1alpha3 allocation.devices, v1alpha2 resourceHandles with
	// structuredData, v1alpha1 resourceHandle), typed or unstructured as it
	// was given. It is nil when Err is set.
	Claim runtime.Object
	// Result is the hub result.
	Result Result
	// Err is Result.Err.
	Err error
}

// AllocateObjects allocates claims written in any version of
// resource.k8s.io, given together with the classes and slices to use, as
// typed objects or *unstructured.Unstructured. Claims that already have an
// allocation count as allocated (their devices are in use) and come back
// unchanged; every other claim is allocated. The results are in the order
// the claims appear in objs. Objects of other kinds (PodSchedulingContext,
// templates, ...) are rejected, naming the object, so that nothing given is
// silently ignored. The error return is for unusable input and a cancelled
// context; claims that cannot be allocated get their error in the result.
func AllocateObjects(ctx context.Context, objs []runtime.Object, opts ObjectOptions) ([]ObjectResult, error) {
	var (
		classes  []*resource.DeviceClass
		slices   []*resource.ResourceSlice
		claims   []*resource.ResourceClaim
		versions []string
		unstr    []bool
	)
	for i, obj := range objs {
		if obj == nil {
			return nil, fmt.Errorf("object %d is nil", i)
		}
		gvk, isUnstructured, err := kindOf(obj)
		if err != nil {
			return nil, fmt.Errorf("object %d: %w", i, err)
		}
		typed := obj
		if isUnstructured {
			u := obj.(*unstructured.Unstructured)
			if typed, err = conversion.Scheme.New(gvk); err != nil {
				return nil, fmt.Errorf("object %d (%s %q): %w", i, gvk.Kind, u.GetName(), err)
			}
			// Unknown fields are an error: dropping them would lose data.
			if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(u.Object, typed, true); err != nil {
				return nil, fmt.Errorf("object %d (%s %q): %w", i, gvk.Kind, u.GetName(), err)
			}
			typed.GetObjectKind().SetGroupVersionKind(gvk)
		}
		hub, err := conversion.ToHub(typed)
		if err != nil {
			return nil, fmt.Errorf("object %d (%s): %w", i, gvk.Kind, err)
		}
		switch h := hub.(type) {
		case *resource.DeviceClass:
			classes = append(classes, h)
		case *resource.ResourceSlice:
			slices = append(slices, h)
		case *resource.ResourceClaim:
			claims = append(claims, h)
			versions = append(versions, gvk.Version)
			unstr = append(unstr, isUnstructured)
		default:
			return nil, fmt.Errorf("object %d: %s %q plays no part in allocation; give DeviceClasses (ResourceClasses), ResourceSlices and ResourceClaims", i, gvk.Kind, nameOf(obj))
		}
	}
	a, err := New(Options{Classes: classes, Slices: slices, Node: opts.Node, Mode: opts.Mode})
	if err != nil {
		return nil, err
	}
	results, err := a.Allocate(ctx, claims)
	if err != nil {
		return nil, err
	}
	out := make([]ObjectResult, len(results))
	for i, r := range results {
		out[i] = ObjectResult{Name: claimName(claims[i]), Version: versions[i], Result: r, Err: r.Err}
		if r.Err != nil {
			continue
		}
		hub := claims[i]
		if !r.AlreadyAllocated {
			hub = r.AllocatedClaim()
			if versions[i] != "v1alpha3" {
				// Before v1alpha3 the status names the driver that handled
				// the allocation; with structured allocation that is the
				// driver of the devices, when there is exactly one.
				hub.Status.DriverName = singleDriver(r.Allocation)
			}
		}
		obj, err := conversion.FromHub(hub, versions[i])
		if err != nil {
			return nil, fmt.Errorf("claim %s: writing the allocation back as %s: %w", out[i].Name, versions[i], err)
		}
		if unstr[i] {
			content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
			if err != nil {
				return nil, fmt.Errorf("claim %s: %w", out[i].Name, err)
			}
			obj = &unstructured.Unstructured{Object: content}
		}
		out[i].Claim = obj
	}
	return out, nil
}

func singleDriver(a *resource.AllocationResult) string {
	driver := ""
	for _, r := range a.Devices.Results {
		if driver != "" && r.Driver != driver {
			return ""
		}
		driver = r.Driver
	}
	return driver
}

func kindOf(obj runtime.Object) (schema.GroupVersionKind, bool, error) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		gvk := u.GroupVersionKind()
		if gvk.Group != resource.GroupName {
			return gvk, true, fmt.Errorf("%s %q is not in the %s group", gvk.Kind, u.GetName(), resource.GroupName)
		}
		return gvk, true, nil
	}
	gvks, _, err := conversion.Scheme.ObjectKinds(obj)
	if err != nil {
		return schema.GroupVersionKind{}, false, fmt.Errorf("%T is not a resource.k8s.io type: %w", obj, err)
	}
	for _, gvk := range gvks {
		if gvk.Group == resource.GroupName {
			return gvk, false, nil
		}
	}
	return schema.GroupVersionKind{}, false, fmt.Errorf("%T is not a resource.k8s.io type", obj)
}

func nameOf(obj runtime.Object) string {
	if m, ok := obj.(interface{ GetName() string }); ok {
		return m.GetName()
	}
	return ""
}
