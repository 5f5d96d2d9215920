package v1alpha3_test

import (
	"encoding/json"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	upstream "k8s.io/api/resource/v1alpha3"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
	"github.com/drakit/drakit/internal/apitest"
	"github.com/drakit/drakit/internal/fuzzer"
)

// lateKinds are the kinds resource.k8s.io/v1alpha3 served after 1.31, in
// their 1.37 shape, each with drakit's and k8s.io/api v0.37.2's type.
var lateKinds = map[string]struct{ ours, theirs func() any }{
	"DeviceTaintRule": {
		func() any { return &v1alpha3.DeviceTaintRule{} },
		func() any { return &upstream.DeviceTaintRule{} },
	},
	"DeviceTaintRuleList": {
		func() any { return &v1alpha3.DeviceTaintRuleList{} },
		func() any { return &upstream.DeviceTaintRuleList{} },
	},
	"ResourcePoolStatusRequest": {
		func() any { return &v1alpha3.ResourcePoolStatusRequest{} },
		func() any { return &upstream.ResourcePoolStatusRequest{} },
	},
	"ResourcePoolStatusRequestList": {
		func() any { return &v1alpha3.ResourcePoolStatusRequestList{} },
		func() any { return &upstream.ResourcePoolStatusRequestList{} },
	},
}

// TestLateKindsSameJSON checks the late kinds against k8s.io/api v0.37.2
// in both directions.
func TestLateKindsSameJSON(t *testing.T) {
	for kind, k := range lateKinds {
		t.Run(kind, func(t *testing.T) {
			apitest.SameJSON(t, k.ours, k.theirs, fuzzer.Iterations(300, 40))
		})
	}
}

// TestLateKindsCoverUpstream requires a SameJSON check for every kind
// k8s.io/api v0.37.2 registers for v1alpha3, so that a kind upstream has
// and drakit lacks (or forgets to check) fails here.
func TestLateKindsCoverUpstream(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := upstream.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	want := apitest.OwnKinds(scheme, upstream.SchemeGroupVersion, &upstream.DeviceTaintRule{})
	var got []string
	for kind := range lateKinds {
		got = append(got, kind)
	}
	sort.Strings(got)
	if len(want) == 0 {
		t.Fatal("k8s.io/api registers no v1alpha3 kind")
	}
	if diff := apitest.DiffPaths(got, want); diff != "" {
		t.Errorf("late kinds checked by SameJSON differ from k8s.io/api's v1alpha3 kinds:\n%s", diff)
	}
}

// TestLateKindsEmptyJSON pins the members an empty object writes: the
// non-pointer spec, taint and status are always there, the taint's key
// and effect are never left out, and a list's nil items is null.
func TestLateKindsEmptyJSON(t *testing.T) {
	for _, tc := range []struct {
		obj  any
		want string
	}{
		{&v1alpha3.DeviceTaintRule{}, `{"metadata":{},"spec":{"taint":{"key":"","effect":""}},"status":{}}`},
		{&v1alpha3.DeviceTaintRuleList{}, `{"metadata":{},"items":null}`},
		{&v1alpha3.ResourcePoolStatusRequest{}, `{"metadata":{},"spec":{"driver":""}}`},
		{&v1alpha3.ResourcePoolStatusRequestList{}, `{"metadata":{},"items":null}`},
		{&v1alpha3.PoolStatus{}, `{"generation":0}`},
	} {
		data, err := json.Marshal(tc.obj)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != tc.want {
			t.Errorf("%T: got %s, want %s", tc.obj, data, tc.want)
		}
	}
}

func TestDeviceTaintString(t *testing.T) {
	for _, tc := range []struct {
		taint v1alpha3.DeviceTaint
		want  string
	}{
		{v1alpha3.DeviceTaint{Key: "k"}, "k"},
		{v1alpha3.DeviceTaint{Key: "k", Value: "v"}, "k=v:"},
		{v1alpha3.DeviceTaint{Key: "k", Effect: v1alpha3.DeviceTaintEffectNoExecute}, "k:NoExecute"},
		{v1alpha3.DeviceTaint{Key: "k", Value: "v", Effect: v1alpha3.DeviceTaintEffectNone}, "k=v:None"},
	} {
		if got := tc.taint.String(); got != tc.want {
			t.Errorf("%#v: got %q, want %q", tc.taint, got, tc.want)
		}
	}
}

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
	taint := v1alpha3.DeviceTaint{Key: "k", Effect: v1alpha3.DeviceTaintEffectNoSchedule}
	v1alpha3.SetDefaults_DeviceTaint(&taint)
	checkStamped(t, taint.TimeAdded, before, time.Now())
	if taint.Key != "k" || taint.Value != "" || taint.Effect != v1alpha3.DeviceTaintEffectNoSchedule {
		t.Errorf("defaulting changed other fields: %#v", taint)
	}

	set := metav1.NewTime(time.Date(2020, time.January, 2, 3, 4, 5, 600, time.UTC))
	taint = v1alpha3.DeviceTaint{Key: "k", TimeAdded: &set}
	v1alpha3.SetDefaults_DeviceTaint(&taint)
	if taint.TimeAdded != &set || !taint.TimeAdded.Equal(&set) {
		t.Errorf("a set timeAdded was replaced: %v", taint.TimeAdded)
	}
}

func TestSetDefaultsResourcePoolStatusRequestSpec(t *testing.T) {
	spec := v1alpha3.ResourcePoolStatusRequestSpec{Driver: "gpu.example.com"}
	v1alpha3.SetDefaults_ResourcePoolStatusRequestSpec(&spec)
	if spec.Limit == nil || *spec.Limit != 100 {
		t.Errorf("limit: got %v, want 100", spec.Limit)
	}
	if spec.Driver != "gpu.example.com" || spec.PoolName != nil || spec.DefaultPartitionTypeAttribute != nil {
		t.Errorf("defaulting changed other fields: %#v", spec)
	}

	for _, limit := range []int32{1, 5, 1000, 0} {
		spec := v1alpha3.ResourcePoolStatusRequestSpec{Limit: ptr(limit)}
		v1alpha3.SetDefaults_ResourcePoolStatusRequestSpec(&spec)
		if *spec.Limit != limit {
			t.Errorf("a set limit %d became %d", limit, *spec.Limit)
		}
	}
}

// TestLateKindsDefaultsThroughScheme runs the generated defaulters the way
// the scheme calls them.
func TestLateKindsDefaultsThroughScheme(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := v1alpha3.AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}

	before := time.Now()
	set := metav1.NewTime(time.Date(2020, time.January, 2, 3, 4, 5, 0, time.UTC))
	rules := &v1alpha3.DeviceTaintRuleList{Items: []v1alpha3.DeviceTaintRule{
		{Spec: v1alpha3.DeviceTaintRuleSpec{Taint: v1alpha3.DeviceTaint{Key: "a", Effect: v1alpha3.DeviceTaintEffectNoExecute}}},
		{Spec: v1alpha3.DeviceTaintRuleSpec{Taint: v1alpha3.DeviceTaint{Key: "b", TimeAdded: &set}}},
	}}
	scheme.Default(rules)
	checkStamped(t, rules.Items[0].Spec.Taint.TimeAdded, before, time.Now())
	if got := rules.Items[1].Spec.Taint.TimeAdded; !got.Equal(&set) {
		t.Errorf("a set timeAdded became %v", got)
	}
	if rules.Items[0].Spec.DeviceSelector != nil || rules.Items[0].Status.Conditions != nil {
		t.Errorf("defaulting set more than timeAdded: %#v", rules.Items[0])
	}

	rule := &v1alpha3.DeviceTaintRule{}
	scheme.Default(rule)
	checkStamped(t, rule.Spec.Taint.TimeAdded, before, time.Now())

	requests := &v1alpha3.ResourcePoolStatusRequestList{Items: []v1alpha3.ResourcePoolStatusRequest{
		{Spec: v1alpha3.ResourcePoolStatusRequestSpec{Driver: "d"}},
		{Spec: v1alpha3.ResourcePoolStatusRequestSpec{Driver: "d", Limit: ptr[int32](7)}},
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

	request := &v1alpha3.ResourcePoolStatusRequest{}
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
		{func() runtime.Object { return &v1alpha3.DeviceTaintRule{} }, func() runtime.Object { return &resource.DeviceTaintRule{} }},
		{func() runtime.Object { return &v1alpha3.DeviceTaintRuleList{} }, func() runtime.Object { return &resource.DeviceTaintRuleList{} }},
		{func() runtime.Object { return &v1alpha3.ResourcePoolStatusRequest{} }, func() runtime.Object { return &resource.ResourcePoolStatusRequest{} }},
		{func() runtime.Object { return &v1alpha3.ResourcePoolStatusRequestList{} }, func() runtime.Object {
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
