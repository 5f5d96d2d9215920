package driverconfig

import (
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/internal/quantityguard"
)

// Source says where a config was written: in a DeviceClass or in a claim.
// Its values are those of status.allocation.devices.config[].source.
type Source string

const (
	// SourceClass is a config of a DeviceClass (spec.config[]), or of a
	// 1.30 ResourceClassParameters (vendorParameters[]).
	SourceClass Source = "FromClass"
	// SourceClaim is a config of a ResourceClaim or ResourceClaimTemplate
	// (devices.config[]), or of a 1.30 ResourceClaimParameters
	// (driverRequests[].vendorParameters and
	// driverRequests[].requests[].vendorParameters).
	SourceClaim Source = "FromClaim"
)

// Config is one opaque config of one driver, as an object holds it.
type Config struct {
	// Driver is the driver the config is for (opaque.driver, or a 1.30
	// parameter object's driverName).
	Driver string

	// Requests are the requests the config names, as written: a request
	// ("gpu") or a subrequest ("gpu/small"). Empty means every request of
	// the claim. A class config names none. 1.30's
	// driverRequests[].requests[] have no names: their configs name none
	// either, and Path says which request they belong to.
	Requests []string

	// Source says whether a class or a claim holds the config.
	Source Source

	// Parameters are the driver's raw parameters. They share memory with
	// the object they were read from: do not modify them.
	Parameters runtime.RawExtension

	// Path is the path of the parameters in the object's own version, as
	// the user wrote them: spec.devices.config[0].opaque.parameters in a
	// claim, spec.spec.devices.config[1].opaque.parameters in a template,
	// spec.config[0].opaque.parameters in a class,
	// driverRequests[0].requests[1].vendorParameters in a 1.30
	// ResourceClaimParameters, status.allocation.devices.config[2].opaque.parameters
	// in an allocation.
	Path *field.Path
}

// UnsupportedObjectError is the error of Configs and AllocatedConfigs for an
// object whose kind or version they cannot read.
type UnsupportedObjectError struct {
	// GVK is the object's kind, as far as it is known.
	GVK schema.GroupVersionKind
	// Type is the object's Go type.
	Type string
}

func (e *UnsupportedObjectError) Error() string {
	if e.GVK.Empty() {
		return fmt.Sprintf("driverconfig: cannot read opaque configs of a %s: not a resource.k8s.io ResourceClaim, ResourceClaimTemplate, DeviceClass or 1.30 parameter object", e.Type)
	}
	return fmt.Sprintf("driverconfig: cannot read opaque configs of %s (%s): not a resource.k8s.io kind this package knows", e.GVK, e.Type)
}

// Configs returns every opaque config the object holds, in the order it
// holds them, with the path of each in the object's own version. The
// object is a ResourceClaim, ResourceClaimTemplate or DeviceClass of
// v1alpha3 (drakit's 1.31 types), v1beta1, v1beta2 or v1 (k8s.io/api's
// types), or drakit's hub type of one of them; a 1.30
// ResourceClaimParameters or ResourceClassParameters (v1alpha2); or an
// *unstructured.Unstructured holding any of those. The kinds of
// resource.k8s.io that hold no opaque config (v1alpha1's and v1alpha2's
// claims, templates and classes, which name parameter objects instead;
// ResourceSlices; PodSchedulingContexts; DeviceTaintRules; ...) give none.
// Lists and objects of other groups are an *UnsupportedObjectError.
//
// A claim's status.allocation is not read: AllocatedConfigs reads it.
func Configs(obj runtime.Object) ([]Config, error) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		typed, err := typedFromUnstructured(u)
		if err != nil {
			return nil, err
		}
		obj = typed
	}
	out, ok := specConfigs(obj)
	if !ok {
		return nil, unsupported(obj)
	}
	return out, nil
}

func unsupported(obj runtime.Object) error {
	e := &UnsupportedObjectError{Type: fmt.Sprintf("%T", obj)}
	if obj != nil {
		if gvks, _, err := scheme.ObjectKinds(obj); err == nil && len(gvks) > 0 {
			e.GVK = gvks[0]
		} else {
			e.GVK = obj.GetObjectKind().GroupVersionKind()
		}
	}
	return e
}

// typedFromUnstructured converts u to the typed object of its apiVersion
// and kind, whose fields the walkers read. Only the parameters are copied
// as JSON; the rest is what the converter gives.
func typedFromUnstructured(u *unstructured.Unstructured) (runtime.Object, error) {
	gvk := u.GroupVersionKind()
	typed, err := scheme.New(gvk)
	if err != nil {
		return nil, &UnsupportedObjectError{GVK: gvk, Type: "*unstructured.Unstructured"}
	}
	// A quantity with a huge exponent would never finish decoding.
	if perr := quantityguard.CheckValue(u.UnstructuredContent(), reflect.TypeOf(typed)); perr != nil {
		return nil, fmt.Errorf("driverconfig: reading %s %q: %w", gvk.Kind, u.GetName(), perr)
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.UnstructuredContent(), typed); err != nil {
		return nil, fmt.Errorf("driverconfig: reading %s %q: %w", gvk.Kind, u.GetName(), err)
	}
	return typed, nil
}
