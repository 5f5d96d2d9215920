package driverconfig

import (
	"strings"

	resourcev1 "k8s.io/api/resource/v1"
	resourcev1beta1 "k8s.io/api/resource/v1beta1"
	resourcev1beta2 "k8s.io/api/resource/v1beta2"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/install"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// scheme knows every version of resource.k8s.io, for unstructured objects
// and for the handler's decoding.
var scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	install.Install(s)
	return s
}()

// Scheme is the scheme Configs reads unstructured objects with: every
// version of resource.k8s.io that drakit knows, and drakit's hub. It is
// shared: do not add to it.
func Scheme() *runtime.Scheme { return scheme }

// The paths of the configs, built once: a config's path is one Index and
// two Child calls below one of these.
var (
	claimConfigPath    = field.NewPath("spec", "devices", "config")
	templateConfigPath = field.NewPath("spec", "spec", "devices", "config")
	classConfigPath    = field.NewPath("spec", "config")
	allocConfigPath    = field.NewPath("status", "allocation", "devices", "config")
	allocResultPath    = field.NewPath("status", "allocation", "devices", "results")
	driverRequestsPath = field.NewPath("driverRequests")
	vendorParamsPath   = field.NewPath("vendorParameters")
)

// opaquePath is the path of the parameters of entry i of a config list.
func opaquePath(list *field.Path, i int) *field.Path {
	return list.Index(i).Child("opaque", "parameters")
}

// specConfigs walks the typed object of each version directly: each
// version's config lists are read in place, with no conversion, since
// this runs for every admission review.
func specConfigs(obj runtime.Object) ([]Config, bool) {
	switch o := obj.(type) {
	// v1
	case *resourcev1.ResourceClaim:
		return claimConfigsV1(o.Spec.Devices.Config, claimConfigPath), true
	case *resourcev1.ResourceClaimTemplate:
		return claimConfigsV1(o.Spec.Spec.Devices.Config, templateConfigPath), true
	case *resourcev1.DeviceClass:
		return classConfigsV1(o.Spec.Config), true
	// v1beta2
	case *resourcev1beta2.ResourceClaim:
		return claimConfigsV1beta2(o.Spec.Devices.Config, claimConfigPath), true
	case *resourcev1beta2.ResourceClaimTemplate:
		return claimConfigsV1beta2(o.Spec.Spec.Devices.Config, templateConfigPath), true
	case *resourcev1beta2.DeviceClass:
		return classConfigsV1beta2(o.Spec.Config), true
	// v1beta1
	case *resourcev1beta1.ResourceClaim:
		return claimConfigsV1beta1(o.Spec.Devices.Config, claimConfigPath), true
	case *resourcev1beta1.ResourceClaimTemplate:
		return claimConfigsV1beta1(o.Spec.Spec.Devices.Config, templateConfigPath), true
	case *resourcev1beta1.DeviceClass:
		return classConfigsV1beta1(o.Spec.Config), true
	// v1alpha3, 1.31's kinds
	case *v1alpha3.ResourceClaim:
		return claimConfigsV1alpha3(o.Spec.Devices.Config, claimConfigPath), true
	case *v1alpha3.ResourceClaimTemplate:
		return claimConfigsV1alpha3(o.Spec.Spec.Devices.Config, templateConfigPath), true
	case *v1alpha3.DeviceClass:
		return classConfigsV1alpha3(o.Spec.Config), true
	// v1alpha2, 1.30's parameter kinds
	case *v1alpha2.ResourceClaimParameters:
		return claimParametersConfigs(o), true
	case *v1alpha2.ResourceClassParameters:
		return classParametersConfigs(o), true
	// the hub, whose paths are v1's
	case *resource.ResourceClaim:
		return claimConfigsHub(o.Spec.Devices.Config, claimConfigPath), true
	case *resource.ResourceClaimTemplate:
		return claimConfigsHub(o.Spec.Spec.Devices.Config, templateConfigPath), true
	case *resource.DeviceClass:
		return classConfigsHub(o.Spec.Config), true
	case *resource.ResourceClaimParameters:
		return hubClaimParametersConfigs(o), true
	case *resource.ResourceClassParameters:
		return hubClassParametersConfigs(o), true
	}
	return nil, holdsNoConfig(obj)
}

// holdsNoConfig says whether obj is of a kind of resource.k8s.io that
// holds no opaque config: every kind the scheme knows in the group but
// those specConfigs reads, and but the lists (whose items may hold
// configs).
func holdsNoConfig(obj runtime.Object) bool {
	if obj == nil {
		return false
	}
	gvks, _, err := scheme.ObjectKinds(obj)
	if err != nil {
		return false
	}
	for _, gvk := range gvks {
		if gvk.Group != resource.GroupName || strings.HasSuffix(gvk.Kind, "List") {
			return false
		}
	}
	return true
}

func claimConfigsV1(cfgs []resourcev1.DeviceClaimConfiguration, list *field.Path) []Config {
	var out []Config
	for i := range cfgs {
		if o := cfgs[i].Opaque; o != nil {
			out = append(out, Config{Driver: o.Driver, Requests: cfgs[i].Requests, Source: SourceClaim, Parameters: o.Parameters, Path: opaquePath(list, i)})
		}
	}
	return out
}

func classConfigsV1(cfgs []resourcev1.DeviceClassConfiguration) []Config {
	var out []Config
	for i := range cfgs {
		if o := cfgs[i].Opaque; o != nil {
			out = append(out, Config{Driver: o.Driver, Source: SourceClass, Parameters: o.Parameters, Path: opaquePath(classConfigPath, i)})
		}
	}
	return out
}

func claimConfigsV1beta2(cfgs []resourcev1beta2.DeviceClaimConfiguration, list *field.Path) []Config {
	var out []Config
	for i := range cfgs {
		if o := cfgs[i].Opaque; o != nil {
			out = append(out, Config{Driver: o.Driver, Requests: cfgs[i].Requests, Source: SourceClaim, Parameters: o.Parameters, Path: opaquePath(list, i)})
		}
	}
	return out
}

func classConfigsV1beta2(cfgs []resourcev1beta2.DeviceClassConfiguration) []Config {
	var out []Config
	for i := range cfgs {
		if o := cfgs[i].Opaque; o != nil {
			out = append(out, Config{Driver: o.Driver, Source: SourceClass, Parameters: o.Parameters, Path: opaquePath(classConfigPath, i)})
		}
	}
	return out
}

func claimConfigsV1beta1(cfgs []resourcev1beta1.DeviceClaimConfiguration, list *field.Path) []Config {
	var out []Config
	for i := range cfgs {
		if o := cfgs[i].Opaque; o != nil {
			out = append(out, Config{Driver: o.Driver, Requests: cfgs[i].Requests, Source: SourceClaim, Parameters: o.Parameters, Path: opaquePath(list, i)})
		}
	}
	return out
}

func classConfigsV1beta1(cfgs []resourcev1beta1.DeviceClassConfiguration) []Config {
	var out []Config
	for i := range cfgs {
		if o := cfgs[i].Opaque; o != nil {
			out = append(out, Config{Driver: o.Driver, Source: SourceClass, Parameters: o.Parameters, Path: opaquePath(classConfigPath, i)})
		}
	}
	return out
}

func claimConfigsV1alpha3(cfgs []v1alpha3.DeviceClaimConfiguration, list *field.Path) []Config {
	var out []Config
	for i := range cfgs {
		if o := cfgs[i].Opaque; o != nil {
			out = append(out, Config{Driver: o.Driver, Requests: cfgs[i].Requests, Source: SourceClaim, Parameters: o.Parameters, Path: opaquePath(list, i)})
		}
	}
	return out
}

func classConfigsV1alpha3(cfgs []v1alpha3.DeviceClassConfiguration) []Config {
	var out []Config
	for i := range cfgs {
		if o := cfgs[i].Opaque; o != nil {
			out = append(out, Config{Driver: o.Driver, Source: SourceClass, Parameters: o.Parameters, Path: opaquePath(classConfigPath, i)})
		}
	}
	return out
}

func claimConfigsHub(cfgs []resource.DeviceClaimConfiguration, list *field.Path) []Config {
	var out []Config
	for i := range cfgs {
		if o := cfgs[i].Opaque; o != nil {
			out = append(out, Config{Driver: o.Driver, Requests: cfgs[i].Requests, Source: SourceClaim, Parameters: o.Parameters, Path: opaquePath(list, i)})
		}
	}
	return out
}

func classConfigsHub(cfgs []resource.DeviceClassConfiguration) []Config {
	var out []Config
	for i := range cfgs {
		if o := cfgs[i].Opaque; o != nil {
			out = append(out, Config{Driver: o.Driver, Source: SourceClass, Parameters: o.Parameters, Path: opaquePath(classConfigPath, i)})
		}
	}
	return out
}

// present says whether a 1.30 vendorParameters field was set: the field is
// optional there, and an empty one is no config.
func present(p runtime.RawExtension) bool {
	return len(p.Raw) > 0 && string(p.Raw) != "null" || p.Object != nil
}

// claimParametersConfigs reads a 1.30 ResourceClaimParameters: the
// parameters of each driver entry, then those of each of its requests.
func claimParametersConfigs(o *v1alpha2.ResourceClaimParameters) []Config {
	var out []Config
	for i := range o.DriverRequests {
		dr := &o.DriverRequests[i]
		p := driverRequestsPath.Index(i)
		if present(dr.VendorParameters) {
			out = append(out, Config{Driver: dr.DriverName, Source: SourceClaim, Parameters: dr.VendorParameters, Path: p.Child("vendorParameters")})
		}
		for j := range dr.Requests {
			if present(dr.Requests[j].VendorParameters) {
				out = append(out, Config{Driver: dr.DriverName, Source: SourceClaim, Parameters: dr.Requests[j].VendorParameters, Path: p.Child("requests").Index(j).Child("vendorParameters")})
			}
		}
	}
	return out
}

func classParametersConfigs(o *v1alpha2.ResourceClassParameters) []Config {
	var out []Config
	for i := range o.VendorParameters {
		vp := &o.VendorParameters[i]
		if present(vp.Parameters) {
			out = append(out, Config{Driver: vp.DriverName, Source: SourceClass, Parameters: vp.Parameters, Path: vendorParamsPath.Index(i).Child("parameters")})
		}
	}
	return out
}

func hubClaimParametersConfigs(o *resource.ResourceClaimParameters) []Config {
	var out []Config
	for i := range o.DriverRequests {
		dr := &o.DriverRequests[i]
		p := driverRequestsPath.Index(i)
		if present(dr.VendorParameters) {
			out = append(out, Config{Driver: dr.DriverName, Source: SourceClaim, Parameters: dr.VendorParameters, Path: p.Child("vendorParameters")})
		}
		for j := range dr.Requests {
			if present(dr.Requests[j].VendorParameters) {
				out = append(out, Config{Driver: dr.DriverName, Source: SourceClaim, Parameters: dr.Requests[j].VendorParameters, Path: p.Child("requests").Index(j).Child("vendorParameters")})
			}
		}
	}
	return out
}

func hubClassParametersConfigs(o *resource.ResourceClassParameters) []Config {
	var out []Config
	for i := range o.VendorParameters {
		vp := &o.VendorParameters[i]
		if present(vp.Parameters) {
			out = append(out, Config{Driver: vp.DriverName, Source: SourceClass, Parameters: vp.Parameters, Path: vendorParamsPath.Index(i).Child("parameters")})
		}
	}
	return out
}
