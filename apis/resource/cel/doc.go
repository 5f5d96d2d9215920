// Package cel holds the CEL environments in which Kubernetes API servers
// type-check, and schedulers evaluate, device selectors and derived
// attributes of resource.k8s.io, one per release (Options.Release):
//
//   - the release drakit follows (catalogue.Release; Release 0): device
//     selectors and derived attributes of v1, v1beta2 and v1beta1 over one
//     variable, `device`, with `device.driver`,
//     `device.allowMultipleAllocations` (with DRAConsumableCapacity),
//     `device.attributes[domain][id]` (int, bool, string, semver, or with
//     DRAListTypeAttributes a list of one of them) and
//     `device.capacity[domain][id]` (quantity); the gates choose the
//     declaration new expressions get. New expressions are held to a
//     length and an estimated cost (SelectorMaxLength, SelectorMaxCost,
//     DerivedAttributesMaxCost).
//   - v1alpha3 (Kubernetes 1.31, Release 31): DeviceClass and request
//     selectors over `device` with driver, attributes and capacity. An
//     attribute or capacity name without a domain belongs to the driver's
//     domain; looking up a domain the device does not have gives an empty
//     map, so `device.attributes["other.io"].x` fails with "no such key:
//     x" while `"other.io" in device.attributes` is false. `cel.bind` is
//     available. The result must be bool, or the "unknown" type an
//     attribute lookup has (checked at run time).
//   - v1alpha2 (Kubernetes 1.30, Release 30): namedResources selectors over
//     the maps attributes.quantity, attributes.bool, attributes.int,
//     attributes.intslice, attributes.string, attributes.stringslice and
//     attributes.version, keyed by attribute name. The result must be bool.
//
// One API serves them all: Compile with Options gives a Program or an
// *Error (whose FieldError is what the release's server reports), and a
// Program evaluates an Input, which is built from a hub device once and
// shows it to each program as the program's release and gates see it
// (see Input). Each release is one value of the internal release type
// (release.go, declarations.go): supporting another is adding a value,
// following a newer one is changing catalogue.Release and the value of
// the release followed (TestFollowedReleaseAgrees keeps them together).
//
// # The fast path
//
// An allocator judges most devices without cel-go: with Options.FastPath a
// stored selector of a plain shape (comparisons of the driver,
// allowMultipleAllocations, scalar attributes and a few semver, quantity
// and string functions with literals, joined by &&, || and !, optionally
// in cel.bind) is not compiled at all until a device needs cel-go, and
// internal/simple answers for every device on which cel-go would give a
// plain bool; on any other device (a missing attribute, another kind of
// value, an unusable attribute) cel-go is asked, so that results and
// errors are cel-go's. Program.Compiled says whether cel-go compiled the
// program. The differential tests and FuzzSimpleSelector hold the fast
// path to cel-go's answers.
//
// # Where the functions come from
//
// Everything but these variables is the Kubernetes CEL base environment of
// k8s.io/apiserver/pkg/cel/environment (MustBaseEnvSet), with the function
// libraries of k8s.io/apiserver/pkg/cel/library, built as of a Kubernetes
// version. Its libraries arrived as follows (for the releases before 1.32;
// the release followed gets what its compatibility version has, which
// the base environment of this module's k8s.io/apiserver says):
//
//   - always: the cel-go standard library with homogeneous aggregate
//     literals and UTC as the default time zone; url (url, isURL,
//     getScheme, getHost, getHostname, getPort, getEscapedPath, getQuery),
//     regex (find, findAll), lists (isSorted, sum, min, max, indexOf,
//     lastIndexOf);
//   - 1.27: authz, which no selector can call, as there is no authorizer
//     variable;
//   - 1.28: cross-type numeric comparisons, optional types, quantity
//     (quantity, isQuantity, sign, isGreaterThan, isLessThan, compareTo,
//     asInteger, isInteger, asApproximateFloat, add, sub);
//   - 1.29: validation of duration, timestamp and regex literals and of
//     homogeneous aggregate literals at compile time, the extended string
//     library version 2, sets;
//   - 1.30: ip and cidr (ip, isIP, ip.isCanonical, cidr, isCIDR, string(),
//     the type names net.IP and net.CIDR, family, isUnspecified,
//     isLoopback, isLinkLocalMulticast, isLinkLocalUnicast,
//     isGlobalUnicast, containsIP, containsCIDR, prefixLength, masked);
//   - 1.31: format (format.<name>().validate(string)) and authz selectors.
//
// Later libraries (two-variable comprehensions in 1.32, semver in the base
// environment in 1.33, cel-go's list extension in 1.34, lists version 1
// with includes in 1.37) are in no environment of 1.30 or 1.31.
//
// Added by this package, as the DRA packages of 1.30 and 1.31 did: the
// semver functions (semver, isSemver, isGreaterThan, isLessThan,
// compareTo, major, minor, patch; library version 0, strict parsing), and
// for v1alpha3 cel.bind.
//
// # New versus stored expressions
//
// The API server type-checks an expression that is being written (created,
// or changed by an update) in the base environment of its compatibility
// version, the release before, so that the expression still compiles after
// a downgrade by one release; an expression that is already stored and
// left unchanged is checked in everything the release knows, so that an
// update never fails over an expression that a newer server accepted. Both
// are offered (Options.Stored):
//
//   - v1alpha2: new expressions as of 1.29, stored as of 1.30. They differ
//     by the ip and cidr libraries, which only stored expressions may use.
//   - v1alpha3: new expressions as of 1.30, stored as of 1.31. They differ
//     by the format and authz-selectors libraries, which only stored
//     expressions may use.
//   - the release followed: new expressions as of the release before, with
//     the gates; stored ones get every library and all declarations.
//
// The environments of older releases are built with MustBaseEnvSet of the
// version they reproduce, using the NewExpressions half of that EnvSet: the
// StoredExpressions half of k8s.io/apiserver holds every library that copy
// of the module knows, which for older releases is more than their
// servers offered. For the release followed, whose copy of the module
// this is, that half is exactly right.
//
// # Costs
//
// Runtime cost is tracked and limited to PerCallCostLimit per evaluation,
// as the API server does. For v1alpha2 calls of the Kubernetes libraries
// cost what the Kubernetes cost model says (the 1.30 package enabled
// "strict cost"); for v1alpha3 every call costs one unit, as the 1.31
// package built its environment without strict cost. Neither release
// rejected expressions by their estimated cost; the release followed
// charges by the cost model and refuses new expressions whose estimated
// cost is too high (Forbidden).
//
// drakit's own addition: quantity() and isQuantity() refuse, through
// internal/quantityguard, strings beyond its bound (an exponent beyond
// ±2000, more than 1000 significant digits, a value of 10^2000 or more),
// whose parsing or comparison would take unbounded time: quantity() fails
// the evaluation with a message that says what to write, isQuantity() is
// false. Everything else is parsed and reported by the library's rules. A
// device with a capacity beyond the bound cannot be evaluated at all (the
// input fails with "capacity <name>: ..."), like one with an unusable
// attribute.
//
// An upstream defect that is reproduced, because the library is
// upstream's: the result of add or sub compares equal only from the left
// of == (with it on the right, evaluation fails with "no such overload").
// Defects of the 1.31 library that k8s.io/apiserver has fixed since, so
// that these environments do not show them: containsCIDR answered true
// only when both networks started at the same address, and add and sub
// could change the quantity they were called on.
//
// Compile errors are *Error values whose Error() is the message the API
// server puts into its field error for the expression, and whose
// FieldError is that error.
package cel
