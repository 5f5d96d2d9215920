// Package cel holds the CEL environments in which the Kubernetes API server
// type-checks, and the scheduler evaluates, device selectors of
// resource.k8s.io:
//
//   - v1alpha3 (Kubernetes 1.31): DeviceClass and request selectors over one
//     variable, `device`, with `device.driver` (string),
//     `device.attributes[domain][id]` (int, bool, string or semver) and
//     `device.capacity[domain][id]` (quantity). An attribute or capacity
//     name without a domain belongs to the driver's domain; looking up a
//     domain the device does not have gives an empty map, so
//     `device.attributes["other.io"].x` fails with "no such key: x" while
//     `"other.io" in device.attributes` is false. `cel.bind` is available.
//     The result must be bool, or the "unknown" type an attribute lookup
//     has (checked at run time). See CompileDeviceSelector, Device.
//   - v1alpha2 (Kubernetes 1.30): namedResources selectors over the maps
//     attributes.quantity, attributes.bool, attributes.int,
//     attributes.intslice, attributes.string, attributes.stringslice and
//     attributes.version, keyed by attribute name. The result must be bool.
//     See CompileNamedResourcesSelector, NamedResourcesInstance.
//
// Both are built on the API server's base environment of the release
// (cel-go standard library with homogeneous aggregate literals, cross-type
// numeric comparisons, optional types, the extended string library
// version 2, sets, literal validators) plus the Kubernetes function
// libraries, which this package implements itself so that drivers do not
// pull in k8s.io/apiserver:
//
//   - semver: semver(string), isSemver(string), and on versions
//     isGreaterThan, isLessThan, compareTo, major, minor, patch;
//   - quantity: quantity(string), isQuantity(string), sign(quantity), and
//     on quantities isGreaterThan, isLessThan, compareTo, asInteger,
//     isInteger, asApproximateFloat, add, sub;
//   - lists: isSorted, sum, min, max, indexOf, lastIndexOf;
//   - regex: find, findAll;
//   - url: url(string), isURL(string), and on URLs getScheme, getHost,
//     getHostname, getPort, getEscapedPath, getQuery;
//   - ip and cidr (from the 1.30 base environment on): ip(string),
//     isIP(string), ip.isCanonical(string), string(ip), cidr(string),
//     isCIDR(string), string(cidr), the type names net.IP and net.CIDR, and
//     on IPs family, isUnspecified, isLoopback, isLinkLocalMulticast,
//     isLinkLocalUnicast, isGlobalUnicast, on CIDRs containsIP,
//     containsCIDR, ip, prefixLength, masked.
//
// Not implemented (an expression that uses them fails to compile with
// "undeclared reference" where the API server would accept it): the
// format library (format.<name>().validate(...), 1.31 stored expressions
// only) and the authorization library (which no selector can use anyway,
// as it needs an authorizer variable). Runtime cost is limited to
// PerCallCostLimit as in the API server, with cel-go's own cost estimates
// for the Kubernetes functions; expressions whose estimated cost cannot
// reach the limit run without cost tracking, which is much faster.
//
// Known upstream defects that are not reproduced: quantity arithmetic
// results compare equal from either side of == (upstream errors when the
// result is on the right), add/sub never modify their receiver, and
// containsCIDR is true for every contained network (1.31 answered true only
// when both networks started at the same address; fixed in later releases).
//
// Compile errors are *CompileError values whose Error() is the message the
// API server puts into its field.Invalid error for the expression.
//
// New versus stored expressions: the API server type-checks expressions
// being written in the environment of the release before (its
// compatibility version) and expressions already stored in the full
// environment of the release. Both are offered (EnvType). For 1.30
// (v1alpha2) they differ by the ip and cidr libraries, which only stored
// expressions may use; for 1.31 (v1alpha3) only by the format library,
// which is not implemented, so both accept the same expressions.
package cel
