// Package openapi holds the OpenAPI definitions of resource.k8s.io that
// openapi-gen generates (zz_generated.openapi.go), and serves the
// documents published from them (spec/ and jsonschema/, written by
// hack/openapi-publish): Document returns a version's OpenAPI v2, OpenAPI
// v3 or JSON Schema document, Schema one kind's OpenAPI v3 schema with the
// definitions it refers to.
//
// The documents themselves are built by the subpackage builder (OpenAPI)
// and jsonschemagen (JSON Schema).
package openapi
