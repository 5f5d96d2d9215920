// Package driverconfig reads DRA drivers' opaque configs
// (devices.config[].opaque.parameters and their older forms) out of
// resource.k8s.io objects of every version, and decodes and validates
// them with each driver's own types: the code every driver's admission
// webhook and kubelet plugin otherwise writes for itself, once per API
// version.
//
// # Where configs are
//
// Configs returns every opaque config an object holds, with its driver,
// the requests it names, its source and its raw parameters, and the path
// of the parameters in the object's own version, as the user wrote them:
//
//	kind                     versions                     path of entry i
//	ResourceClaim            v1alpha3 (1.31), v1beta1,    spec.devices.config[i].opaque.parameters
//	                         v1beta2, v1
//	ResourceClaimTemplate    same                         spec.spec.devices.config[i].opaque.parameters
//	DeviceClass              same                         spec.config[i].opaque.parameters
//	ResourceClaimParameters  v1alpha2 (1.30)              driverRequests[i].vendorParameters,
//	                                                      driverRequests[i].requests[j].vendorParameters
//	ResourceClassParameters  v1alpha2 (1.30)              vendorParameters[i].parameters
//
// The typed objects are k8s.io/api's for v1beta1, v1beta2 and v1, and
// drakit's (apis/resource/v1alpha2, v1alpha3) for the alpha versions;
// drakit's hub types are read with v1's paths; an unstructured object is
// read as the typed object of its apiVersion and kind. Each version's
// typed object is walked in place, without a conversion, since admission
// reads every object a user writes. v1alpha1 (1.26) and v1alpha2's
// claims, templates and classes hold no opaque config (they name
// parameter objects), nor do ResourceSlices, DeviceTaintRules and the
// other kinds of resource.k8s.io: they give none. Lists, and objects of
// other groups, are an *UnsupportedObjectError.
//
// A config from a class names no request. A claim's config names
// requests ("gpu") or subrequests of firstAvailable ("gpu/small"), or none
// for every request. 1.30's per-request vendorParameters belong to a
// request without a name: they name none, and their path says which.
//
// # Decoding
//
// A Registry holds one Decoder per driver name; a driver with several
// names registers the same Decoder under each, so that none of its
// names' configs goes unchecked. NewSchemeDecoder decodes with a
// runtime.Scheme of the driver's config types, through apimachinery's
// JSON serializer: the parameters' apiVersion and kind pick the type;
// the Registry decodes strictly (an unknown field or a field given twice
// is an error), and its NonStrict view does not, for reading a driver's
// own checkpoints written by another version of it. Validator turns a
// function over raw parameters into a Decoder, so that a schema can
// validate configs without Go types.
//
// Errors are a field.ErrorList under the config's path: parameters that
// do not decode, have no apiVersion or kind, or have a kind the driver's
// scheme lacks are one field.Invalid at the path (naming the kinds the
// driver knows); the driver's validation adds its own errors, under the
// path or below it. Registry.Validate and ValidateConfigs skip the
// configs of drivers not registered: they are other drivers' business.
// A Decoder that panics gives an internal error at the config's path.
//
// # On the node
//
// AllocatedConfigs gives, for one allocated claim and one driver, each
// device allocated from that driver (status.allocation.devices.results)
// with the configs that apply to it, in the order they apply, the later
// overriding the earlier:
//
//   - the configs from classes (source FromClass), then the claim's
//     (FromClaim), each in the order of status.allocation.devices.config;
//   - other drivers' configs are left out;
//   - a config applies to a device when it names no request, names the
//     device's request, or names the request whose subrequest the device
//     was allocated for: "gpu" applies to "gpu/small", "gpu/small" only to
//     "gpu/small" (as k8s.io/dynamic-resource-allocation's
//     resourceclaim.ConfigForResult matches them; hack/consumer compares
//     the two on random allocations);
//   - a FromClass config that names no request applies to every device
//     of the driver, as the API defines an empty list, as 1.37's
//     allocator means it (it empties the list of a config that applies
//     to every request) and as drivers have read it. Servers without the
//     fix of kubernetes/kubernetes issue 134789 (1.31, and 1.32 to 1.34
//     before the patch releases that carry it) wrote the class config of
//     one request without its request too, so that it cannot be told
//     apart: when the allocation has results of more than one request, a
//     warning names each such config. A driver that wants another rule
//     sees them by their empty Requests;
//   - a 1.30 structured allocation (v1alpha2, resourceHandles[] with
//     structuredData) gives, for each result, the class's parameters,
//     the claim's and the request's, in that order.
//
// Registry.DecodeAllocated does both in one call: the devices of the
// driver with their configs decoded (strictly; NonStrict for
// checkpoints), or an error listing every config that does not decode
// or validate, under its path.
//
// The admission subpackage is the webhook built on this package.
package driverconfig
