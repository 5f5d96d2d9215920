// Package schemavalidation checks DRA drivers' opaque configuration
// parameters against OpenAPI v3 schemas, as the API server checks custom
// resources against a CustomResourceDefinition's schema: the same
// libraries (k8s.io/apiextensions-apiserver's structural schemas, its
// OpenAPI schema validator, list types, defaulting, pruning and the CEL
// validator of x-kubernetes-validations), the same checks of the schemas
// themselves (each is validated as a CRD version's schema would be, CEL
// rules compiled and their cost estimated), and unknown fields refused as
// fieldValidation=Strict refuses them.
//
// A driver publishes its config kinds in a schemas file (File) and gets
// admission checks of its configs in ResourceClaims, ResourceClaimTemplates
// and DeviceClasses of every version without writing code: "drakit webhook
// serve --schemas FILE" plugs the Validator into the driverconfig admission
// handler. A driver that writes its own webhook can do the same with
// Validator.Validate.
package schemavalidation
