// Package hub runs one program, written against drakit's hub types through
// hubclient, against every API server of the suite: the same code creates,
// reads, lists, watches, updates, patches, applies and deletes objects on
// kube-apiserver 1.30 (resource.k8s.io/v1alpha2), 1.33 (v1alpha3) and 1.37
// (v1, with v1beta2, v1beta1 and v1alpha3 also served), and every object
// must come back exactly as the program wrote it, including what the
// served version cannot say (kept in the stash annotation).
package hub

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/hack/e2e/internal/drift"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
	"github.com/drakit/drakit/hubclient"
)

var cmpOpts = cmp.Options{
	cmp.Comparer(func(a, b apiresource.Quantity) bool { return a.Cmp(b) == 0 }),
}

// TestHubProgram is the program; it needs nothing but the server.
func TestHubProgram(t *testing.T) {
	srv := e2eenv.Get(t)
	c, err := hubclient.NewForConfig(srv.Config, hubclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	assertNegotiated(t, srv, c)
	ns := srv.Namespace(t)
	p := &program{c: c, srv: srv, ns: ns, run: fmt.Sprintf("%d", time.Now().UnixNano()%1e9), minor: srv.Minor()}

	t.Run("DeviceClass", p.deviceClass)
	t.Run("ResourceClaim", p.resourceClaim)
	t.Run("ResourceClaimTemplate", p.resourceClaimTemplate)
	t.Run("ResourceSlice", p.resourceSlice)
	t.Run("PodSchedulingContext", p.podSchedulingContext)
	t.Run("ClaimAndClassParameters", p.parameters)
}

// negotiated is the version hubclient must pick for the core kinds on each
// release of the suite: the newest one the server serves. 1.37 also serves
// v1beta2, v1beta1 and v1alpha3; hubclient must not settle for those.
var negotiated = map[int]string{30: "v1alpha2", 33: "v1alpha3", 37: "v1"}

// assertNegotiated checks the version hubclient chose, per kind.
func assertNegotiated(t *testing.T, srv *e2eenv.Server, c *hubclient.Client) {
	t.Helper()
	want, ok := negotiated[srv.Minor()]
	if !ok {
		t.Fatalf("no negotiated version listed for kube-apiserver %s; add the release to negotiated", srv.KubeVersion)
	}
	if want != srv.ResourceVersion {
		t.Fatalf("kube-apiserver %s prefers resource.k8s.io/%s, but negotiated lists %s", srv.KubeVersion, srv.ResourceVersion, want)
	}
	if c.Version() != want {
		t.Fatalf("hubclient negotiated %s with kube-apiserver %s (serving %v), want %s", c.Version(), srv.KubeVersion, c.ServedVersions(), want)
	}
	for _, kind := range []string{"DeviceClass", "ResourceClaim", "ResourceClaimTemplate"} {
		if v, ok := c.VersionFor(kind); !ok || v != want {
			t.Errorf("hubclient reaches %s through %q (served: %v) on kube-apiserver %s, want %s", kind, v, ok, srv.KubeVersion, want)
		}
	}
	// The two kinds only v1alpha3 and later have: through the newest
	// version that serves them (DeviceTaintRule: v1 on 1.37).
	if srv.Minor() >= 37 {
		for kind, version := range map[string]string{"DeviceTaintRule": "v1", "ResourcePoolStatusRequest": "v1alpha3"} {
			if v, ok := c.VersionFor(kind); !ok || v != version {
				t.Errorf("hubclient reaches %s through %q (served: %v) on kube-apiserver %s, want %s", kind, v, ok, srv.KubeVersion, version)
			}
		}
	}
	t.Logf("kube-apiserver %s serves resource.k8s.io %v: hubclient uses %s", srv.KubeVersion, c.ServedVersions(), c.Version())
}

type program struct {
	c     *hubclient.Client
	srv   *e2eenv.Server
	ns    string
	run   string
	minor int
}

func (p *program) name(s string) string { return "hub-" + s + "-" + p.run }

func (p *program) meta(name, ns string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"drakit.io/hub-run": p.run}, Annotations: map[string]string{"note": "hub program"}}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return c
}

// same compares what the program wrote with what the server returned,
// without the fields the server sets on its own.
func same(t *testing.T, what string, want, got runtime.Object) {
	t.Helper()
	w, g := want.DeepCopyObject(), got.DeepCopyObject()
	for _, o := range []runtime.Object{w, g} {
		m := o.(metav1.Object)
		m.SetUID("")
		m.SetResourceVersion("")
		m.SetCreationTimestamp(metav1.Time{})
		m.SetManagedFields(nil)
		m.SetGeneration(0)
	}
	if d := cmp.Diff(w, g, cmpOpts); d != "" {
		t.Errorf("%s: the hub object differs from what was written (-written +read):\n%s", what, d)
	}
}

func (p *program) deviceClass(t *testing.T) {
	ctx := ctx(t)
	classes := p.c.DeviceClasses()
	// A driver (what v1alpha2 calls driverName), a second selector and
	// config: v1alpha2 says only the driver, the rest rides in the stash.
	class := &resource.DeviceClass{
		ObjectMeta: p.meta(p.name("gpu"), ""),
		Spec: resource.DeviceClassSpec{
			Selectors: []resource.DeviceSelector{
				resource.DriverSelector("gpu.example.com"),
				{CEL: &resource.CELDeviceSelector{Expression: `device.attributes["gpu.example.com"].model == "a100"`}},
			},
			Config: []resource.DeviceClassConfiguration{{DeviceConfiguration: resource.DeviceConfiguration{
				Opaque: &resource.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: runtime.RawExtension{Raw: []byte(`{"sharing":"time-slicing"}`)}},
			}}},
		},
	}

	informer := classes.Informer(0, nil)
	stop := make(chan struct{})
	defer close(stop)
	go informer.Run(stop)
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		t.Fatal("hub informer did not sync")
	}

	created, err := classes.Create(ctx, class.DeepCopy(), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "create", class, created)
	w, err := classes.Watch(ctx, metav1.ListOptions{ResourceVersion: created.ResourceVersion, LabelSelector: "drakit.io/hub-run=" + p.run})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	got, err := classes.Get(ctx, class.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "get", class, got)
	list, err := classes.List(ctx, metav1.ListOptions{LabelSelector: "drakit.io/hub-run=" + p.run})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 {
		t.Fatalf("list: %d items", len(list.Items))
	}
	same(t, "list", class, &list.Items[0])
	waitCached(t, ctx, informer, class.Name, created.ResourceVersion)
	item, _, _ := informer.GetStore().GetByKey(class.Name)
	same(t, "informer cache", class, item.(*resource.DeviceClass))

	// Update: a third selector.
	got.Spec.Selectors = append(got.Spec.Selectors, resource.DeviceSelector{CEL: &resource.CELDeviceSelector{Expression: `device.attributes["gpu.example.com"].index >= 0`}})
	updated, err := classes.Update(ctx, got.DeepCopy(), metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "update", got, updated)
	nextEvent(t, ctx, w, watch.Modified, class.Name, updated.ResourceVersion)

	// A merge patch against the hub form: a label and no config.
	patched, err := classes.Patch(ctx, class.Name, types.MergePatchType, []byte(`{"metadata":{"labels":{"patched":"yes"}},"spec":{"config":null}}`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := updated.DeepCopy()
	want.Labels["patched"] = "yes"
	want.Spec.Config = nil
	same(t, "merge patch", want, patched)
	// A JSON patch: the driver (v1alpha2's driverName) changes with the
	// first selector.
	jp := `[{"op":"test","path":"/spec/selectors/0/cel/expression","value":"device.driver == \"gpu.example.com\""},` +
		`{"op":"replace","path":"/spec/selectors/0/cel/expression","value":"device.driver == \"gpu2.example.com\""}]`
	patched, err = classes.Patch(ctx, class.Name, types.JSONPatchType, []byte(jp), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want.Spec.Selectors[0] = resource.DriverSelector("gpu2.example.com")
	same(t, "JSON patch", want, patched)
	again, err := classes.Get(ctx, class.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "get after patches", want, again)

	p.applyConflict(t, ctx, func(manager, owner string, force bool) (metav1.Object, error) {
		return classes.Apply(ctx, &resource.DeviceClass{ObjectMeta: metav1.ObjectMeta{Name: class.Name, Labels: map[string]string{"owner": owner}}},
			metav1.ApplyOptions{FieldManager: manager, Force: force})
	})
	// Created by apply alone, from a full hub object.
	byApply := class.DeepCopy()
	byApply.Name = p.name("gpu-applied")
	appliedObj, err := classes.Apply(ctx, byApply.DeepCopy(), metav1.ApplyOptions{FieldManager: "hub-program"})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "create by apply", byApply, appliedObj)

	for _, n := range []string{class.Name, byApply.Name} {
		if err := classes.Delete(ctx, n, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	nextEvent(t, ctx, w, watch.Deleted, class.Name, "")
	if _, err := classes.Get(ctx, class.Name, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("get after delete: %v", err)
	}

	// suitableNodes: v1alpha2 has it; 1.32 removed it from v1alpha3. The
	// hub client's strict field validation turns what would be a silent
	// loss into an error naming the field.
	withNodes := class.DeepCopy()
	withNodes.Name = p.name("gpu-nodes")
	withNodes.Spec.SuitableNodes = &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{
		{Key: "kubernetes.io/hostname", Operator: corev1.NodeSelectorOpIn, Values: []string{"node-1"}}}}}}
	created, err = classes.Create(ctx, withNodes.DeepCopy(), metav1.CreateOptions{})
	if unknown := drift.UnknownFields(p.minor, classes.Version(), "DeviceClass"); len(unknown) > 0 {
		if err == nil || !strings.Contains(err.Error(), `unknown field "spec.suitableNodes"`) {
			t.Fatalf("creating a class with suitableNodes on a server without it: got %v, want a strict decoding error naming spec.suitableNodes", err)
		}
	} else {
		if err != nil {
			t.Fatal(err)
		}
		same(t, "create with suitableNodes", withNodes, created)
	}
}

func (p *program) resourceClaim(t *testing.T) {
	ctx := ctx(t)
	claims := p.c.ResourceClaims(p.ns)
	claim := &resource.ResourceClaim{
		ObjectMeta: p.meta(p.name("claim"), p.ns),
		Spec: resource.ResourceClaimSpec{
			Devices: resource.DeviceClaim{
				Requests: []resource.DeviceRequest{
					{Name: "gpu", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "gpu", AllocationMode: resource.DeviceAllocationModeExactCount, Count: 2,
						Selectors: []resource.DeviceSelector{{CEL: &resource.CELDeviceSelector{Expression: `device.attributes["gpu.example.com"].model == "a100"`}}}}},
					{Name: "nic", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "nic", AllocationMode: resource.DeviceAllocationModeExactCount, Count: 1}},
				},
				Constraints: []resource.DeviceConstraint{{Requests: []string{"gpu", "nic"}, MatchAttribute: ptr.To(resource.FullyQualifiedName("example.com/numa"))}},
				Config: []resource.DeviceClaimConfiguration{{Requests: []string{"gpu"}, DeviceConfiguration: resource.DeviceConfiguration{
					Opaque: &resource.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: runtime.RawExtension{Raw: []byte(`{"mig":"1g.5gb"}`)}}}}},
			},
			// What 1.30 defaults to; v1alpha3 restores it as the default.
			AllocationMode: resource.AllocationModeWaitForFirstConsumer,
		},
	}
	informer := claims.Informer(0, nil)
	stop := make(chan struct{})
	defer close(stop)
	go informer.Run(stop)
	if !cache.WaitForCacheSync(ctx.Done(), informer.HasSynced) {
		t.Fatal("hub informer did not sync")
	}

	created, err := claims.Create(ctx, claim.DeepCopy(), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "create", claim, created)
	w, err := claims.Watch(ctx, metav1.ListOptions{ResourceVersion: created.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	got, err := claims.Get(ctx, claim.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "get", claim, got)
	list, err := claims.List(ctx, metav1.ListOptions{LabelSelector: "drakit.io/hub-run=" + p.run})
	if err != nil || len(list.Items) != 1 {
		t.Fatalf("list: %v, %d items", err, len(list.Items))
	}
	same(t, "list", claim, &list.Items[0])
	waitCached(t, ctx, informer, p.ns+"/"+claim.Name, created.ResourceVersion)

	// The spec is immutable; metadata is what an update changes.
	got.Annotations["updated"] = "yes"
	updated, err := claims.Update(ctx, got.DeepCopy(), metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "update", got, updated)
	nextEvent(t, ctx, w, watch.Modified, claim.Name, updated.ResourceVersion)

	// A status with parts each version lacks: device results (v1alpha2
	// shows them as structured handles), driverName and shareable
	// (v1alpha3 has neither).
	updated.Status = resource.ResourceClaimStatus{
		DriverName: "gpu.example.com",
		Allocation: &resource.AllocationResult{
			Devices: resource.DeviceAllocationResult{Results: []resource.DeviceRequestAllocationResult{
				{Request: "gpu", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"},
				{Request: "gpu", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-1"},
				{Request: "nic", Driver: "nic.example.com", Pool: "node-1", Device: "nic-0"},
			}},
			NodeSelector: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{
				{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"node-1"}}}}}},
			Shareable: true,
		},
		ReservedFor: []resource.ResourceClaimConsumerReference{{Resource: "pods", Name: "pod-a", UID: "11111111-2222-3333-4444-555555555555"}},
	}
	withStatus, err := claims.UpdateStatus(ctx, updated.DeepCopy(), metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "status update", updated, withStatus)
	got, err = claims.Get(ctx, claim.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "get after status update", updated, got)

	// A second consumer through a merge patch of the status subresource.
	patch, _ := json.Marshal(map[string]any{"status": map[string]any{"reservedFor": []any{
		map[string]any{"resource": "pods", "name": "pod-a", "uid": "11111111-2222-3333-4444-555555555555"},
		map[string]any{"resource": "pods", "name": "pod-b", "uid": "22222222-2222-3333-4444-555555555555"},
	}}})
	patched, err := claims.Patch(ctx, claim.Name, types.MergePatchType, patch, metav1.PatchOptions{}, "status")
	if err != nil {
		t.Fatal(err)
	}
	want := updated.DeepCopy()
	want.Status.ReservedFor = append(want.Status.ReservedFor, resource.ResourceClaimConsumerReference{Resource: "pods", Name: "pod-b", UID: "22222222-2222-3333-4444-555555555555"})
	same(t, "status patch", want, patched)

	// The same status applied by the driver changes nothing visible.
	applied, err := claims.ApplyStatus(ctx, &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: claim.Name, Namespace: p.ns}, Status: want.Status},
		metav1.ApplyOptions{FieldManager: "hub-driver", Force: true})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "status apply", want, applied)

	p.applyConflict(t, ctx, func(manager, owner string, force bool) (metav1.Object, error) {
		return claims.Apply(ctx, &resource.ResourceClaim{ObjectMeta: metav1.ObjectMeta{Name: claim.Name, Namespace: p.ns, Labels: map[string]string{"owner": owner}}},
			metav1.ApplyOptions{FieldManager: manager, Force: force})
	})
	final, err := claims.Get(ctx, claim.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want.Spec, final.Spec, cmpOpts); d != "" {
		t.Errorf("the label applies changed the spec (-want +got):\n%s", d)
	}
	if d := cmp.Diff(want.Status, final.Status, cmpOpts); d != "" {
		t.Errorf("the label applies changed the status (-want +got):\n%s", d)
	}
	// An update of the main resource ignores the status, also the part
	// only the stash holds on this version.
	final.Labels["after"] = "update"
	final.Status.DriverName = "other.example.com"
	final.Status.Allocation.Shareable = false
	afterUpdate, err := claims.Update(ctx, final, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if afterUpdate.Labels["after"] != "update" {
		t.Errorf("update lost the label: %v", afterUpdate.Labels)
	}
	if d := cmp.Diff(want.Status, afterUpdate.Status, cmpOpts); d != "" {
		t.Errorf("a main-resource update changed the status (-want +got):\n%s", d)
	}

	if err := claims.Delete(ctx, claim.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	nextEvent(t, ctx, w, watch.Deleted, claim.Name, "")
}

func (p *program) resourceClaimTemplate(t *testing.T) {
	ctx := ctx(t)
	templates := p.c.ResourceClaimTemplates(p.ns)
	tmpl := &resource.ResourceClaimTemplate{
		ObjectMeta: p.meta(p.name("template"), p.ns),
		Spec: resource.ResourceClaimTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"from": "template"}},
			Spec: resource.ResourceClaimSpec{
				Devices: resource.DeviceClaim{Requests: []resource.DeviceRequest{
					{Name: "gpu", Exactly: &resource.ExactDeviceRequest{DeviceClassName: "gpu", AllocationMode: resource.DeviceAllocationModeAll}},
				}},
				AllocationMode: resource.AllocationModeImmediate,
			},
		},
	}
	created, err := templates.Create(ctx, tmpl.DeepCopy(), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "create", tmpl, created)
	got, err := templates.Get(ctx, tmpl.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "get", tmpl, got)
	if err := templates.Delete(ctx, tmpl.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (p *program) resourceSlice(t *testing.T) {
	ctx := ctx(t)
	slices := p.c.ResourceSlices()
	if slices.Version() == "" {
		t.Skip("the server serves no ResourceSlice")
	}
	node := p.name("node")
	slice := &resource.ResourceSlice{
		ObjectMeta: p.meta(p.name("slice"), ""),
		Spec: resource.ResourceSliceSpec{
			Driver:   "gpu.example.com",
			NodeName: ptr.To(node),
			// The pool a 1.30 slice stands for: one slice per node.
			Pool: resource.ResourcePool{Name: node, Generation: 0, ResourceSliceCount: 1},
			Devices: []resource.Device{
				{
					Name: "gpu-0",
					Attributes: map[resource.QualifiedName]resource.DeviceAttribute{
						"index": {IntValue: ptr.To[int64](0)},
						"model": {StringValue: ptr.To("a100")},
						// A list: v1alpha2's intSlice, which v1alpha3 keeps in the stash.
						"numa": {IntValues: []int64{0, 1}},
					},
					// A v1alpha2 quantity attribute is a capacity.
					Capacity: map[resource.QualifiedName]resource.DeviceCapacity{"memory": {Value: apiresource.MustParse("16Gi")}},
				},
				// No attributes at all: v1alpha3 still writes basic
				// (drift.SliceDeviceBasicAlwaysSet).
				{Name: "gpu-1"},
			},
		},
	}
	created, err := slices.Create(ctx, slice.DeepCopy(), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "create", slice, created)
	created.Spec.Devices = append(created.Spec.Devices, resource.Device{Name: "gpu-2", Attributes: map[resource.QualifiedName]resource.DeviceAttribute{
		"model": {StringValue: ptr.To("h100")},
	}})
	updated, err := slices.Update(ctx, created.DeepCopy(), metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "update", created, updated)
	got, err := slices.Get(ctx, slice.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "get", created, got)
	if err := slices.Delete(ctx, slice.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (p *program) podSchedulingContext(t *testing.T) {
	ctx := ctx(t)
	contexts := p.c.PodSchedulingContexts(p.ns)
	psc := &resource.PodSchedulingContext{
		ObjectMeta: p.meta(p.name("pod"), p.ns),
		Spec:       resource.PodSchedulingContextSpec{SelectedNode: "node-1", PotentialNodes: []string{"node-1", "node-2"}},
	}
	created, err := contexts.Create(ctx, psc.DeepCopy(), metav1.CreateOptions{})
	if p.expectNotServed(t, "PodSchedulingContext", err) {
		return
	}
	same(t, "create", psc, created)
	created.Status.ResourceClaims = []resource.ResourceClaimSchedulingStatus{{Name: "gpu", UnsuitableNodes: []string{"node-2"}}}
	withStatus, err := contexts.UpdateStatus(ctx, created.DeepCopy(), metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "status update", created, withStatus)
	if err := contexts.Delete(ctx, psc.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (p *program) parameters(t *testing.T) {
	ctx := ctx(t)
	claimParams := &resource.ResourceClaimParameters{
		ObjectMeta: p.meta(p.name("claim-params"), p.ns),
		Shareable:  true,
		DriverRequests: []resource.DriverRequests{{DriverName: "gpu.example.com", Requests: []resource.ResourceRequest{
			{ResourceRequestModel: resource.ResourceRequestModel{NamedResources: &resource.NamedResourcesRequest{Selector: `attributes.string["model"] == "a100"`}}},
		}}},
	}
	created, err := p.c.ResourceClaimParameters(p.ns).Create(ctx, claimParams.DeepCopy(), metav1.CreateOptions{})
	if p.expectNotServed(t, "ResourceClaimParameters", err) {
		return
	}
	same(t, "claim parameters", claimParams, created)
	classParams := &resource.ResourceClassParameters{
		ObjectMeta: p.meta(p.name("class-params"), p.ns),
		Filters: []resource.ResourceFilter{{DriverName: "gpu.example.com", ResourceFilterModel: resource.ResourceFilterModel{
			NamedResources: &resource.NamedResourcesFilter{Selector: `attributes.bool["healthy"]`}}}},
	}
	createdClass, err := p.c.ResourceClassParameters(p.ns).Create(ctx, classParams.DeepCopy(), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "class parameters", classParams, createdClass)
}

// expectNotServed reports whether err is the *hubclient.NotServedError
// drakit's catalogue expects for the hub kind on this server (no version
// serves it in the server's release: PodSchedulingContext after 1.31, the
// parameter kinds after 1.30); any other error fails.
func (p *program) expectNotServed(t *testing.T, kind string, err error) bool {
	t.Helper()
	var ns *hubclient.NotServedError
	if errors.As(err, &ns) {
		if p.srv.CatalogueServesHub(kind) {
			t.Fatalf("%v, although drakit's catalogue says kube-apiserver %s serves it", err, p.srv.KubeVersion)
		}
		t.Logf("not served, as drakit's catalogue says: %v", err)
		return true
	}
	if err != nil {
		t.Fatal(err)
	}
	return false
}

// applyConflict: manager a takes a label, b's apply of another value
// conflicts naming a, b forces and wins.
func (p *program) applyConflict(t *testing.T, _ context.Context, apply func(manager, owner string, force bool) (metav1.Object, error)) {
	t.Helper()
	o, err := apply("hub-a", "a", true)
	if err != nil {
		t.Fatalf("apply as hub-a: %v", err)
	}
	if o.GetLabels()["owner"] != "a" {
		t.Fatalf("apply as hub-a: label owner=%q", o.GetLabels()["owner"])
	}
	_, err = apply("hub-b", "b", false)
	if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), "hub-a") {
		t.Fatalf("apply as hub-b over hub-a's label: got %v, want a conflict naming hub-a", err)
	}
	o, err = apply("hub-b", "b", true)
	if err != nil {
		t.Fatalf("forced apply as hub-b: %v", err)
	}
	if o.GetLabels()["owner"] != "b" {
		t.Fatalf("forced apply as hub-b: label owner=%q", o.GetLabels()["owner"])
	}
}

func waitCached(t *testing.T, ctx context.Context, informer cache.SharedIndexInformer, key, rv string) {
	t.Helper()
	for {
		item, ok, err := informer.GetStore().GetByKey(key)
		if err != nil {
			t.Fatal(err)
		}
		if ok && item.(metav1.Object).GetResourceVersion() == rv {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the hub informer never cached %s at resourceVersion %s", key, rv)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func nextEvent(t *testing.T, ctx context.Context, w watch.Interface, typ watch.EventType, name, rv string) {
	t.Helper()
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				t.Fatalf("watch closed waiting for %s of %s", typ, name)
			}
			if ev.Type == watch.Error {
				t.Fatalf("watch error: %v", apierrors.FromObject(ev.Object))
			}
			if pkg := reflect.TypeOf(ev.Object).Elem().PkgPath(); pkg != "github.com/drakit/drakit/apis/resource" {
				t.Fatalf("watch event carries %T, not a hub object", ev.Object)
			}
			o := ev.Object.(metav1.Object)
			if ev.Type == typ && o.GetName() == name && (rv == "" || o.GetResourceVersion() == rv) {
				return
			}
		case <-ctx.Done():
			t.Fatalf("no %s event for %s", typ, name)
		}
	}
}
