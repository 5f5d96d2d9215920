package builder

import (
	"reflect"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kube-openapi/pkg/common"
)

// Media types of the API server's responses. Lists and watches can also
// stream.
var (
	mediaTypes       = []string{"application/json", "application/yaml", "application/vnd.kubernetes.protobuf"}
	streamMediaTypes = append(append([]string(nil), mediaTypes...), "application/json;stream=watch", "application/vnd.kubernetes.protobuf;stream=watch")
	patchMediaTypes  = []string{"application/json-patch+json", "application/merge-patch+json", "application/strategic-merge-patch+json", "application/apply-patch+yaml"}
	anyMediaType     = []string{"*/*"}
)

// Extensions the API server puts on every operation of a resource.
const (
	actionExtension = "x-kubernetes-action"
)

// model names a definition by its Go type name; kube-openapi's builders
// accept it wherever they take a sample object.
type model string

func (m model) OpenAPICanonicalTypeName() string { return string(m) }

// modelOf is the model of the type of obj.
func modelOf(obj interface{}) model {
	return model(goTypeName(reflect.Indirect(reflect.ValueOf(obj)).Type()))
}

// Models of the meta types the routes use.
var (
	statusModel       = modelOf(&metav1.Status{})
	deleteOptionModel = modelOf(&metav1.DeleteOptions{})
	patchModel        = modelOf(&metav1.Patch{})
	watchEventModel   = modelOf(&metav1.WatchEvent{})
	resourceListModel = modelOf(&metav1.APIResourceList{})
	apiGroupModel     = modelOf(&metav1.APIGroup{})
)

// response is one documented response of a route.
type response struct {
	code    int
	message string
	model   model
}

func (r response) Code() int          { return r.code }
func (r response) Message() string    { return r.message }
func (r response) Model() interface{} { return r.model }

func ok(m model) response       { return response{200, "OK", m} }
func created(m model) response  { return response{201, "Created", m} }
func accepted(m model) response { return response{202, "Accepted", m} }

// route is one operation of the API server on one path.
type route struct {
	method      string
	path        string
	operationID string
	tags        []string
	description string
	params      []*param
	consumes    []string
	produces    []string
	metadata    map[string]interface{}
	reads       interface{} // the request body's model, if any
	responses   []response
}

var _ common.Route = (*route)(nil)

func (r *route) Method() string        { return r.method }
func (r *route) Path() string          { return r.path }
func (r *route) OperationName() string { return r.operationID }
func (r *route) Description() string   { return r.description }
func (r *route) Consumes() []string    { return r.consumes }
func (r *route) Produces() []string    { return r.produces }
func (r *route) Metadata() map[string]interface{} {
	return r.metadata
}
func (r *route) RequestPayloadSample() interface{} { return r.reads }
func (r *route) ResponsePayloadSample() interface{} {
	if len(r.responses) == 0 {
		return nil
	}
	return r.responses[0].model
}
func (r *route) Parameters() []common.Parameter {
	out := make([]common.Parameter, len(r.params))
	for i, p := range r.params {
		out[i] = p
	}
	return out
}
func (r *route) StatusCodeResponses() []common.StatusCodeResponse {
	out := make([]common.StatusCodeResponse, len(r.responses))
	for i, resp := range r.responses {
		out[i] = resp
	}
	return out
}

// operationIDAndTags is the GetOperationIDAndTagsFromRoute callback of the
// builders: every route here carries its own.
func operationIDAndTags(r common.Route) (string, []string, error) {
	if own, ok := r.(*route); ok {
		return own.operationID, own.tags, nil
	}
	return r.OperationName(), nil, nil
}

// container is the routes of one group version (or of the group's
// discovery path) under their common root.
type container struct {
	root   string
	routes []*route
}

var _ common.RouteContainer = (*container)(nil)

func (c *container) RootPath() string                   { return c.root }
func (c *container) PathParameters() []common.Parameter { return nil }
func (c *container) Routes() []common.Route {
	out := make([]common.Route, len(c.routes))
	for i, r := range c.routes {
		out[i] = r
	}
	return out
}

// groupPrefix is the root path of the group's REST API.
const groupPrefix = "/apis/" + GroupName

// groupRoutes is the group's discovery path, which lists its versions.
func groupRoutes() *container {
	return &container{root: groupPrefix, routes: []*route{{
		method:      "GET",
		path:        groupPrefix + "/",
		operationID: "getResourceAPIGroup",
		tags:        []string{"resource"},
		description: "read the API group and the versions it serves",
		consumes:    mediaTypes,
		produces:    mediaTypes,
		responses:   []response{ok(apiGroupModel)},
	}}}
}

// versionRoutes builds every route the API server of v's release
// installed for v: the discovery path of the version and, per resource,
// the collection, object, status and watch paths.
func versionRoutes(v servedVersion, scheme *runtime.Scheme) (*container, error) {
	b := &routeBuilder{
		version: v,
		prefix:  groupPrefix + "/" + v.Version,
		tags:    []string{"resource_" + v.Version},
		idPart:  "Resource" + strings.ToUpper(v.Version[:1]) + v.Version[1:],
	}
	c := &container{root: b.prefix}
	c.routes = append(c.routes, &route{
		method:      "GET",
		path:        b.prefix + "/",
		operationID: "get" + b.idPart + "APIResources",
		tags:        b.tags,
		description: "list the resources this group version serves",
		consumes:    mediaTypes,
		produces:    mediaTypes,
		responses:   []response{ok(resourceListModel)},
	})
	gv := metav1GroupVersion(v.Version)
	for _, res := range v.sortedResources() {
		obj, err := scheme.New(gv.WithKind(res.Name))
		if err != nil {
			return nil, err
		}
		list, err := scheme.New(gv.WithKind(res.ListName()))
		if err != nil {
			return nil, err
		}
		c.routes = append(c.routes, b.resource(res, modelOf(obj), modelOf(list))...)
	}
	return c, nil
}

// routeBuilder writes the routes of the resources of one version.
type routeBuilder struct {
	version servedVersion
	prefix  string   // "/apis/resource.k8s.io/v1alpha3"
	tags    []string // the operations' tag: "resource_v1alpha3"
	idPart  string   // what follows the verb in operation IDs: "ResourceV1alpha3"
}

// op starts a route of the operation "<verb><idPart><rest>" with the
// pretty parameter and the path parameters.
func (b *routeBuilder) op(method, path, verb, rest, action, kind, description string, pathParams []*param) *route {
	return &route{
		method:      method,
		path:        path,
		operationID: verb + b.idPart + rest,
		tags:        b.tags,
		description: description,
		params:      append([]*param{prettyParam}, pathParams...),
		consumes:    anyMediaType,
		produces:    mediaTypes,
		metadata: map[string]interface{}{
			actionExtension: action,
			gvkExtension:    map[string]interface{}{"group": GroupName, "version": b.version.Version, "kind": kind},
		},
	}
}

// resource is every route of one REST resource.
func (b *routeBuilder) resource(res resourceInfo, obj, list model) []*route {
	rel := res.release
	kind := res.Name
	scope, collectionPath, watchPath := "", b.prefix+"/"+res.Resource, b.prefix+"/watch/"+res.Resource
	var collectionParams []*param
	if res.Namespaced {
		scope = "Namespaced"
		collectionPath = b.prefix + "/namespaces/{namespace}/" + res.Resource
		watchPath = b.prefix + "/watch/namespaces/{namespace}/" + res.Resource
		collectionParams = []*param{namespaceParam}
	}
	objectPath := collectionPath + "/{name}"
	objectParams := append(append([]*param(nil), collectionParams...), nameParam(kind))
	listOptions := optionParams(rel, metav1.ListOptions{})

	var routes []*route
	add := func(r *route, extra []*param, reads interface{}, responses ...response) {
		r.params = append(r.params, extra...)
		if reads != nil {
			r.reads = reads
		}
		r.responses = responses
		routes = append(routes, r)
	}
	withBody := func(required bool, params []*param) []*param {
		return append([]*param{bodyParam(required)}, params...)
	}

	// The collection.
	r := b.op("GET", collectionPath, "list", scope+kind, "list", kind,
		"list the "+kind+" objects, or watch them with watch=true", collectionParams)
	r.produces = streamMediaTypes
	add(r, listOptions, nil, ok(list))

	r = b.op("POST", collectionPath, "create", scope+kind, "post", kind,
		"create an object of kind "+kind, collectionParams)
	add(r, withBody(true, optionParams(rel, metav1.CreateOptions{})), obj, ok(obj), created(obj), accepted(obj))

	r = b.op("DELETE", collectionPath, "delete", "Collection"+scope+kind, "deletecollection", kind,
		"delete every "+kind+" that the selectors match", collectionParams)
	deleteCollection := append(optionParams(rel, metav1.DeleteOptions{}), optionParams(rel, metav1.ListOptions{}, "watch", "allowWatchBookmarks")...)
	add(r, withBody(false, deleteCollection), deleteOptionModel, ok(statusModel))

	// One object, and its status.
	subresources := []string{""}
	if res.Status {
		subresources = append(subresources, "status")
	}
	for _, sub := range subresources {
		path, rest, what := objectPath, scope+kind, "the "+kind+" named in the path"
		if sub != "" {
			path, rest, what = objectPath+"/"+sub, scope+kind+"Status", "the status of the "+kind+" named in the path"
		}
		add(b.op("GET", path, "read", rest, "get", kind, "read "+what, objectParams), nil, nil, ok(obj))

		r = b.op("PUT", path, "replace", rest, "put", kind, "replace "+what, objectParams)
		add(r, withBody(true, optionParams(rel, metav1.UpdateOptions{})), obj, ok(obj), created(obj))

		r = b.op("PATCH", path, "patch", rest, "patch", kind, "partially update "+what, objectParams)
		r.consumes = patchMediaTypes
		add(r, withBody(true, optionParams(rel, metav1.PatchOptions{})), patchModel, ok(obj), created(obj))

		if sub == "" {
			r = b.op("DELETE", path, "delete", rest, "delete", kind, "delete "+what, objectParams)
			deleted := obj
			if res.deleteReturnsStatus {
				deleted = statusModel
			}
			add(r, withBody(false, optionParams(rel, metav1.DeleteOptions{})), deleteOptionModel, ok(deleted), accepted(deleted))
		}
	}

	// The watch paths, which the list operation's watch parameter replaces.
	r = b.op("GET", watchPath, "watch", scope+kind+"List", "watchlist", kind,
		"watch every "+kind+" for changes. Deprecated: use the list operation with watch=true.", collectionParams)
	r.produces = streamMediaTypes
	add(r, listOptions, nil, ok(watchEventModel))

	r = b.op("GET", watchPath+"/{name}", "watch", scope+kind, "watch", kind,
		"watch one "+kind+" for changes. Deprecated: use the list operation with watch=true and a fieldSelector on metadata.name.", objectParams)
	r.produces = streamMediaTypes
	add(r, listOptions, nil, ok(watchEventModel))

	// Namespaced resources can also be listed and watched across namespaces.
	if res.Namespaced {
		r = b.op("GET", b.prefix+"/"+res.Resource, "list", kind+"ForAllNamespaces", "list", kind,
			"list the "+kind+" objects of every namespace, or watch them with watch=true", nil)
		r.produces = streamMediaTypes
		add(r, listOptions, nil, ok(list))

		r = b.op("GET", b.prefix+"/watch/"+res.Resource, "watch", kind+"ListForAllNamespaces", "watchlist", kind,
			"watch every "+kind+" of every namespace for changes. Deprecated: use the list operation with watch=true.", nil)
		r.produces = streamMediaTypes
		add(r, listOptions, nil, ok(watchEventModel))
	}
	return routes
}
