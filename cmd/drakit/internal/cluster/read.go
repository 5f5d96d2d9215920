package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/hubclient"
)

// Inventory is what a cluster holds for DRA, as hub objects, each list
// sorted by namespace and name.
type Inventory struct {
	// Version is the newest resource.k8s.io version the cluster serves
	// that drakit knows.
	Version    string
	Classes    []*resource.DeviceClass
	Slices     []*resource.ResourceSlice
	TaintRules []*resource.DeviceTaintRule
	// Claims are the claims of every namespace: allocated ones hold
	// devices whatever namespace a question is about.
	Claims []*resource.ResourceClaim
	Nodes  []*corev1.Node
}

// ReadInventory lists classes, slices, DeviceTaintRules (when the
// cluster serves them), the claims of all namespaces and the nodes, at
// the same time.
func (c *Cluster) ReadInventory(ctx context.Context) (*Inventory, error) {
	inv := &Inventory{Version: c.Hub.Version()}
	var wg sync.WaitGroup
	errs := make([]error, 5)
	run := func(i int, f func() error) {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = f() }()
	}
	run(0, func() (err error) {
		inv.Classes, err = listHub[*resource.DeviceClass](ctx, c, "DeviceClass", c.Hub.DeviceClasses().List)
		return err
	})
	run(1, func() (err error) {
		inv.Slices, err = listHub[*resource.ResourceSlice](ctx, c, "ResourceSlice", c.Hub.ResourceSlices().List)
		return err
	})
	run(2, func() (err error) {
		if _, served := c.Hub.VersionFor("DeviceTaintRule"); !served {
			return nil // before 1.33, or the gate is off: no rules
		}
		inv.TaintRules, err = listHub[*resource.DeviceTaintRule](ctx, c, "DeviceTaintRule", c.Hub.DeviceTaintRules().List)
		return err
	})
	run(3, func() (err error) {
		inv.Claims, err = c.ListClaims(ctx, "")
		return err
	})
	run(4, func() (err error) {
		inv.Nodes, err = c.ListNodes(ctx)
		return err
	})
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return inv, nil
}

// ListClaims lists the claims of namespace ("" for all).
func (c *Cluster) ListClaims(ctx context.Context, namespace string) ([]*resource.ResourceClaim, error) {
	return listHub[*resource.ResourceClaim](ctx, c, "ResourceClaim", c.Hub.ResourceClaims(namespace).List, namespace)
}

// ListNodes lists the nodes.
func (c *Cluster) ListNodes(ctx context.Context) ([]*corev1.Node, error) {
	list, err := c.Kube.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, c.Explain(err, "listing nodes")
	}
	nodes := make([]*corev1.Node, len(list.Items))
	for i := range list.Items {
		nodes[i] = &list.Items[i]
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	return nodes, nil
}

// GetPod reads one pod. Of a server before 1.31 it reads the claims of
// spec.resourceClaims in their shape of then (source.resourceClaimName,
// source.resourceClaimTemplateName), which client-go no longer knows.
func (c *Cluster) GetPod(ctx context.Context, namespace, name string) (*corev1.Pod, error) {
	doing := fmt.Sprintf("getting pod %s/%s", namespace, name)
	pod, err := c.Kube.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, c.Explain(err, doing)
	}
	if !sourcesLost(pod) {
		return pod, nil
	}
	raw, err := c.Kube.CoreV1().RESTClient().Get().Namespace(namespace).Resource("pods").Name(name).DoRaw(ctx)
	if err != nil {
		return nil, c.Explain(err, doing)
	}
	return decodeLegacyPod(raw, doing)
}

// sourcesLost tells whether a claim of the pod names neither a claim nor
// a template: the pod of a server before 1.31, decoded by a client-go
// that does not know the field "source" they were in.
func sourcesLost(pod *corev1.Pod) bool {
	for _, rc := range pod.Spec.ResourceClaims {
		if rc.ResourceClaimName == nil && rc.ResourceClaimTemplateName == nil {
			return true
		}
	}
	return false
}

// decodeLegacyPod decodes a pod of a 1.27-1.30 server, moving the source
// of each of its claims to where client-go expects it.
func decodeLegacyPod(raw []byte, doing string) (*corev1.Pod, error) {
	pod := &corev1.Pod{}
	var legacy struct {
		Spec struct {
			ResourceClaims []struct {
				Source struct {
					ResourceClaimName         *string `json:"resourceClaimName"`
					ResourceClaimTemplateName *string `json:"resourceClaimTemplateName"`
				} `json:"source"`
			} `json:"resourceClaims"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(raw, pod); err != nil {
		return nil, fmt.Errorf("%s: decoding the answer: %w", doing, err)
	}
	if err := json.Unmarshal(raw, &legacy); err != nil {
		return nil, fmt.Errorf("%s: decoding the answer: %w", doing, err)
	}
	for i, rc := range legacy.Spec.ResourceClaims {
		if i < len(pod.Spec.ResourceClaims) && pod.Spec.ResourceClaims[i].ResourceClaimName == nil && pod.Spec.ResourceClaims[i].ResourceClaimTemplateName == nil {
			pod.Spec.ResourceClaims[i].ResourceClaimName = rc.Source.ResourceClaimName
			pod.Spec.ResourceClaims[i].ResourceClaimTemplateName = rc.Source.ResourceClaimTemplateName
		}
	}
	return pod, nil
}

// GetClaim reads one claim.
func (c *Cluster) GetClaim(ctx context.Context, namespace, name string) (*resource.ResourceClaim, error) {
	if _, err := c.served("ResourceClaim", "getting resourceclaim "+namespace+"/"+name); err != nil {
		return nil, err
	}
	claim, err := c.Hub.ResourceClaims(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, c.Explain(err, fmt.Sprintf("getting resourceclaim %s/%s (resource.k8s.io/%s)", namespace, name, c.version("ResourceClaim")))
	}
	return claim, nil
}

// GetTemplate reads one claim template.
func (c *Cluster) GetTemplate(ctx context.Context, namespace, name string) (*resource.ResourceClaimTemplate, error) {
	if _, err := c.served("ResourceClaimTemplate", "getting resourceclaimtemplate "+namespace+"/"+name); err != nil {
		return nil, err
	}
	t, err := c.Hub.ResourceClaimTemplates(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, c.Explain(err, fmt.Sprintf("getting resourceclaimtemplate %s/%s (resource.k8s.io/%s)", namespace, name, c.version("ResourceClaimTemplate")))
	}
	return t, nil
}

// NamespaceLabels are the labels of the namespaces, by name.
func (c *Cluster) NamespaceLabels(ctx context.Context) (map[string]map[string]string, error) {
	list, err := c.Kube.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, c.Explain(err, "listing namespaces")
	}
	out := make(map[string]map[string]string, len(list.Items))
	for _, ns := range list.Items {
		out[ns.Name] = ns.Labels
	}
	return out, nil
}

func (c *Cluster) version(hubKind string) string {
	v, _ := c.Hub.VersionFor(hubKind)
	return v
}

// served fails with a clear error when the cluster lacks the kind.
func (c *Cluster) served(hubKind, doing string) (string, error) {
	v, ok := c.Hub.VersionFor(hubKind)
	if !ok {
		return "", c.Explain(&hubclient.NotServedError{Kind: hubKind, Served: c.Hub.ServedVersions()}, doing)
	}
	return v, nil
}

// listHub lists one kind (in namespace, for a namespaced kind: "" for
// all) and returns its items sorted by namespace and name.
func listHub[T hubclient.Object, L runtime.Object](ctx context.Context, c *Cluster, hubKind string, list func(context.Context, metav1.ListOptions) (L, error), namespace ...string) ([]T, error) {
	doing := "listing " + plural(hubKind)
	if len(namespace) > 0 && namespace[0] != "" {
		doing += " in namespace " + namespace[0]
	} else if len(namespace) > 0 {
		doing += " in all namespaces"
	}
	v, err := c.served(hubKind, doing)
	if err != nil {
		return nil, err
	}
	doing += " (resource.k8s.io/" + v + ")"
	l, err := list(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, c.Explain(err, doing)
	}
	objs, err := meta.ExtractList(l)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", doing, err)
	}
	items := make([]T, 0, len(objs))
	for _, o := range objs {
		t, ok := o.(T)
		if !ok {
			return nil, fmt.Errorf("%s: internal error: a %T in the list", doing, o)
		}
		items = append(items, t)
	}
	sort.Slice(items, func(i, j int) bool {
		a, b := items[i].GetNamespace()+"/"+items[i].GetName(), items[j].GetNamespace()+"/"+items[j].GetName()
		return a < b
	})
	return items, nil
}

// plural is the resource name of a hub kind, as kubectl users know it.
func plural(hubKind string) string {
	switch hubKind {
	case "DeviceClass":
		return "deviceclasses"
	}
	return strings.ToLower(hubKind) + "s"
}
