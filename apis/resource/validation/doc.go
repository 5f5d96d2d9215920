// Package validation checks resource.k8s.io objects the way the API server
// of the release that serves their version does (the catalogue's Rules of
// each version and kind decide which release; TestDocTableFollowsTheCatalogue
// keeps this table in step with it):
//
//	v1alpha1  Kubernetes 1.26
//	v1alpha2  Kubernetes 1.30 (with structured parameters)
//	v1alpha3  Kubernetes 1.31; DeviceTaintRule and ResourcePoolStatusRequest 1.37
//	v1beta1   Kubernetes 1.37
//	v1beta2   Kubernetes 1.37
//	v1        Kubernetes 1.37
//
// ValidateObject validates a create, ValidateObjectUpdate an update of the
// main resource and ValidateObjectStatusUpdate an update through the status
// subresource. They take the typed objects of this module's versioned
// packages (or Lists of them, a v1 List, or Unstructured objects of these
// kinds, converted strictly: an unknown field is an error) and return a
// field.ErrorList whose error types and paths are the
// ones the server puts into the causes of its 422 Invalid response
// (causes[].reason is the error type, causes[].field the path); errors of
// a List item are placed under items[i]. Messages
// follow the release where this package words them; the metadata messages
// come from the apimachinery version this module builds with and may be
// worded slightly differently.
//
// ValidateObjectWithWarnings, ValidateObjectUpdateWithWarnings and
// ValidateObjectStatusUpdateWithWarnings also return the fields the server
// would drop before validating (see "The rules of 1.37" below).
//
// # Names: side by side with upstream
//
// The rules are named after the functions of Kubernetes'
// pkg/apis/resource/validation whose rules they apply, in the release whose
// rules apply to the version (compared with v1.26.15, v1.30.14, v1.31.14
// and, for the live rules, v1.37.2), so that each can be read next to its
// counterpart:
//
//   - A function of the frozen rules, in rules126.go (v1alpha1), rules130.go
//     (v1alpha2) or rules131.go (v1alpha3), has the name of the function of
//     that version's release, with the version as a suffix:
//     validateDeviceRequestV1alpha3 applies 1.31's validateDeviceRequest,
//     ValidateClaimV1alpha1 1.26's ValidateClaim. Upstream's exported names
//     keep their capital letter: they are methods of the unexported
//     checker, so nothing new is exported, and upstream's pairs such as
//     ValidateResourceClaimParameters and validateResourceClaimParameters
//     (1.30) stay apart. The v1alpha2 namedResources rules are named after
//     1.30's pkg/apis/resource/structured/namedresources/validation.
//   - A function of the live rules (the release drakit follows; see "The
//     rules of 1.37" below), in rules.go, claim.go, claimstatus.go,
//     class.go and slice.go, has the name of the function of that release
//     with the suffix V1, the version of the objects it checks (the
//     release's other versions are converted to v1 first):
//     validateDeviceRequestV1 applies 1.37's validateDeviceRequest. A rule
//     that only the declarative validation has starts with "declarative"
//     (declarativeTaintsV1); a declarativeCoverage parameter
//     (handwrittenOnly or coveredByDeclarative) says whether the
//     declarative validation looks at the part a rule checks, and so
//     whose wording is reported.
//   - The fields dropped while their feature gate is off (drop.go,
//     dropclaim.go, dropslice.go) follow the release's registry
//     strategies: one dropDisabledDRA<Feature>Fields and one
//     dra<Feature>FeatureInUse per gate DRA<Feature>, in upstream's order,
//     as methods of a type named after the upstream package
//     (resourceSliceDrops for pkg/registry/resource/resourceslice). The
//     names are upstream's where upstream keeps the rule; drop.go maps the
//     few where it does not (draDeviceTaintsInUse upstream is
//     draDeviceTaintsFeatureInUse here), and TestDropNamesFollowTheRule
//     fails on a name that breaks it or a gate without its pair.
//   - A function in common.go has no suffix: its rule is the same in every
//     release that uses it, and it has the upstream name where there is one
//     (validateSliceIsASet: 1.26 and 1.30; validateSlice and validateSet:
//     1.31; validateDriverName: every release, which before 1.31 called it
//     validateResourceDriverName).
//   - Where one function does the work of several upstream functions, it
//     is named after the outermost one and its comment names the others
//     ("includes ..."). A name without "validate" (other than upstream's
//     gatherRequestNames) marks a helper with no counterpart in that
//     package: a rule upstream takes from elsewhere (object metadata, node
//     selectors, DNS names), a part several rules share
//     (exactlyOneModelV1alpha2, requestNameRefsV1alpha3), or a check of
//     Options.Strict.
//   - Each frozen file's init, and the live rules' claimRulesV1,
//     sliceRulesV1 and so on (one per registry strategy), show how the
//     server combines the rules: an update of the main resource runs the
//     create validation of the new object and then the update validation
//     (ValidateClaimV1alpha1, then ValidateClaimUpdateV1alpha1), as the
//     release's registry strategies do.
//
// # Files
//
// Files are named by their role. Only the frozen rules, which no later
// release changes, carry their release; the live rules carry none, so that
// following a new release means editing them, not renaming or copying
// (TestDocFilesTableNamesEveryFile, and internal/repocheck's
// TestNoReleaseInNames for every name of the module, hold the package to
// it):
//
//	doc.go                this documentation (doc_test.go keeps its tables honest)
//	validate.go           entry points, Options, the registry; what the server does before it validates
//	common.go, errors.go  rules and error wording shared by the releases
//	limits.go             every limit, by name
//	rules126.go           frozen: the rules of 1.26 (v1alpha1)
//	rules130.go           frozen: the rules of 1.30 (v1alpha2)
//	rules131.go           frozen: the rules of 1.31 (v1alpha3)
//	rules.go              live: the environment (gates, CEL, namespaces), names, lists, one rules function per strategy
//	claim.go              live: ResourceClaim and ResourceClaimTemplate specs
//	claimstatus.go        live: the ResourceClaim status
//	class.go              live: DeviceClass and DeviceTaintRule
//	slice.go              live: ResourceSlice
//	register.go           live: the registration of the other versions' kinds, checked as v1, and of ResourcePoolStatusRequest
//	poolstatusrequest.go  live: the rules of a ResourcePoolStatusRequest, mostly declarative
//	paths.go              live: v1beta1 errors under v1beta1's paths
//	drop.go               live: the fields dropped while their gate is off (dropclaim.go, dropslice.go)
//	cel.go                the one way into CEL for every release's rules (compileCEL)
//
// # What the server does before it validates
//
// A validator that only ran the rules would disagree with the server, which
// first prepares what it received. The validators work on copies and
// prepare them the same way:
//
//   - Defaults of the version are applied (allocationMode
//     WaitForFirstConsumer in v1alpha1/v1alpha2; allocationMode ExactCount
//     and count 1 in v1alpha3), so an omitted field is not an error. The
//     1.37 versions get theirs before the conversion to v1 (see below):
//     ExactCount and count 1 for exact requests and sub-requests,
//     toleration operator Equal, a taint's timeAdded, a
//     ResourcePoolStatusRequest's limit 100; a v1beta1 request without
//     deviceClassName is left alone, as from 1.33 on, so its empty
//     allocationMode is refused.
//   - A namespaced object without metadata.namespace gets the request's
//     namespace (DefaultNamespace here); a cluster-scoped object loses its
//     namespace. On updates the stored object's namespace applies; a
//     different one, which the server rejects as a Bad Request because it
//     does not match the request URL, is reported as an immutable field.
//   - metadata.generateName without a name becomes a name; managedFields are
//     left to the server.
//   - Create clears the status of ResourceClaim and PodScheduling(Context)
//     (1.37: also of DeviceTaintRule and ResourcePoolStatusRequest):
//     status rules apply only to status updates. A main-resource update
//     keeps the stored status, a status update keeps the stored spec, and
//     from 1.30 on a status update also keeps the stored labels,
//     annotations, finalizers and owner references.
//   - On updates, a missing resourceVersion, uid or timestamp is taken from
//     the stored object and the generation cannot be changed by the client;
//     DeviceClass and ResourceSlice (1.31, 1.37) and DeviceTaintRule (1.37)
//     start at generation 1 and count spec changes.
//
// The server reports many errors of an update two or three times (it runs
// the generic metadata checks, the create validation and the update
// validation, which validates the object once more). These validators
// report each distinct error once.
//
// Fields behind the 1.31 feature gate DRAControlPlaneController
// (spec.controller, status.allocation.controller,
// status.deallocationRequested, DeviceClass spec.suitableNodes) are
// validated as if the gate were enabled; with the gate disabled the server
// silently drops them instead.
//
// # The rules of 1.37
//
// The kinds checked with the rules of 1.37 (v1beta1, v1beta2, v1 and
// v1alpha3's DeviceTaintRule and ResourcePoolStatusRequest) follow rules.go's
// description; what the 1.37 registry does around the rules:
//
//   - The feature gates are Options.FeatureGates (zero: the 1.37
//     defaults). A field whose gate is off is dropped before validation,
//     on create and on an update whose stored object does not use the
//     feature (ga-facts section 6, DropDisabledFieldsV1). The server drops
//     it silently; the WithWarnings functions return one DropWarning per
//     dropped field, named by its path in the object's own version (v1beta1
//     has no "exactly." and puts device fields under "basic.").
//   - A claim or template with adminAccess, and a claim status update whose
//     new allocation results have it, need the admin-access label on the
//     namespace, looked up with Options.NamespaceLabels; nil, or an error
//     wrapping ErrNamespaceUnknown, skips the rule.
//   - An update of a v1 DeviceTaintRule or of a ResourcePoolStatusRequest
//     (main resource or status) without metadata.resourceVersion is
//     refused before anything else, as their storage does not allow
//     unconditional updates: Invalid metadata.resourceVersion, value 0,
//     "must be specified for an update" (k8s.io/apiserver's Store.Update,
//     which names the resource, devicetaintrules.resource.k8s.io, where
//     the validators' callers name the kind). The v1alpha3 and v1beta2
//     DeviceTaintRule storage and the other kinds take the stored
//     resourceVersion instead.
//   - v1beta1 and v1beta2 objects and v1alpha3 DeviceTaintRules are
//     defaulted as their version defaults (v1beta1 with its own functions
//     before the conversion, the others with v1's, which are theirs),
//     converted to v1 and validated there. Their errors have v1's paths,
//     which is what the server's handwritten validation reports, except
//     the errors of the rules that 1.37 checks declaratively on the
//     v1beta1 object as sent: those have v1beta1's paths
//     (spec.devices.requests[i].selectors rather than
//     ...requests[i].exactly.selectors, spec.devices[i].basic.taints
//     rather than spec.devices[i].taints). A field that a declarative
//     and a handwritten rule both refuse appears under both paths (a
//     derived attribute's name without a domain that no constraint
//     uses). paths.go lists these rules and where upstream has them.
//   - Lists over their maximum are TooMany ("must have at most N items").
//   - A ResourcePoolStatusRequest's spec and status rules are declarative
//     (poolstatusrequest.go) except for the metadata and the status conditions; the
//     spec is immutable, and the status is validated when first written
//     and immutable afterwards.
//
// # Paths and types that look wrong but are what the servers report
//
//   - Lists of the 1.26-1.31 rules over their maximum are TooLong ("may
//     not be longer than N"), not TooMany (the 1.37 rules report TooMany).
//   - An empty v1alpha1/v1alpha2 resourceClassName is Invalid, not
//     Required; an empty driver name gets both Required and Invalid.
//   - PodScheduling(Context) status.resourceClaims errors are reported
//     under status.claims[i].
//   - v1alpha3 DeviceClass spec.suitableNodes errors are reported under
//     suitableNodes, without "spec.".
//   - A v1alpha2 ResourceSlice without a model is Required on the empty
//     path, which prints as "<nil>".
//   - v1alpha3 attribute and capacity name errors are reported on the map
//     (spec.devices[i].basic.attributes), not on the entry; a malformed
//     identifier is TypeInvalid.
//   - Fields other than labels and annotations set in a claim template's
//     metadata are Forbidden under the Go field name with a lower-case
//     first letter (spec.metadata.uID for the uid).
//
// # Quirks, and Options.Strict
//
// The releases accept some input by accident. By default these validators
// accept it too, so that they agree with the server; Options.Strict rejects
// it, with messages that say the server would accept it:
//
//   - Driver names are checked lower-cased, so upper-case letters pass
//     (every release; every driver-name field, including the domain of a
//     v1alpha3 qualified name). Strict: Invalid.
//   - v1alpha3 qualified names (attribute and capacity names,
//     matchAttribute) with two or more '/' are not checked at all (1.31).
//     Strict: Invalid.
//   - v1alpha3 status.allocation.devices.results may list the same
//     request, driver, pool and device twice (1.31). Strict: Duplicate.
//   - v1alpha3 PodSchedulingContext status.resourceClaims[].name is marked
//     required but only checked for uniqueness (1.31). Strict: Required on
//     status.resourceClaims[i].name.
//   - spec.selectedNode of PodScheduling(Context) is not validated (every
//     release). Strict: Invalid unless it is a node name (DNS subdomain).
//
// Quirks of 1.37 (v1beta1, v1beta2, v1 and the late v1alpha3 kinds):
//
//   - Upper-case letters in driver names and in the domain of attribute
//     and capacity names pass (a ResourceSlice create or update only gets
//     a server warning for its spec.driver). Strict: Invalid.
//   - Qualified and fully qualified names with two or more '/' are not
//     checked (a TODO in the 1.37 code). Strict: Invalid.
//   - A constraint with both matchAttribute and distinctAttribute passes:
//     the handwritten rule looks at matchAttribute only and no declarative
//     union covers the pair. Not rejected by Strict (ga-facts leaves the
//     declarative side unconfirmed).
//   - The lists of tolerations have no size limit although
//     DeviceTolerationsMaxLength (16) is declared; ResourceSliceMaxSharedCapacity
//     (128) is declared and not enforced either; the keys and quantities of
//     a request's capacity.requests are not checked at all.
//   - An update does not validate again what it leaves unchanged
//     (declarative ratcheting, and 1.35+ for taints, 1.37 for capacity):
//     an invalid value stored by an older release stays accepted.
//   - skipNodeOperations (slice and allocation results) is dropped, not
//     rejected, while DRAOptionalNodeOperations is off, whatever its value;
//     and with DRAListTypeAttributes off (the default) an attribute with
//     only a list value loses it and is then refused for having no value.
//   - The admin-access error is reported at spec.devices.requests[i].adminAccess
//     in every version, without "exactly." and, for templates, without the
//     second "spec.".
//   - A v1beta1 slice's nodeName "" and allNodes false mean unset, so the
//     v1 rules "must be either unset or set to a non-empty string" and "must
//     be either unset or set to true" cannot be met through v1beta1.
//
// # Where drakit refuses what the server accepts (always on)
//
// One deviation from upstream does not depend on Options.Strict: every
// quantity of the object (capacities and their request policies, counters
// and their consumption, a claim's capacity requests, an allocation's
// consumed capacity, v1alpha2 quantity attributes, ...), and of the stored
// object of an update, must be within the bound of internal/quantityguard
// (below 10^2000, with a scale within ±2000; text with at most 1000
// significant digits and an exponent within ±2000). The server accepts
// larger ones, and then compares them in time that grows with the
// exponent (1e100000000 against 1Gi takes about a minute; 1e2147483647
// never finishes). A quantity beyond the bound is Invalid at its path
// ("spec.devices[0].capacity[memory].value"; "stored object: " before
// the detail for the old object) with the value omitted, and no other
// rule runs for that object, since the rules compare quantities.
//
// # CEL
//
// Every release's rules compile through one function, compileCEL
// (cel.go): drakitcel.Compile with the release, the gates and whether the
// expression is stored.
//
// Selectors (v1alpha3 DeviceClass and request selectors, v1alpha2
// ResourceClaimParameters and ResourceClassParameters namedResources
// selectors) are type-checked with the environments of package
// github.com/drakit/drakit/apis/resource/cel for the release; a selector
// that does not compile is Invalid on its expression field. A v1alpha2
// selector is Required first; an empty v1alpha3 expression simply fails to
// compile. The releases use a more permissive environment for "stored"
// expressions: in 1.30 the selectors of a ResourceClaimParameters update
// whose driverRequests are unchanged; in 1.31 the selectors of a claim or
// claim template update, and of a DeviceClass update with unchanged
// selectors. The 1.31 server also validates these updates as a create,
// with the new-expressions environment, and so do these validators.
//
// The 1.37 rules compile selectors and derived attributes with the same
// package's environment of the release drakit follows. A new expression
// gets the environment of compatibility version 1.36, shaped by the
// gates: device.allowMultipleAllocations needs DRAConsumableCapacity,
// list-valued attributes, includes() and list results of derived
// attributes need DRAListTypeAttributes. Before compiling, an expression
// over 10,240 bytes is TooLong; after it, an estimated cost over 1,000,000
// is Forbidden, and so is a claim whose derived attributes cost more than
// 1,000,000 together (on spec.devices). Stored expressions (those of a
// claim update, and of a DeviceClass update with unchanged selectors) are
// not compiled at all; a claim template update still validates its spec
// as a create, with new expressions, as the 1.37 template strategy does.
package validation
