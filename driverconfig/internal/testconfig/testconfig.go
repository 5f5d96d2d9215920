// Package testconfig is a driver's config type for the tests of
// driverconfig and its admission webhook: GpuConfig of
// gpu.example.com/v1, registered in Scheme, and its validation.
package testconfig

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// GroupVersion is the config's apiVersion.
var GroupVersion = schema.GroupVersion{Group: "gpu.example.com", Version: "v1"}

// Driver and OtherName are the two names the test driver registers.
const (
	Driver    = "gpu.example.com"
	OtherName = "compute-domain.example.com"
)

// GpuConfig is the driver's config.
type GpuConfig struct {
	metav1.TypeMeta `json:",inline"`
	// Sharing is "TimeSlicing" or "MPS"; empty means exclusive.
	Sharing string `json:"sharing,omitempty"`
	// Interval is the time slice, 1 to 100 (default 10 when sharing by
	// TimeSlicing).
	Interval *int `json:"interval,omitempty"`
}

// DeepCopyObject is runtime.Object's.
func (c *GpuConfig) DeepCopyObject() runtime.Object {
	out := *c
	if c.Interval != nil {
		v := *c.Interval
		out.Interval = &v
	}
	return &out
}

// Scheme holds GpuConfig, with a defaulter.
var Scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	s.AddKnownTypes(GroupVersion, &GpuConfig{})
	s.AddTypeDefaultingFunc(&GpuConfig{}, func(obj any) {
		c := obj.(*GpuConfig)
		if c.Sharing == "TimeSlicing" && c.Interval == nil {
			ten := 10
			c.Interval = &ten
		}
	})
	return s
}()

// Validate is the driver's validation.
func Validate(_ context.Context, obj runtime.Object, path *field.Path) field.ErrorList {
	c, ok := obj.(*GpuConfig)
	if !ok {
		return field.ErrorList{field.InternalError(path, fmt.Errorf("unexpected %T", obj))}
	}
	var errs field.ErrorList
	switch c.Sharing {
	case "", "TimeSlicing", "MPS":
	default:
		errs = append(errs, field.NotSupported(path.Child("sharing"), c.Sharing, []string{"TimeSlicing", "MPS"}))
	}
	if c.Interval != nil && (*c.Interval < 1 || *c.Interval > 100) {
		errs = append(errs, field.Invalid(path.Child("interval"), *c.Interval, "must be between 1 and 100"))
	}
	if c.Interval != nil && c.Sharing != "TimeSlicing" {
		errs = append(errs, field.Forbidden(path.Child("interval"), "only with sharing TimeSlicing"))
	}
	return errs
}
