package validation

import (
	"encoding/json"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/v1alpha1"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

func TestObjectMetadata(t *testing.T) {
	claim := func(m func(*metav1.ObjectMeta)) *v1alpha3.ResourceClaim {
		return a3Claim(func(c *v1alpha3.ResourceClaim) { m(&c.ObjectMeta) })
	}
	class := func(m func(*metav1.ObjectMeta)) *v1alpha3.DeviceClass {
		return a3Class(func(c *v1alpha3.DeviceClass) { m(&c.ObjectMeta) })
	}
	runCases(t, []ruleCase{
		{name: "labels", obj: claim(func(m *metav1.ObjectMeta) { m.Labels = map[string]string{"app": "demo", "bad key": "x"} }),
			want: []string{"Invalid metadata.labels"}},
		{name: "label value", obj: claim(func(m *metav1.ObjectMeta) { m.Labels = map[string]string{"app": strings.Repeat("v", 64)} }),
			want: []string{"Invalid metadata.labels"}},
		{name: "annotation key", obj: claim(func(m *metav1.ObjectMeta) { m.Annotations = map[string]string{"-x": "y"} }),
			want: []string{"Invalid metadata.annotations"}},
		{name: "annotations over 256KiB", obj: claim(func(m *metav1.ObjectMeta) { m.Annotations = map[string]string{"x": strings.Repeat("v", 256*1024)} }),
			want: []string{"TooLong metadata.annotations"}},
		{name: "standard and qualified finalizers", obj: claim(func(m *metav1.ObjectMeta) {
			m.Finalizers = []string{"kubernetes", "orphan", v1alpha3.Finalizer}
		})},
		{name: "unqualified finalizer", obj: claim(func(m *metav1.ObjectMeta) { m.Finalizers = []string{"protect"} }),
			want: []string{"Invalid metadata.finalizers[0]"}},
		{name: "malformed finalizer", obj: claim(func(m *metav1.ObjectMeta) { m.Finalizers = []string{"example.com/a b"} }),
			want: []string{"Invalid metadata.finalizers"}},
		{name: "orphan and foreground", obj: claim(func(m *metav1.ObjectMeta) { m.Finalizers = []string{"orphan", "foregroundDeletion"} }),
			want: []string{"Invalid metadata.finalizers"}},
		{name: "owner reference", obj: claim(func(m *metav1.ObjectMeta) {
			m.OwnerReferences = []metav1.OwnerReference{{Kind: "Pod", Name: "pod-1", UID: "u"}}
		}), // Object metadata is checked by apimachinery's rules of the
			// current line (v0.37), which report the missing apiVersion as
			// Required at its index; 1.30 said Invalid, without the index.
			want: []string{"Required metadata.ownerReferences[0].apiVersion"}},
		{name: "negative generation", obj: claim(func(m *metav1.ObjectMeta) { m.Generation = -1 }), want: []string{"Invalid metadata.generation"}},
		{name: "bad namespace", obj: claim(func(m *metav1.ObjectMeta) { m.Namespace = "Team_A" }), want: []string{"Invalid metadata.namespace"}},
		{name: "name over 253 bytes", obj: claim(func(m *metav1.ObjectMeta) { m.Name = strings.Repeat("n", 254) }), want: []string{"Invalid metadata.name"}},
		{name: "long generateName is truncated", obj: claim(func(m *metav1.ObjectMeta) { m.Name, m.GenerateName = "", strings.Repeat("g", 100) })},
		{name: "generateName over 253 bytes", obj: claim(func(m *metav1.ObjectMeta) { m.Name, m.GenerateName = "", strings.Repeat("g", 254) }),
			want: []string{"Invalid metadata.generateName"}},
		{name: "invalid managedFields are the server's business", obj: claim(func(m *metav1.ObjectMeta) {
			m.ManagedFields = []metav1.ManagedFieldsEntry{{Operation: "Bogus"}}
		})},
		{name: "cluster-scoped: namespace dropped", obj: class(func(m *metav1.ObjectMeta) { m.Namespace = "Not Valid" })},

		{name: "update: uid", op: opUpdate, old: a3Claim(func(c *v1alpha3.ResourceClaim) { c.UID = "a" }),
			obj: claim(func(m *metav1.ObjectMeta) { m.UID = "b" }), want: []string{"Invalid metadata.uid"}},
		{name: "update: uid omitted", op: opUpdate, old: a3Claim(func(c *v1alpha3.ResourceClaim) { c.UID = "a" }), obj: a3Claim()},
		{name: "update: namespace", op: opUpdate, old: a3Claim(),
			obj: claim(func(m *metav1.ObjectMeta) { m.Namespace = "other" }), want: []string{"Invalid metadata.namespace"}},
		{name: "update: namespace omitted", op: opUpdate, old: a3Claim(), obj: claim(func(m *metav1.ObjectMeta) { m.Namespace = "" })},
		{name: "update: name with a slash", op: opUpdate, old: a3Claim(),
			obj: claim(func(m *metav1.ObjectMeta) { m.Name = "a/b" }), want: []string{"Invalid metadata.name"}},
		{name: "update: no new finalizer while deleting", op: opUpdate,
			old: a3Claim(func(c *v1alpha3.ResourceClaim) { c.DeletionTimestamp = &deletedAt; c.Finalizers = []string{"a.io/x"} }),
			obj: claim(func(m *metav1.ObjectMeta) { m.Finalizers = []string{"a.io/x", "b.io/y"} }), want: []string{"Forbidden metadata.finalizers"}},
		{name: "update: finalizer removed while deleting", op: opUpdate,
			old: a3Claim(func(c *v1alpha3.ResourceClaim) { c.DeletionTimestamp = &deletedAt; c.Finalizers = []string{"a.io/x"} }),
			obj: a3Claim()},
		{name: "update: creation timestamp is the stored one", op: opUpdate,
			old: a3Claim(func(c *v1alpha3.ResourceClaim) { c.CreationTimestamp = deletedAt }), obj: a3Claim()},
		{name: "update: generation is the stored one", op: opUpdate, old: a3Claim(func(c *v1alpha3.ResourceClaim) { c.Generation = 4 }),
			obj: claim(func(m *metav1.ObjectMeta) { m.Generation = 1 })},
	})
}

func TestNodeSelectorRules(t *testing.T) {
	slice := func(terms ...corev1.NodeSelectorTerm) *v1alpha3.ResourceSlice {
		return a3Slice(func(s *v1alpha3.ResourceSlice) {
			s.Spec.NodeName = ""
			s.Spec.NodeSelector = &corev1.NodeSelector{NodeSelectorTerms: terms}
		})
	}
	expr := func(reqs ...corev1.NodeSelectorRequirement) corev1.NodeSelectorTerm {
		return corev1.NodeSelectorTerm{MatchExpressions: reqs}
	}
	fields := func(reqs ...corev1.NodeSelectorRequirement) corev1.NodeSelectorTerm {
		return corev1.NodeSelectorTerm{MatchFields: reqs}
	}
	const p = "spec.nodeSelector.nodeSelectorTerms[0]."
	runCases(t, []ruleCase{
		{name: "every operator", obj: slice(expr(
			corev1.NodeSelectorRequirement{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}},
			corev1.NodeSelectorRequirement{Key: "zone", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"b"}},
			corev1.NodeSelectorRequirement{Key: "example.com/gpu", Operator: corev1.NodeSelectorOpExists},
			corev1.NodeSelectorRequirement{Key: "spot", Operator: corev1.NodeSelectorOpDoesNotExist},
			corev1.NodeSelectorRequirement{Key: "cores", Operator: corev1.NodeSelectorOpGt, Values: []string{"4"}},
			corev1.NodeSelectorRequirement{Key: "cores", Operator: corev1.NodeSelectorOpLt, Values: []string{"64"}},
		))},
		{name: "an empty term", obj: slice(corev1.NodeSelectorTerm{})},
		{name: "values by operator", obj: slice(expr(
			corev1.NodeSelectorRequirement{Key: "a", Operator: corev1.NodeSelectorOpNotIn},
			corev1.NodeSelectorRequirement{Key: "a", Operator: corev1.NodeSelectorOpExists, Values: []string{"x"}},
			corev1.NodeSelectorRequirement{Key: "a", Operator: corev1.NodeSelectorOpLt, Values: []string{"1", "2"}},
			corev1.NodeSelectorRequirement{Key: "a", Operator: "Equals"},
			corev1.NodeSelectorRequirement{Key: "-a", Operator: corev1.NodeSelectorOpExists},
		)), want: []string{
			"Required " + p + "matchExpressions[0].values",
			"Forbidden " + p + "matchExpressions[1].values",
			"Required " + p + "matchExpressions[2].values",
			"Invalid " + p + "matchExpressions[3].operator",
			"Invalid " + p + "matchExpressions[4].key",
		}},
		{name: "match fields", obj: slice(fields(
			corev1.NodeSelectorRequirement{Key: "metadata.name", Operator: corev1.NodeSelectorOpNotIn, Values: []string{"node-1"}},
			corev1.NodeSelectorRequirement{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"a", "b"}},
			corev1.NodeSelectorRequirement{Key: "metadata.name", Operator: corev1.NodeSelectorOpExists},
			corev1.NodeSelectorRequirement{Key: "spec.unschedulable", Operator: corev1.NodeSelectorOpIn, Values: []string{"x"}},
			corev1.NodeSelectorRequirement{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{"Node"}},
		)), want: []string{
			"Required " + p + "matchFields[1].values",
			"Invalid " + p + "matchFields[2].operator",
			"Invalid " + p + "matchFields[3].key",
			"Invalid " + p + "matchFields[4].values[0]",
		}},
	})
}

func TestDriverNameRule(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		strict      bool
		want        []string
	}{
		{name: "valid", value: "dra.example.com"},
		{name: "single label", value: "dra"},
		{name: "63 bytes", value: strings.Repeat("a", 63)},
		{name: "64 bytes", value: strings.Repeat("a", 64), want: []string{"TooLong driverName"}},
		{name: "empty", value: "", want: []string{"Required driverName", "Invalid driverName"}},
		{name: "underscore", value: "dra_example.com", want: []string{"Invalid driverName"}},
		{name: "trailing dot", value: "dra.", want: []string{"Invalid driverName"}},
		{name: "upper case (quirk)", value: "DRA.Example.com"},
		{name: "upper case, strict", value: "DRA.Example.com", strict: true, want: []string{"Invalid driverName"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &checker{opts: Options{Strict: tc.strict}, release: "1.26"}
			expectErrors(t, c.validateDriverName(tc.value, field.NewPath("driverName")), tc.want...)
		})
	}
}

func TestSemverPattern(t *testing.T) {
	for v, ok := range map[string]bool{
		"0.0.0": true, "1.2.3": true, "10.20.30": true, "1.2.3-rc.1": true, "1.2.3-0": true, "1.2.3-alpha-1": true,
		"1.2.3-0a": true, "1.2.3+build.1": true, "1.2.3-rc.1+build.001": true, "1.2.3--": true,
		"": false, "1.2": false, "v1.2.3": false, "01.2.3": false, "1.02.3": false, "1.2.03": false, "1.2.3-01": false,
		"1.2.3-": false, "1.2.3+": false, "1.2.3-rc..1": false, "1.2.3+a+b": false, "1.2.3 ": false, "1.2.3-é": false,
	} {
		if got := semverPattern.MatchString(v); got != ok {
			t.Errorf("semver %q: got %v, want %v", v, got, ok)
		}
	}
}

func TestDispatch(t *testing.T) {
	t.Run("nil", func(t *testing.T) {
		expectErrors(t, ValidateObject(nil, Options{}), "Required <nil>")
		expectErrors(t, ValidateObject((*v1alpha3.ResourceClaim)(nil), Options{}), "Required <nil>")
		expectErrors(t, ValidateObjectUpdate(a3Claim(), nil, Options{}), "Required <nil>")
	})
	t.Run("hub objects are not validated", func(t *testing.T) {
		expectErrors(t, ValidateObject(&resource.ResourceClaim{}, Options{}), "Invalid kind")
	})
	t.Run("kind mismatch", func(t *testing.T) {
		expectErrors(t, ValidateObjectUpdate(a3Claim(), a2Claim(), Options{}), "Invalid kind")
	})
	t.Run("no status subresource", func(t *testing.T) {
		expectErrors(t, ValidateObjectStatusUpdate(a3Class(), a3Class(), Options{}), "NotFound status")
	})
	t.Run("the caller's objects are not modified", func(t *testing.T) {
		obj := a3Claim(func(c *v1alpha3.ResourceClaim) {
			c.Namespace = ""
			c.Spec.Devices.Requests[0].AllocationMode = ""
			c.Status.ReservedFor = []v1alpha3.ResourceClaimConsumerReference{pod1a3}
		})
		before := obj.DeepCopy()
		ValidateObject(obj, Options{})
		if !semanticEqual(obj, before) {
			t.Errorf("ValidateObject modified its argument")
		}
		old := a3Claim()
		oldBefore := old.DeepCopy()
		ValidateObjectStatusUpdate(obj, old, Options{})
		if !semanticEqual(obj, before) || !semanticEqual(old, oldBefore) {
			t.Errorf("ValidateObjectStatusUpdate modified its arguments")
		}
	})
	t.Run("typed list", func(t *testing.T) {
		list := &v1alpha3.ResourceClaimList{Items: []v1alpha3.ResourceClaim{*a3Claim(), *a3Claim(func(c *v1alpha3.ResourceClaim) { c.Name = "X" })}}
		expectErrors(t, ValidateObject(list, Options{}), "Invalid items[1].metadata.name")
	})
	t.Run("typed list update", func(t *testing.T) {
		list := &v1alpha1.ResourceClassList{Items: []v1alpha1.ResourceClass{*a1Class(), *a1Class(func(c *v1alpha1.ResourceClass) { c.Name = "other" })}}
		old := &v1alpha1.ResourceClassList{Items: []v1alpha1.ResourceClass{*a1Class(), *a1Class()}}
		expectErrors(t, ValidateObjectUpdate(list, old, Options{}), "Invalid items[1].metadata.name")
		expectErrors(t, ValidateObjectUpdate(list, &v1alpha1.ResourceClassList{}, Options{}), "Invalid items")
	})
	t.Run("v1 List with raw items", func(t *testing.T) {
		good, _ := json.Marshal(map[string]any{"apiVersion": "resource.k8s.io/v1alpha2", "kind": "ResourceClass", "metadata": map[string]any{"name": "c"}, "driverName": "d.example.com"})
		bad, _ := json.Marshal(map[string]any{"apiVersion": "resource.k8s.io/v1alpha2", "kind": "ResourceSlice", "metadata": map[string]any{"name": "s"}, "driverName": "d.example.com"})
		list := &metav1.List{Items: []runtime.RawExtension{{Raw: good}, {Object: a2Class()}, {Raw: bad}}}
		expectErrors(t, ValidateObject(list, Options{}), "Required items[2]")
		broken := &metav1.List{Items: []runtime.RawExtension{{Raw: []byte(`{"kind":`)}}}
		expectErrors(t, ValidateObject(broken, Options{}), "Invalid items")
	})
	t.Run("unstructured", func(t *testing.T) {
		u := &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "resource.k8s.io/v1alpha3", "kind": "DeviceClass",
			"metadata": map[string]any{"name": "gpu"},
			"spec":     map[string]any{"config": []any{map[string]any{}}},
		}}
		expectErrors(t, ValidateObject(u, Options{}), "Required spec.config[0].opaque")
		u.Object["spec"] = map[string]any{"colour": "blue"}
		expectErrors(t, ValidateObject(u, Options{}), "Invalid kind")
		u.Object["apiVersion"] = "resource.k8s.io/v1beta1"
		expectErrors(t, ValidateObject(u, Options{}), "Invalid kind")
	})
	t.Run("each error once", func(t *testing.T) {
		// The server reports an invalid label of an update four times.
		old := a2Claim()
		obj := a2Claim(func(c *v1alpha2.ResourceClaim) { c.Labels = map[string]string{"-": "x"} })
		errs := ValidateObjectUpdate(obj, old, Options{})
		if len(errs) != 1 {
			t.Errorf("want one error, got %v", errs)
		}
	})
}

func TestErrorMessages(t *testing.T) {
	// The wording of the releases, where these validators build the error.
	errs := ValidateObject(a3Claim(func(c *v1alpha3.ResourceClaim) { c.Spec.Devices = v1alpha3.DeviceClaim{Requests: requestsA3(33)} }), Options{})
	if len(errs) != 1 || errs[0].Detail != "may not be longer than 32" {
		t.Errorf("list too long: %v", errs)
	}
	errs = ValidateObject(a1Class(func(c *v1alpha1.ResourceClass) { c.DriverName = strings.Repeat("a", 64) }), Options{})
	if len(errs) != 1 || errs[0].Detail != "must have at most 63 bytes" {
		t.Errorf("driver name too long: %v", errs)
	}
	errs = ValidateObject(a3Claim(func(c *v1alpha3.ResourceClaim) { c.Spec.Devices.Requests[0].AllocationMode = "x" }), Options{})
	if len(errs) != 1 || errs[0].Detail != `supported values: "All", "ExactCount"` {
		t.Errorf("not supported: %v", errs)
	}
}
