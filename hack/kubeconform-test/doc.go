// Package kubeconformtest checks the published JSON Schemas of drakit
// (openapi/jsonschema) with kubeconform, the way users run it: every valid
// manifest under testdata/valid (and under examples/, when the repository
// has one) passes, and every broken manifest under testdata/invalid fails
// where its header says.
//
// The package servercompare of this module compares the published OpenAPI
// documents (openapi/spec) with those of the real Kubernetes releases.
//
// This is a module of its own so that kubeconform and the Kubernetes
// releases never become dependencies of drakit. Run it with
// hack/kubeconform-test.sh.
package kubeconformtest
