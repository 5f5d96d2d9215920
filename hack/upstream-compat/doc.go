// Package upstreamcompat checks drakit's resource.k8s.io types against
// the upstream k8s.io/api releases that served each version: v0.26.15
// (v1alpha1), v0.30.14 (v1alpha2) and v0.31.14 (v1alpha3).
//
// It lives in its own module so that the upstream releases are never
// dependencies of drakit: the test fetches them with "go mod download"
// and only reads their files (round-trip fixtures and types.go sources).
// Run it with hack/upstream-compat.sh.
package upstreamcompat
