// Package builder builds the OpenAPI documents of resource.k8s.io from the
// definitions openapi-gen generated: one OpenAPI v2 document with every
// version, and per version the OpenAPI v3 document that the API server of
// the version's release serves.
//
// The documents are shaped like the API server's, so that tools can use
// them in its place: definitions carry the server's names
// ("io.k8s.api.resource.v1alpha3.ResourceClaim"), and the paths, operation
// IDs, query parameters, responses and x-kubernetes-* extensions are those
// the server's REST installer writes for each resource. The routes are
// described directly to kube-openapi's builders (pkg/builder and
// pkg/builder3), without go-restful.
//
// hack/openapi-publish writes the documents under openapi/spec; the
// openapi package serves those files.
package builder
