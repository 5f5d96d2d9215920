package kubeapi_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	upstream "k8s.io/api/resource/v1alpha3"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/install"
	"github.com/drakit/drakit/apis/resource/v1alpha3/kubeapi"
	"github.com/drakit/drakit/internal/fuzzer"
)

// checkStamped fails unless ts is set, to a whole second, no earlier than
// the second before and no later than after.
func checkStamped(t *testing.T, ts *metav1.Time, before, after time.Time) {
	t.Helper()
	if ts == nil {
		t.Fatal("timeAdded was not set")
	}
	if ts.Nanosecond() != 0 {
		t.Errorf("timeAdded %v is not truncated to seconds", ts.Time)
	}
	if ts.Time.Before(before.Truncate(time.Second)) || ts.Time.After(after) {
		t.Errorf("timeAdded %v is not between %v and %v", ts.Time, before, after)
	}
}

func TestSetDefaultsDeviceTaint(t *testing.T) {
	before := time.Now()
	taint := upstream.DeviceTaint{Key: "k", Effect: upstream.DeviceTaintEffectNoSchedule}
	kubeapi.SetDefaults_DeviceTaint(&taint)
	checkStamped(t, taint.TimeAdded, before, time.Now())
	if taint.Key != "k" || taint.Value != "" || taint.Effect != upstream.DeviceTaintEffectNoSchedule {
		t.Errorf("defaulting changed other fields: %#v", taint)
	}

	set := metav1.NewTime(time.Date(2020, time.January, 2, 3, 4, 5, 600, time.UTC))
	taint = upstream.DeviceTaint{Key: "k", TimeAdded: &set}
	kubeapi.SetDefaults_DeviceTaint(&taint)
	if taint.TimeAdded != &set || !taint.TimeAdded.Equal(&set) {
		t.Errorf("a set timeAdded was replaced: %v", taint.TimeAdded)
	}
}

func TestSetDefaultsResourcePoolStatusRequestSpec(t *testing.T) {
	spec := upstream.ResourcePoolStatusRequestSpec{Driver: "gpu.example.com"}
	kubeapi.SetDefaults_ResourcePoolStatusRequestSpec(&spec)
	if spec.Limit == nil || *spec.Limit != 100 {
		t.Errorf("limit: got %v, want 100", spec.Limit)
	}
	if spec.Driver != "gpu.example.com" || spec.PoolName != nil || spec.DefaultPartitionTypeAttribute != nil {
		t.Errorf("defaulting changed other fields: %#v", spec)
	}

	for _, limit := range []int32{1, 5, 1000, 0} {
		spec := upstream.ResourcePoolStatusRequestSpec{Limit: ptr(limit)}
		kubeapi.SetDefaults_ResourcePoolStatusRequestSpec(&spec)
		if *spec.Limit != limit {
			t.Errorf("a set limit %d became %d", limit, *spec.Limit)
		}
	}
}

// TestLateKindsDefaultsThroughScheme runs the generated defaulters the way
// the scheme calls them.
func TestLateKindsDefaultsThroughScheme(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := kubeapi.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}

	before := time.Now()
	set := metav1.NewTime(time.Date(2020, time.January, 2, 3, 4, 5, 0, time.UTC))
	rules := &upstream.DeviceTaintRuleList{Items: []upstream.DeviceTaintRule{
		{Spec: upstream.DeviceTaintRuleSpec{Taint: upstream.DeviceTaint{Key: "a", Effect: upstream.DeviceTaintEffectNoExecute}}},
		{Spec: upstream.DeviceTaintRuleSpec{Taint: upstream.DeviceTaint{Key: "b", TimeAdded: &set}}},
	}}
	scheme.Default(rules)
	checkStamped(t, rules.Items[0].Spec.Taint.TimeAdded, before, time.Now())
	if got := rules.Items[1].Spec.Taint.TimeAdded; !got.Equal(&set) {
		t.Errorf("a set timeAdded became %v", got)
	}
	if rules.Items[0].Spec.DeviceSelector != nil || rules.Items[0].Status.Conditions != nil {
		t.Errorf("defaulting set more than timeAdded: %#v", rules.Items[0])
	}

	rule := &upstream.DeviceTaintRule{}
	scheme.Default(rule)
	checkStamped(t, rule.Spec.Taint.TimeAdded, before, time.Now())

	requests := &upstream.ResourcePoolStatusRequestList{Items: []upstream.ResourcePoolStatusRequest{
		{Spec: upstream.ResourcePoolStatusRequestSpec{Driver: "d"}},
		{Spec: upstream.ResourcePoolStatusRequestSpec{Driver: "d", Limit: ptr[int32](7)}},
	}}
	scheme.Default(requests)
	if got := requests.Items[0].Spec.Limit; got == nil || *got != 100 {
		t.Errorf("limit: got %v, want 100", got)
	}
	if got := *requests.Items[1].Spec.Limit; got != 7 {
		t.Errorf("a set limit 7 became %d", got)
	}
	if requests.Items[0].Status != nil {
		t.Errorf("defaulting set a status: %#v", requests.Items[0].Status)
	}

	request := &upstream.ResourcePoolStatusRequest{}
	scheme.Default(request)
	if got := request.Spec.Limit; got == nil || *got != 100 {
		t.Errorf("limit: got %v, want 100", got)
	}
}

// TestLateKindsRoundTrip: the late kinds have the hub's shape and convert
// field by field, both ways, without a stash. (The conversion package's
// round trips take them up once the catalogue lists them.)
func TestLateKindsRoundTrip(t *testing.T) {
	scheme := newScheme()
	pairs := []struct{ versioned, hub func() runtime.Object }{
		{func() runtime.Object { return &upstream.DeviceTaintRule{} }, func() runtime.Object { return &resource.DeviceTaintRule{} }},
		{func() runtime.Object { return &upstream.DeviceTaintRuleList{} }, func() runtime.Object { return &resource.DeviceTaintRuleList{} }},
		{func() runtime.Object { return &upstream.ResourcePoolStatusRequest{} }, func() runtime.Object { return &resource.ResourcePoolStatusRequest{} }},
		{func() runtime.Object { return &upstream.ResourcePoolStatusRequestList{} }, func() runtime.Object {
			return &resource.ResourcePoolStatusRequestList{}
		}},
	}
	for i := range fuzzer.Iterations(2000, 200) {
		f := fuzzer.New(int64(i))
		for _, p := range pairs {
			for _, trip := range [][2]func() runtime.Object{{p.versioned, p.hub}, {p.hub, p.versioned}} {
				in, mid, back := trip[0](), trip[1](), trip[0]()
				f.Fill(in)
				in.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
				original := in.DeepCopyObject()
				if err := scheme.Convert(in, mid, nil); err != nil {
					t.Fatalf("%T to %T: %v", in, mid, err)
				}
				if err := scheme.Convert(mid, back, nil); err != nil {
					t.Fatalf("%T to %T: %v", mid, back, err)
				}
				back.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
				if diff := cmp.Diff(original, back); diff != "" {
					t.Fatalf("iteration %d: %T through %T changed (-in +out):\n%s", i, in, mid, diff)
				}
				if diff := cmp.Diff(original, in); diff != "" {
					t.Fatalf("iteration %d: converting %T changed its input:\n%s", i, in, diff)
				}
				if a, err := meta.Accessor(mid); err == nil && a.GetAnnotations()[resource.StashAnnotation] != "" {
					t.Fatalf("iteration %d: %T needed a stash", i, mid)
				}
			}
		}
	}
}

func newScheme() *runtime.Scheme {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	return scheme
}

func ptr[T any](v T) *T { return &v }
