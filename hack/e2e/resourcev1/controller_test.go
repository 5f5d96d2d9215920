package resourcev1

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	rv1 "k8s.io/api/resource/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	resourcev1client "k8s.io/client-go/kubernetes/typed/resource/v1"
	"k8s.io/client-go/rest"
	"k8s.io/dynamic-resource-allocation/kubeletplugin"
	"k8s.io/dynamic-resource-allocation/resourceslice"
	"k8s.io/utils/ptr"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
	"github.com/drakit/drakit/hubclient"
	"github.com/drakit/drakit/hubclient/resourcev1"
)

// TestResourceSliceController runs upstream's ResourceSlice controller
// (k8s.io/dynamic-resource-allocation/resourceslice, what every driver's
// kubelet plugin publishes its devices with) on a kubernetes.Interface
// whose ResourceV1() is drakit's resourcev1.New(hub), against every server
// of the suite. The devices carry the attribute names drivers use
// (driverVersion, productName), which 1.30's v1alpha2 cannot name. On each
// server the controller must publish the slices (stored in the server's own
// version), converge (no write once they are published), follow a change
// of the driver's devices, and repair a slice someone edits or deletes. A
// second controller reconciles a network pool by name, whose pool-name
// field selector only 1.37 serves (the others make the controller fall
// back to filtering), and the kubeletplugin helper publishes through the
// same interface without a kubelet.
func TestResourceSliceController(t *testing.T) {
	srv := e2eenv.Get(t)
	run := fmt.Sprintf("%d", time.Now().UnixNano()%1e9)
	kube, err := kubernetes.NewForConfig(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	node, err := kube.CoreV1().Nodes().Create(context.Background(), &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "slicectl-" + run}}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create the node the slices belong to: %v", err)
	}
	// The observer reads and edits as anyone else would, through a hub
	// client of its own, so that its requests are not counted as the
	// controller's.
	observer, err := hubclient.NewForConfig(srv.Config, hubclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("kube-apiserver %s serves ResourceSlice in resource.k8s.io/%s", srv.KubeVersion, observer.ResourceSlices().Version())

	t.Run("node-local pool", func(t *testing.T) {
		t.Parallel()
		driver := "node-" + run + ".e2e.drakit.io"
		s := newStack(t, srv)
		var errs errorLog
		resources := gpuPool(node.Name, 2, "A100")
		ctrl, err := resourceslice.StartController(s.ctx(t), resourceslice.Options{
			DriverName: driver,
			KubeClient: s.clientset,
			Owner:      &resourceslice.Owner{APIVersion: "v1", Kind: "Node", Name: node.Name, UID: node.UID},
			Resources:  resources,
			// Quick, so that a sync the controller would only make after
			// its default 30 s or 1 min happens while the test looks.
			SyncDelay:        ptr.To(100 * time.Millisecond),
			MutationCacheTTL: ptr.To(time.Second),
			ErrorHandler:     errs.handle,
		})
		if err != nil {
			t.Fatalf("start the controller: %v", err)
		}
		defer ctrl.Stop()
		defer deleteSlices(t, observer, driver)

		published := waitPublished(t, s.v1, driver, resources, &errs)
		s.quiet(t, "after publishing", &errs)
		if st := ctrl.GetStats(); st.NumCreates != 1 || st.NumUpdates != 0 || st.NumDeletes != 0 {
			t.Errorf("publishing took %+v, want one create", st)
		}
		checkStored(t, srv, published)
		s.checkWarnings(t, srv)

		changed := gpuPool(node.Name, 3, "H100")
		ctrl.Update(changed)
		waitPublished(t, s.v1, driver, changed, &errs)
		s.quiet(t, "after a change", &errs)
		if st := ctrl.GetStats(); st.NumCreates != 1 || st.NumUpdates != 1 || st.NumDeletes != 0 {
			t.Errorf("after the change the controller made %+v, want one update more", st)
		}

		// Someone edits the slice on the server: a device gone, another
		// one's index changed.
		edit, err := observer.ResourceSlices().Get(context.Background(), published[0].Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		edit.Spec.Devices = edit.Spec.Devices[:2]
		edit.Spec.Devices[0].Attributes["index"] = resource.DeviceAttribute{IntValue: ptr.To[int64](99)}
		if _, err := observer.ResourceSlices().Update(context.Background(), edit, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("edit the slice: %v", err)
		}
		waitPublished(t, s.v1, driver, changed, &errs)
		s.quiet(t, "after repairing an edit", &errs)
		if st := ctrl.GetStats(); st.NumCreates != 1 || st.NumUpdates != 2 || st.NumDeletes != 0 {
			t.Errorf("after the edit the controller made %+v, want one update more", st)
		}

		if err := observer.ResourceSlices().Delete(context.Background(), published[0].Name, metav1.DeleteOptions{}); err != nil {
			t.Fatalf("delete the slice: %v", err)
		}
		waitPublished(t, s.v1, driver, changed, &errs)
		s.quiet(t, "after recreating a deleted slice", &errs)
		if st := ctrl.GetStats(); st.NumCreates != 2 || st.NumUpdates != 2 || st.NumDeletes != 0 {
			t.Errorf("after the delete the controller made %+v, want one create more", st)
		}
	})

	t.Run("network pool reconciled by name", func(t *testing.T) {
		t.Parallel()
		driver := "net-" + run + ".e2e.drakit.io"
		s := newStack(t, srv)
		var errs errorLog
		pool := "rack-" + run
		resources := &resourceslice.DriverResources{Pools: map[string]resourceslice.Pool{pool: {
			AllNodes: true, Slices: []resourceslice.Slice{{Devices: gpus(0, 2, "L40S")}},
		}}}
		ctrl, err := resourceslice.StartController(s.ctx(t), resourceslice.Options{
			DriverName:            driver,
			KubeClient:            s.clientset,
			Resources:             resources,
			ReconcilePoolWithName: pool,
			SyncDelay:             ptr.To(100 * time.Millisecond),
			MutationCacheTTL:      ptr.To(time.Second),
			ErrorHandler:          errs.handle,
		})
		if err != nil {
			t.Fatalf("start the controller: %v", err)
		}
		defer ctrl.Stop()
		defer deleteSlices(t, observer, driver)
		waitPublished(t, s.v1, driver, resources, &errs)
		s.quiet(t, "after publishing", &errs)
		// Only a release that selects on the pool's name gets asked to.
		asked := s.selected("spec.pool.name")
		if want := srv.Minor() >= 37; asked != want {
			t.Errorf("the server got a selector on spec.pool.name: %v, want %v (kube-apiserver %s, ResourceSlice in %s)", asked, want, srv.KubeVersion, observer.ResourceSlices().Version())
		}
		changed := &resourceslice.DriverResources{Pools: map[string]resourceslice.Pool{pool: {
			AllNodes: true, Slices: []resourceslice.Slice{{Devices: gpus(0, 1, "L40S")}, {Devices: gpus(1, 1, "L4")}},
		}}}
		ctrl.Update(changed)
		waitPublished(t, s.v1, driver, changed, &errs)
		s.quiet(t, "after a change", &errs)
	})

	t.Run("kubeletplugin helper", func(t *testing.T) {
		t.Parallel()
		driver := "plugin-" + run + ".e2e.drakit.io"
		s := newStack(t, srv)
		var errs errorLog
		helper, err := kubeletplugin.Start(s.ctx(t), &plugin{errs: &errs},
			kubeletplugin.DriverName(driver),
			kubeletplugin.KubeClient(s.clientset),
			kubeletplugin.NodeName(node.Name),
			kubeletplugin.NodeUID(node.UID),
			// No kubelet: the sockets it would connect to sit in a
			// directory of the test's, and nobody calls them.
			kubeletplugin.PluginDataDirectoryPath(t.TempDir()),
			kubeletplugin.RegistrarDirectoryPath(t.TempDir()),
		)
		if err != nil {
			t.Fatalf("start the kubelet plugin helper: %v", err)
		}
		defer helper.Stop()
		defer deleteSlices(t, observer, driver)
		resources := gpuPool(node.Name, 2, "A100")
		if err := helper.PublishResources(context.Background(), *resources); err != nil {
			t.Fatal(err)
		}
		published := waitPublished(t, s.v1, driver, resources, &errs)
		if refs := published[0].OwnerReferences; len(refs) != 1 || refs[0].Kind != "Node" || refs[0].UID != node.UID {
			t.Errorf("the slice is owned by %+v, want the node %s", refs, node.Name)
		}
		changed := gpuPool(node.Name, 3, "A100")
		if err := helper.PublishResources(context.Background(), *changed); err != nil {
			t.Fatal(err)
		}
		waitPublished(t, s.v1, driver, changed, &errs)
		// The helper's controller syncs 30 s after an event and again a
		// minute after a create; the node-local case above waits for such
		// syncs with shorter delays.
		if e := errs.take(); len(e) > 0 {
			t.Errorf("the helper reported errors: %q", e)
		}
	})
}

// stack is what one driver runs on: a hub client whose writes are counted,
// drakit's ResourceV1Interface over it, and a kubernetes.Interface whose
// ResourceV1() is that interface.
type stack struct {
	clientset kubernetes.Interface
	v1        resourcev1client.ResourceV1Interface
	hub       *hubclient.Client
	requests  *requestLog
	warnings  *warningLog
}

func newStack(t *testing.T, srv *e2eenv.Server) *stack {
	t.Helper()
	s := &stack{requests: &requestLog{}, warnings: &warningLog{}}
	cfg := rest.CopyConfig(srv.Config)
	cfg.Wrap(s.requests.wrap)
	cfg.WarningHandlerWithContext = s.warnings
	var err error
	if s.hub, err = hubclient.NewForConfig(cfg, hubclient.Options{}); err != nil {
		t.Fatal(err)
	}
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.v1 = resourcev1.New(s.hub)
	s.clientset = drakitResourceV1{Interface: kube, v1: s.v1}
	return s
}

// ctx is a context that ends with the test, and after two minutes at most,
// so that a controller that cannot start fails the test instead of
// hanging it.
func (s *stack) ctx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// drakitResourceV1 is a clientset whose ResourceV1() is drakit's; every
// other group is client-go's.
type drakitResourceV1 struct {
	kubernetes.Interface
	v1 resourcev1client.ResourceV1Interface
}

func (c drakitResourceV1) ResourceV1() resourcev1client.ResourceV1Interface { return c.v1 }

// quiet checks that the controller, its slices published, writes nothing
// for longer than it takes to sync again (SyncDelay after an event,
// MutationCacheTTL after a create), and reported no error.
func (s *stack) quiet(t *testing.T, when string, errs *errorLog) {
	t.Helper()
	before := s.requests.writes()
	time.Sleep(3 * time.Second)
	if after := s.requests.writes(); len(after) != len(before) {
		t.Errorf("%s the controller kept writing: %q", when, after[len(before):])
	}
	if e := errs.take(); len(e) > 0 {
		t.Errorf("%s the controller reported errors: %q", when, e)
	}
}

// selected tells whether a list or watch selected on the field label.
func (s *stack) selected(label string) bool {
	for _, r := range s.requests.all() {
		if strings.HasPrefix(r, http.MethodGet+" ") && strings.Contains(r, "fieldSelector=") && strings.Contains(r, label) {
			return true
		}
	}
	return false
}

// checkWarnings: on 1.30 a write of slices whose attribute names v1alpha2
// cannot hold warns, naming them; elsewhere nothing warns.
func (s *stack) checkWarnings(t *testing.T, srv *e2eenv.Server) {
	t.Helper()
	got := s.warnings.take()
	if s.hub.ResourceSlices().Version() != "v1alpha2" {
		if len(got) > 0 {
			t.Errorf("warnings on kube-apiserver %s: %q", srv.KubeVersion, got)
		}
		return
	}
	if len(got) == 0 || !strings.Contains(got[0], "cannot hold the names driverVersion, productName") || !strings.Contains(got[0], "the 1.30 scheduler does not see them") {
		t.Errorf("writes of slices with v1 attribute names on 1.30 warned %q, want the names and what they mean", got)
	}
}

// gpuPool is a node-local pool of one slice with n GPUs.
func gpuPool(node string, n int, product string) *resourceslice.DriverResources {
	return &resourceslice.DriverResources{Pools: map[string]resourceslice.Pool{node: {Slices: []resourceslice.Slice{{Devices: gpus(0, n, product)}}}}}
}

// gpus are n devices, from gpu-<first> on, as a driver describes them, with attribute names that
// v1alpha2 cannot hold (driverVersion, productName) beside ones it can.
func gpus(first, n int, product string) []rv1.Device {
	out := make([]rv1.Device, n)
	for j := range out {
		i := first + j
		out[j] = rv1.Device{
			Name: fmt.Sprintf("gpu-%d", i),
			Attributes: map[rv1.QualifiedName]rv1.DeviceAttribute{
				"index":         {IntValue: ptr.To(int64(i))},
				"driverVersion": {VersionValue: ptr.To("1.2.3")},
				"productName":   {StringValue: ptr.To(product)},
			},
			Capacity: map[rv1.QualifiedName]rv1.DeviceCapacity{"memory": {Value: apiresource.MustParse("40Gi")}},
		}
	}
	return out
}

// waitPublished waits until the driver's slices on the server, read
// through drakit's v1 interface, are those of want, and returns them in
// the order of want's slices. Pool and slice order follow the slices'
// names, which the controller gives them by index.
func waitPublished(t *testing.T, c resourcev1client.ResourceV1Interface, driver string, want *resourceslice.DriverResources, errs *errorLog) []rv1.ResourceSlice {
	t.Helper()
	var got []rv1.ResourceSlice
	var mismatch, listErr string
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err := c.ResourceSlices().List(ctx, metav1.ListOptions{FieldSelector: rv1.ResourceSliceSelectorDriver + "=" + driver})
		if err != nil {
			listErr = err.Error()
			return false, nil
		}
		got = list.Items
		slices.SortFunc(got, func(a, b rv1.ResourceSlice) int { return strings.Compare(a.Name, b.Name) })
		mismatch = matches(got, want)
		return mismatch == "", nil
	})
	if err != nil {
		t.Fatalf("the slices of %s were not published within a minute: %s (the last list error: %s; the controller reported %q)", driver, mismatch, listErr, errs.take())
	}
	return got
}

// matches says how the slices differ from the driver's resources, or "".
func matches(got []rv1.ResourceSlice, want *resourceslice.DriverResources) string {
	n := 0
	for poolName, pool := range want.Pools {
		var inPool []rv1.ResourceSlice
		for _, s := range got {
			if s.Spec.Pool.Name == poolName {
				inPool = append(inPool, s)
			}
		}
		if len(inPool) != len(pool.Slices) {
			return fmt.Sprintf("pool %s has %d slices, want %d", poolName, len(inPool), len(pool.Slices))
		}
		for i, s := range inPool {
			if !apiequality.Semantic.DeepEqual(s.Spec.Devices, pool.Slices[i].Devices) {
				return fmt.Sprintf("slice %s of pool %s (-want +got):\n%s", s.Name, poolName, cmp.Diff(pool.Slices[i].Devices, s.Spec.Devices))
			}
			if ptr.Deref(s.Spec.AllNodes, false) != pool.AllNodes || s.Spec.Pool.ResourceSliceCount != int64(len(pool.Slices)) {
				return fmt.Sprintf("slice %s: allNodes %v, resourceSliceCount %d", s.Name, ptr.Deref(s.Spec.AllNodes, false), s.Spec.Pool.ResourceSliceCount)
			}
		}
		n += len(inPool)
	}
	if n != len(got) {
		return fmt.Sprintf("%d slices, want %d", len(got), n)
	}
	return ""
}

// checkStored reads the slices as the server stores them, in its own
// version: each is that version's object and says, converted to v1, what
// was published; on v1alpha2 the instances list only the names 1.30
// takes, and the stash annotation the others.
func checkStored(t *testing.T, srv *e2eenv.Server, published []rv1.ResourceSlice) {
	t.Helper()
	dyn, err := dynamic.NewForConfig(srv.Config)
	if err != nil {
		t.Fatal(err)
	}
	version := srv.ResourceVersion
	gvr := schema.GroupVersionResource{Group: resource.GroupName, Version: version, Resource: "resourceslices"}
	for _, p := range published {
		u, err := dyn.Resource(gvr).Get(context.Background(), p.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("read %s %s: %v", gvr, p.Name, err)
		}
		if u.GetAPIVersion() != gvr.GroupVersion().String() {
			t.Errorf("%s is stored as %s", p.Name, u.GetAPIVersion())
		}
		stash, stashed := u.GetAnnotations()[resource.StashAnnotation]
		if version == "v1alpha2" {
			instances, _, _ := unstructured.NestedSlice(u.Object, "namedResources", "instances")
			for _, inst := range instances {
				attrs, _, _ := unstructured.NestedSlice(inst.(map[string]any), "attributes")
				var names []string
				for _, a := range attrs {
					names = append(names, a.(map[string]any)["name"].(string))
				}
				slices.Sort(names)
				if !slices.Equal(names, []string{"index", "memory"}) {
					t.Errorf("a v1alpha2 instance of %s lists %q, want the names 1.30 takes, index and memory", p.Name, names)
				}
			}
			if !strings.Contains(stash, `"driverVersion"`) || !strings.Contains(stash, `"productName"`) {
				t.Errorf("the stash of %s does not keep driverVersion and productName: %q", p.Name, stash)
			}
		} else if stashed {
			t.Errorf("%s in %s needs no stash, has %q", p.Name, version, stash)
		}
		obj, err := conversion.Convert(u, rv1.SchemeGroupVersion)
		if err != nil {
			t.Fatalf("converting the stored %s to v1: %v", p.Name, err)
		}
		var back rv1.ResourceSlice
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.(*unstructured.Unstructured).Object, &back); err != nil {
			t.Fatal(err)
		}
		if !apiequality.Semantic.DeepEqual(back.Spec, p.Spec) {
			t.Errorf("the stored %s says (-published +stored):\n%s", p.Name, cmp.Diff(p.Spec, back.Spec))
		}
	}
}

// deleteSlices removes what a controller left, through DeleteCollection
// with the driver's field selector (in the served version's label).
func deleteSlices(t *testing.T, c *hubclient.Client, driver string) {
	t.Helper()
	sel := metav1.ListOptions{FieldSelector: rv1.ResourceSliceSelectorDriver + "=" + driver}
	if err := c.ResourceSlices().DeleteCollection(context.Background(), metav1.DeleteOptions{}, sel); err != nil {
		t.Errorf("delete the slices of %s: %v", driver, err)
		return
	}
	list, err := c.ResourceSlices().List(context.Background(), sel)
	if err != nil || len(list.Items) != 0 {
		t.Errorf("after deleting the slices of %s: %d left, %v", driver, len(list.Items), err)
	}
}

// requestLog records the requests to resource.k8s.io that go through its
// transport, as "METHOD path?query".
type requestLog struct {
	mu   sync.Mutex
	reqs []string
}

func (l *requestLog) wrap(rt http.RoundTripper) http.RoundTripper {
	return &loggingTransport{log: l, next: rt}
}

type loggingTransport struct {
	log  *requestLog
	next http.RoundTripper
}

func (t *loggingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.HasPrefix(req.URL.Path, "/apis/"+resource.GroupName+"/") {
		t.log.mu.Lock()
		t.log.reqs = append(t.log.reqs, req.Method+" "+req.URL.RequestURI())
		t.log.mu.Unlock()
	}
	return t.next.RoundTrip(req)
}

// WrappedRoundTripper lets client-go find the transport under it
// (utilnet.RoundTripperWrapper).
func (t *loggingTransport) WrappedRoundTripper() http.RoundTripper { return t.next }

func (l *requestLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.reqs)
}

// writes are the requests that change something.
func (l *requestLog) writes() []string {
	var out []string
	for _, r := range l.all() {
		if !strings.HasPrefix(r, http.MethodGet+" ") {
			out = append(out, r)
		}
	}
	return out
}

// warningLog keeps the warnings of the server and of drakit's client.
type warningLog struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warningLog) HandleWarningHeaderWithContext(_ context.Context, _ int, _ string, message string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, message)
}

func (w *warningLog) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.msgs
	w.msgs = nil
	return out
}

// errorLog keeps what a controller reports to its ErrorHandler.
type errorLog struct {
	mu   sync.Mutex
	errs []string
}

func (l *errorLog) handle(_ context.Context, err error, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, msg+": "+err.Error())
}

func (l *errorLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.errs
	l.errs = nil
	return out
}

// plugin is a DRA driver that prepares nothing: the helper needs one, and
// with no kubelet nobody asks it to.
type plugin struct {
	errs *errorLog
}

func (p *plugin) PrepareResourceClaims(context.Context, []*rv1.ResourceClaim) (map[types.UID]kubeletplugin.PrepareResult, error) {
	return nil, fmt.Errorf("no kubelet should ask")
}

func (p *plugin) UnprepareResourceClaims(context.Context, []kubeletplugin.NamespacedObject) (map[types.UID]error, error) {
	return nil, fmt.Errorf("no kubelet should ask")
}

func (p *plugin) HandleError(ctx context.Context, err error, msg string) {
	p.errs.handle(ctx, err, msg)
}

func (p *plugin) WatchHealthStatus(context.Context, chan<- kubeletplugin.DeviceHealthReport) error {
	return kubeletplugin.ErrHealthNotSupported
}
