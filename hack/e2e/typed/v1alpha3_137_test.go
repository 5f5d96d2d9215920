package typed

import (
	"testing"

	"k8s.io/client-go/tools/cache"

	rv1 "github.com/drakit/drakit/apis/resource/v1"
	a3 "github.com/drakit/drakit/apis/resource/v1alpha3"
	ac3 "github.com/drakit/drakit/applyconfig/resource/v1alpha3"
	"github.com/drakit/drakit/generated/informers/externalversions"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// TestV1alpha3Later runs the typed-client program for the two kinds that
// v1alpha3 kept after 1.33 and that drakit has in their 1.37 shape:
// DeviceTaintRule (with the status 1.35 added) and ResourcePoolStatusRequest
// (1.36). 1.33 serves an older DeviceTaintRule, which TestStrictFieldNames
// and the drift list cover.
func TestV1alpha3Later(t *testing.T) {
	srv := e2eenv.Get(t)
	srv.RequireServed(t, "v1alpha3")
	if !srv.CatalogueServes("v1alpha3", "ResourcePoolStatusRequest") {
		t.Skipf("kube-apiserver %s serves v1alpha3, but not the 1.36+ kinds drakit's v1alpha3 DeviceTaintRule and ResourcePoolStatusRequest stand for", srv.KubeVersion)
	}
	r := srv.Clientset.ResourceV1alpha3()

	t.Run("DeviceTaintRule", func(t *testing.T) {
		lifecycle(t, srv, "", kindCase[*a3.DeviceTaintRule, *a3.DeviceTaintRuleList, *ac3.DeviceTaintRuleApplyConfiguration]{
			kind: "DeviceTaintRule",
			client: func(string) typedClient[*a3.DeviceTaintRule, *a3.DeviceTaintRuleList, *ac3.DeviceTaintRuleApplyConfiguration] {
				return r.DeviceTaintRules()
			},
			items: func(l *a3.DeviceTaintRuleList) []*a3.DeviceTaintRule { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1alpha3().DeviceTaintRules().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*a3.DeviceTaintRule, error) {
				return f.Resource().V1alpha3().DeviceTaintRules().Lister().Get(name)
			},
			full: func(_, name string) *a3.DeviceTaintRule {
				return in137[*a3.DeviceTaintRule](t, v1TaintRule(t, name), "v1alpha3")
			},
			// The value, not the effect: a changed effect makes the server
			// set timeAdded to now.
			update: func(o *a3.DeviceTaintRule) { o.Spec.Taint.Value = "unplanned" },
			check:  func(o *a3.DeviceTaintRule) bool { return o.Spec.Taint.Value == "unplanned" },
			status: func(o *a3.DeviceTaintRule) {
				o.Status = in137[*a3.DeviceTaintRule](t, &rv1.DeviceTaintRule{Status: v1TaintRuleStatus(t)}, "v1alpha3").Status
			},
			applyField: func(_, name, v string) *ac3.DeviceTaintRuleApplyConfiguration {
				return ac3.DeviceTaintRule(name).WithSpec(ac3.DeviceTaintRuleSpec().WithTaint(ac3.DeviceTaint().WithKey("example.com/" + v)))
			},
			appliedField: func(o *a3.DeviceTaintRule) string { return trimPrefix(o.Spec.Taint.Key, "example.com/") },
			extract:      ac3.ExtractDeviceTaintRule,
		})
	})

	t.Run("ResourcePoolStatusRequest", func(t *testing.T) {
		lifecycle(t, srv, "", kindCase[*a3.ResourcePoolStatusRequest, *a3.ResourcePoolStatusRequestList, *ac3.ResourcePoolStatusRequestApplyConfiguration]{
			kind: "ResourcePoolStatusRequest",
			client: func(string) typedClient[*a3.ResourcePoolStatusRequest, *a3.ResourcePoolStatusRequestList, *ac3.ResourcePoolStatusRequestApplyConfiguration] {
				return r.ResourcePoolStatusRequests()
			},
			items: func(l *a3.ResourcePoolStatusRequestList) []*a3.ResourcePoolStatusRequest { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1alpha3().ResourcePoolStatusRequests().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*a3.ResourcePoolStatusRequest, error) {
				return f.Resource().V1alpha3().ResourcePoolStatusRequests().Lister().Get(name)
			},
			full: func(_, name string) *a3.ResourcePoolStatusRequest {
				return &a3.ResourcePoolStatusRequest{ObjectMeta: meta("", name),
					Spec: fromYAML[a3.ResourcePoolStatusRequestSpec](t, "poolStatusRequestSpec137", poolStatusRequestSpec137)}
			},
			// The spec is immutable; metadata is what an update may change.
			update: func(o *a3.ResourcePoolStatusRequest) { setAnnotation(o, "drakit.io/updated", "yes") },
			check:  func(o *a3.ResourcePoolStatusRequest) bool { return o.Annotations["drakit.io/updated"] == "yes" },
			// Once set, the status is immutable: the status apply of the
			// lifecycle sends the same status again.
			status: func(o *a3.ResourcePoolStatusRequest) {
				s := fromYAML[a3.ResourcePoolStatusRequestStatus](t, "poolStatusRequestStatus137", poolStatusRequestStatus137)
				o.Status = &s
			},
			applyField: func(_, name, v string) *ac3.ResourcePoolStatusRequestApplyConfiguration {
				return ac3.ResourcePoolStatusRequest(name).WithLabels(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *a3.ResourcePoolStatusRequest) string { return o.Labels["drakit.io/owner"] },
			extract:      ac3.ExtractResourcePoolStatusRequest,
		})
	})
}
