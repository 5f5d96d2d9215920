// Package upstreamcompat checks drakit's resource.k8s.io types against
// the upstream k8s.io/api releases that served each version in the shape
// drakit has: v0.26.15 (v1alpha1), v0.30.14 (v1alpha2), v0.31.14
// (v1alpha3's 1.31 kinds) and v0.37.2 (v1beta1, v1beta2, v1 and
// v1alpha3's DeviceTaintRule and ResourcePoolStatusRequest, which drakit
// has in their 1.37 shape).
//
// For every release it
//   - decodes every round-trip fixture of the version's kinds (testdata/HEAD
//     and the older releases' directories, JSON and YAML) strictly into
//     drakit's type and re-encodes it: the bytes must be the fixture's, or
//     those of its after_roundtrip file where upstream has one (an older
//     release's object with fields the release has dropped since);
//   - compares every type the kinds use with upstream's declaration: field
//     names, order and types, and the complete struct tags (json, protobuf,
//     patchStrategy, patchMergeKey). The differences that change nothing on
//     the wire are listed in knownDifferences with their reason;
//   - requires every kind of every version drakit serves to be compared with
//     exactly one release (TestEveryKindCompared). Fixtures of a kind in a
//     shape drakit does not have (v1alpha3's 1.32-1.33 kinds) are listed in
//     the release's foreign map with the reason.
//
// It lives in its own module so that the upstream releases are never
// dependencies of drakit: the test fetches them with "go mod download"
// and only reads their files (round-trip fixtures and types.go sources).
// Run it with hack/upstream-compat.sh (-v shows the fixture counts, the
// fields upstream's after_roundtrip files drop and the known differences).
package upstreamcompat
