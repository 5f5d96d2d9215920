package driverconfig

import (
	"context"
	"fmt"
	"strings"

	resourcev1 "k8s.io/api/resource/v1"
	resourcev1beta1 "k8s.io/api/resource/v1beta1"
	resourcev1beta2 "k8s.io/api/resource/v1beta2"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/klog/v2"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
	"github.com/drakit/drakit/conversion"
)

// Result is one allocated device of a claim (an entry of
// status.allocation.devices.results).
type Result struct {
	// Request is the request the device was allocated for: "gpu", or
	// "gpu/small" for a subrequest of firstAvailable. Empty for a 1.30
	// allocation, whose requests have no names.
	Request string
	// Driver, Pool and Device name the device. A 1.30 allocation has no
	// pools: Pool is its structuredData.nodeName.
	Driver, Pool, Device string
	// Path is the result's path in the claim's own version.
	Path *field.Path
}

// ParentRequest is the request of a result: the part of Request before
// its "/" (the request of a subrequest), or Request itself.
func (r Result) ParentRequest() string {
	parent, _, _ := strings.Cut(r.Request, "/")
	return parent
}

// DeviceConfigs is one allocated device of a driver and the configs of
// that driver that apply to it, in the order they apply: the later one
// wins where two set the same thing.
type DeviceConfigs struct {
	Result
	Configs []Config
}

// AllocatedConfigs returns, for one driver, each device allocated to the
// claim (status.allocation) with the configs of that driver that apply
// to it, in the order they apply: the configs from classes first, then
// the claim's, each in the order of status.allocation.devices.config.
// Other drivers' devices and configs are left out. A config applies to a
// device when it names no request, when it names the device's request, or
// when it names the request whose subrequest the device was allocated for
// ("gpu" applies to "gpu/small"; "gpu/small" applies only to "gpu/small").
//
// A FromClass config that names no request applies to every device of
// the driver, as the API defines an empty list. When the allocation has
// results of more than one request, a warning says that servers without
// the fix of kubernetes/kubernetes issue 134789 wrote the class config of
// one request so too.
//
// The claim is a ResourceClaim of v1alpha3 (1.31), v1beta1, v1beta2, v1,
// drakit's hub, v1alpha2 (a 1.30 structured allocation, whose class,
// claim and request parameters apply in that order), or an unstructured
// one of those. An unallocated claim is an error.
func AllocatedConfigs(claim runtime.Object, driver string) ([]DeviceConfigs, []string, error) {
	if u, ok := claim.(*unstructured.Unstructured); ok {
		typed, err := typedFromUnstructured(u)
		if err != nil {
			return nil, nil, err
		}
		claim = typed
	}
	if c, ok := claim.(*v1alpha2.ResourceClaim); ok {
		if c.Status.Allocation == nil {
			return nil, nil, notAllocated(claim)
		}
		return allocationV1alpha2(c.Status.Allocation, driver), nil, nil
	}
	switch claim.(type) {
	case *resourcev1.ResourceClaim, *resourcev1beta2.ResourceClaim, *resourcev1beta1.ResourceClaim, *v1alpha3.ResourceClaim:
		// Their allocations have the hub's shape and field paths (v1's):
		// read them from the hub. The kubelet asks once per claim it
		// prepares, where a conversion costs nothing that matters.
		hub, err := conversion.ToHub(claim)
		if err != nil {
			return nil, nil, fmt.Errorf("driverconfig: claim %s: %w", objectName(claim), err)
		}
		claim = hub
	}
	c, ok := claim.(*resource.ResourceClaim)
	if !ok {
		return nil, nil, unsupported(claim)
	}
	if c.Status.Allocation == nil {
		return nil, nil, notAllocated(claim)
	}
	results, cfgs, requests := allocationHub(c.Status.Allocation.Devices, driver)
	return effective(results, cfgs, driver, requests)
}

// notAllocated is the error for a claim without status.allocation.
func notAllocated(claim runtime.Object) error {
	return fmt.Errorf("driverconfig: claim %s is not allocated (status.allocation is not set)", objectName(claim))
}

// effective matches configs to results. cfgs are this driver's, in the
// allocation's order; requests is how many requests of the claim the
// allocation has results of.
func effective(results []Result, cfgs []Config, driver string, requests int) ([]DeviceConfigs, []string, error) {
	var warnings []string
	if requests > 1 {
		for _, c := range cfgs {
			if c.Source == SourceClass && len(c.Requests) == 0 {
				warnings = append(warnings, fmt.Sprintf("%s: a FromClass config of driver %s names no request, so it applies to all %d requests of the claim; servers without the fix of kubernetes/kubernetes#134789 (1.31, and 1.32 to 1.34 before their fixed patch releases) wrote the config of one request's class so: if one of them allocated this claim, the config may be meant for one request only",
					strings.TrimSuffix(c.Path.String(), ".opaque.parameters"), driver, requests))
			}
		}
	}
	out := make([]DeviceConfigs, 0, len(results))
	for _, r := range results {
		dc := DeviceConfigs{Result: r}
		for _, source := range []Source{SourceClass, SourceClaim} {
			for _, c := range cfgs {
				if c.Source == source && appliesTo(c.Requests, r.Request) {
					dc.Configs = append(dc.Configs, c)
				}
			}
		}
		out = append(out, dc)
	}
	return out, warnings, nil
}

// appliesTo says whether a config naming requests applies to a device
// allocated for request.
func appliesTo(requests []string, request string) bool {
	if len(requests) == 0 {
		return true
	}
	parent, _, sub := strings.Cut(request, "/")
	for _, name := range requests {
		if name == request || sub && name == parent {
			return true
		}
	}
	return false
}

// addParent adds the request of result request to parents, once.
func addParent(parents []string, request string) []string {
	parent, _, _ := strings.Cut(request, "/")
	for _, p := range parents {
		if p == parent {
			return parents
		}
	}
	return append(parents, parent)
}

// source maps an allocation's source to a Source; an unknown one is kept
// as written, and is neither class nor claim: such a config applies to
// nothing.
func source(s string) Source { return Source(s) }

func allocationHub(d resource.DeviceAllocationResult, driver string) ([]Result, []Config, int) {
	var results []Result
	var parents []string
	for i, r := range d.Results {
		parents = addParent(parents, r.Request)
		if r.Driver == driver {
			results = append(results, Result{Request: r.Request, Driver: r.Driver, Pool: r.Pool, Device: r.Device, Path: allocResultPath.Index(i)})
		}
	}
	var cfgs []Config
	for i, c := range d.Config {
		if c.Opaque != nil && c.Opaque.Driver == driver {
			cfgs = append(cfgs, Config{Driver: driver, Requests: c.Requests, Source: source(string(c.Source)), Parameters: c.Opaque.Parameters, Path: opaquePath(allocConfigPath, i)})
		}
	}
	return results, cfgs, len(parents)
}

// allocationV1alpha2 reads a 1.30 structured allocation: each handle of
// the driver carries the class's and the claim's parameters for all its
// results, and each result its request's parameters.
func allocationV1alpha2(a *v1alpha2.AllocationResult, driver string) []DeviceConfigs {
	var out []DeviceConfigs
	handles := field.NewPath("status", "allocation", "resourceHandles")
	for i := range a.ResourceHandles {
		h := &a.ResourceHandles[i]
		if h.DriverName != driver || h.StructuredData == nil {
			continue
		}
		sd := handles.Index(i).Child("structuredData")
		var shared []Config
		if present(h.StructuredData.VendorClassParameters) {
			shared = append(shared, Config{Driver: driver, Source: SourceClass, Parameters: h.StructuredData.VendorClassParameters, Path: sd.Child("vendorClassParameters")})
		}
		if present(h.StructuredData.VendorClaimParameters) {
			shared = append(shared, Config{Driver: driver, Source: SourceClaim, Parameters: h.StructuredData.VendorClaimParameters, Path: sd.Child("vendorClaimParameters")})
		}
		for j := range h.StructuredData.Results {
			r := &h.StructuredData.Results[j]
			dc := DeviceConfigs{Result: Result{Driver: driver, Pool: h.StructuredData.NodeName, Path: sd.Child("results").Index(j)}}
			if r.NamedResources != nil {
				dc.Device = r.NamedResources.Name
			}
			dc.Configs = append(dc.Configs, shared...)
			if present(r.VendorRequestParameters) {
				dc.Configs = append(dc.Configs, Config{Driver: driver, Source: SourceClaim, Parameters: r.VendorRequestParameters, Path: dc.Path.Child("vendorRequestParameters")})
			}
			out = append(out, dc)
		}
	}
	return out
}

// DecodedDevice is one allocated device of a driver with its configs
// decoded, in the order they apply.
type DecodedDevice struct {
	Result
	// Configs are the decoded configs; a Validator's configs, which
	// decode to nothing, are left out.
	Configs []runtime.Object
}

// DecodeAllocated is AllocatedConfigs followed by Decode of every config:
// the one call of a kubelet plugin's NodePrepareResources. The driver
// must be registered. Configs that fail to decode or validate are an
// error that lists each under its path; use the NonStrict view for
// checkpoints.
func (r *Registry) DecodeAllocated(ctx context.Context, claim runtime.Object, driver string) ([]DecodedDevice, []string, error) {
	if !r.Handles(driver) {
		return nil, nil, fmt.Errorf("driverconfig: no decoder is registered for driver %q", driver)
	}
	devices, warnings, err := AllocatedConfigs(claim, driver)
	if err != nil {
		return nil, warnings, err
	}
	// A config that applies to several devices is decoded once.
	decoded := map[*field.Path]runtime.Object{}
	var errs field.ErrorList
	out := make([]DecodedDevice, 0, len(devices))
	for _, d := range devices {
		dd := DecodedDevice{Result: d.Result}
		for _, cfg := range d.Configs {
			obj, seen := decoded[cfg.Path]
			if !seen {
				var e field.ErrorList
				obj, e = r.Decode(ctx, cfg)
				errs = append(errs, e...)
				decoded[cfg.Path] = obj
			}
			if obj != nil {
				dd.Configs = append(dd.Configs, obj)
			}
		}
		out = append(out, dd)
	}
	if len(errs) > 0 {
		return nil, warnings, fmt.Errorf("driverconfig: the configs of driver %s in claim %s: %w", driver, objectName(claim), errs.ToAggregate())
	}
	return out, warnings, nil
}

func objectName(obj runtime.Object) string {
	if m, err := meta.Accessor(obj); err == nil {
		return klog.KObj(m).String()
	}
	return ""
}
