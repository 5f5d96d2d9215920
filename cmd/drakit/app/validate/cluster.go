package validate

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/validation"
	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/hubclient"
)

// clusterCheck is validate's --from-cluster: namespace labels from the
// cluster, and objects the cluster holds checked as updates (or, with
// --subresource status, status updates) of the stored ones, in the version
// the cluster serves.
type clusterCheck struct {
	c           *cluster.Cluster
	subresource string
}

// readNamespaces reads the namespaces' labels into book.
func (cv *clusterCheck) readNamespaces(book *namespaceBook) error {
	labels, err := cv.c.NamespaceLabels(context.Background())
	if err != nil {
		return err
	}
	for name, l := range labels {
		book.add(name, l)
	}
	return nil
}

// prepare converts v to the version the cluster serves for its kind
// (unless asVersion chose one) and, when the cluster holds an object of
// that kind, namespace and name, makes v an update (or status update) of
// it. It returns what it checks v as, for the user.
func (cv *clusterCheck) prepare(v *toValidate, asVersion *schema.GroupVersion) (string, error) {
	hub, err := conversion.ToHub(v.typed)
	if err != nil {
		return "", err
	}
	hubKind := kindOf(hub)
	served, ok := cv.c.Hub.VersionFor(hubKind)
	if !ok {
		return "", cv.c.Explain(&hubclient.NotServedError{Kind: hubKind, Served: cv.c.Hub.ServedVersions()}, "checking "+v.obj.Name())
	}
	version := served
	if asVersion != nil {
		version = asVersion.Version
	}
	if v.gvk.Version != version {
		converted, err := conversion.Convert(v.typed, schema.GroupVersion{Group: resource.GroupName, Version: version})
		if err != nil {
			return "", fmt.Errorf("converting to resource.k8s.io/%s, the version the cluster serves: %w", version, err)
		}
		v.typed, v.gvk = converted, converted.GetObjectKind().GroupVersionKind()
	}
	acc, err := meta.Accessor(hub)
	if err != nil {
		return "", err
	}
	ns := acc.GetNamespace()
	if ns == "" && hubKind == "ResourceClaim" || ns == "" && hubKind == "ResourceClaimTemplate" {
		ns = cv.c.Namespace
	}
	stored, err := cv.get(hubKind, ns, acc.GetName())
	if apierrors.IsNotFound(err) {
		if cv.subresource == "status" {
			return "", fmt.Errorf("cannot check a status update: the cluster has no %s %q in namespace %q", hubKind, acc.GetName(), ns)
		}
		return "a create (the cluster has no such object), with the rules of resource.k8s.io/" + v.gvk.Version, nil
	}
	if err != nil {
		return "", err
	}
	old, err := conversion.FromHub(stored, v.gvk.Version)
	if err != nil {
		return "", err
	}
	rv := ""
	if a, err := meta.Accessor(old); err == nil {
		rv = a.GetResourceVersion()
		// The update is of the stored object's version.
		if b, err := meta.Accessor(v.typed); err == nil && b.GetResourceVersion() == "" {
			b.SetResourceVersion(rv)
		}
	}
	how := "an update"
	v.validate = func(obj runtime.Object, opts validation.Options) (field.ErrorList, []validation.DropWarning) {
		return validation.ValidateObjectUpdateWithWarnings(obj, old, opts)
	}
	if cv.subresource == "status" {
		how = "a status update"
		v.validate = func(obj runtime.Object, opts validation.Options) (field.ErrorList, []validation.DropWarning) {
			return validation.ValidateObjectStatusUpdateWithWarnings(obj, old, opts)
		}
	}
	if rv != "" {
		how += " of the stored object (resourceVersion " + rv + ")"
	} else {
		how += " of the stored object"
	}
	return how + ", with the rules of resource.k8s.io/" + v.gvk.Version, nil
}

func (cv *clusterCheck) get(hubKind, ns, name string) (runtime.Object, error) {
	ctx, get := context.Background(), metav1.GetOptions{}
	var obj runtime.Object
	var err error
	switch hubKind {
	case "DeviceClass":
		obj, err = cv.c.Hub.DeviceClasses().Get(ctx, name, get)
	case "ResourceSlice":
		obj, err = cv.c.Hub.ResourceSlices().Get(ctx, name, get)
	case "ResourceClaim":
		obj, err = cv.c.Hub.ResourceClaims(ns).Get(ctx, name, get)
	case "ResourceClaimTemplate":
		obj, err = cv.c.Hub.ResourceClaimTemplates(ns).Get(ctx, name, get)
	case "DeviceTaintRule":
		obj, err = cv.c.Hub.DeviceTaintRules().Get(ctx, name, get)
	default:
		return nil, apierrors.NewNotFound(schema.GroupResource{Group: resource.GroupName, Resource: hubKind}, name)
	}
	if err != nil && !apierrors.IsNotFound(err) {
		where := name
		if ns != "" {
			where = ns + "/" + name
		}
		return nil, cv.c.Explain(err, fmt.Sprintf("getting %s %s", hubKind, where))
	}
	return obj, err
}

// kindOf is the hub kind of a hub object.
func kindOf(hub runtime.Object) string {
	switch hub.(type) {
	case *resource.DeviceClass:
		return "DeviceClass"
	case *resource.ResourceSlice:
		return "ResourceSlice"
	case *resource.ResourceClaim:
		return "ResourceClaim"
	case *resource.ResourceClaimTemplate:
		return "ResourceClaimTemplate"
	case *resource.DeviceTaintRule:
		return "DeviceTaintRule"
	case *resource.PodSchedulingContext:
		return "PodSchedulingContext"
	}
	return fmt.Sprintf("%T", hub)
}
