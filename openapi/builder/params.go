package builder

import (
	"reflect"
	"slices"
	"strings"

	"k8s.io/kube-openapi/pkg/common"
)

// param is one parameter of a route, in kube-openapi's terms.
type param struct {
	name        string
	description string
	kind        common.ParameterKind
	dataType    string
	required    bool
}

var _ common.Parameter = (*param)(nil)

func (p *param) Name() string               { return p.name }
func (p *param) Description() string        { return p.description }
func (p *param) Required() bool             { return p.required }
func (p *param) Kind() common.ParameterKind { return p.kind }
func (p *param) DataType() string           { return p.dataType }
func (p *param) AllowMultiple() bool        { return false }
func (p *param) String() string             { return p.name }

// prettyParam is the query parameter every resource operation accepts.
var prettyParam = &param{
	name:        "pretty",
	description: "When 'true', the server indents the response for reading.",
	kind:        common.QueryParameterKind,
	dataType:    "string",
}

// namespaceParam is the path parameter of every namespaced path.
var namespaceParam = &param{
	name:        "namespace",
	description: "namespace of the objects, which scopes their names and who may access them",
	kind:        common.PathParameterKind,
	dataType:    "string",
	required:    true,
}

// nameParam is the path parameter of the paths of one object of kind.
func nameParam(kind string) *param {
	return &param{
		name:        "name",
		description: "name of the " + kind,
		kind:        common.PathParameterKind,
		dataType:    "string",
		required:    true,
	}
}

// bodyParam marks a route as taking its model in the request body.
func bodyParam(required bool) *param {
	return &param{name: "body", kind: common.BodyParameterKind, required: required}
}

// introducedIn maps the query parameters that the option types of the
// pinned apimachinery have but older API servers did not accept to the
// Kubernetes minor release that added them.
var introducedIn = map[string]int{
	"sendInitialEvents": 27,
	"ignoreStoreReadErrorWithClusterBreakingPotential": 32,
	"shardSelector": 36, // alpha, ShardedListAndWatch
}

// documentedOptions is an options type of metav1 with the field
// documentation openapi-gen's sibling generator wrote for it.
type documentedOptions interface {
	SwaggerDoc() map[string]string
}

// optionParams turns the fields of an options struct (metav1.ListOptions,
// DeleteOptions, ...) into query parameters, as the API server does: one
// parameter per JSON field of a simple type, documented with the field's
// documentation. Fields the release rel did not know and the names in skip
// are left out; struct fields (DeleteOptions.preconditions) can only be
// sent in a body.
func optionParams(rel release, options documentedOptions, skip ...string) []*param {
	docs := options.SwaggerDoc()
	t := reflect.TypeOf(options)
	var out []*param
	for i := 0; i < t.NumField(); i++ {
		field := t.Field(i)
		if field.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(field.Tag.Get("json"), ",")
		if name == "" || name == "-" || slices.Contains(skip, name) {
			continue
		}
		if since, ok := introducedIn[name]; ok && rel.minor < since {
			continue
		}
		dataType, ok := queryDataType(field.Type)
		if !ok {
			continue
		}
		out = append(out, &param{
			name:        name,
			description: docs[name],
			kind:        common.QueryParameterKind,
			dataType:    dataType,
		})
	}
	return out
}

// queryDataType is the OpenAPI type of a query parameter carrying a field
// of Go type t; ok is false for types that cannot travel in a query.
func queryDataType(t reflect.Type) (dataType string, ok bool) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string", true
	case reflect.Bool:
		return "boolean", true
	case reflect.Int, reflect.Int32, reflect.Int64:
		return "integer", true
	case reflect.Slice:
		// A repeated query parameter (dryRun=All); the API server
		// documents it by its element type.
		if t.Elem().Kind() == reflect.String {
			return "string", true
		}
	}
	return "", false
}
