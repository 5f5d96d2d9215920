package typed

import (
	"context"
	"fmt"
	"testing"
	"time"

	"k8s.io/client-go/tools/cache"

	rv1 "github.com/drakit/drakit/apis/resource/v1"
	rb2 "github.com/drakit/drakit/apis/resource/v1beta2"
	acb2 "github.com/drakit/drakit/applyconfig/resource/v1beta2"
	"github.com/drakit/drakit/generated/informers/externalversions"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// TestV1beta2 runs the typed-client program for the five kinds
// kube-apiserver 1.37 serves in resource.k8s.io/v1beta2. v1beta2 has v1's
// shape, so its objects are v1's (objects137_test.go) under the other
// version, through drakit's conversion, which must not stash anything.
func TestV1beta2(t *testing.T) {
	srv := e2eenv.Get(t)
	srv.RequireServed(t, "v1beta2")
	ns := srv.AdminNamespace(t)
	r := srv.Clientset.ResourceV1beta2()

	t.Run("DeviceClass", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*rb2.DeviceClass, *rb2.DeviceClassList, *acb2.DeviceClassApplyConfiguration]{
			kind: "DeviceClass",
			client: func(string) typedClient[*rb2.DeviceClass, *rb2.DeviceClassList, *acb2.DeviceClassApplyConfiguration] {
				return r.DeviceClasses()
			},
			items: func(l *rb2.DeviceClassList) []*rb2.DeviceClass { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1beta2().DeviceClasses().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*rb2.DeviceClass, error) {
				return f.Resource().V1beta2().DeviceClasses().Lister().Get(name)
			},
			full: func(_, name string) *rb2.DeviceClass {
				return in137[*rb2.DeviceClass](t, v1DeviceClass(t, name), "v1beta2")
			},
			update: func(o *rb2.DeviceClass) { o.Spec.Config = nil },
			check:  func(o *rb2.DeviceClass) bool { return len(o.Spec.Config) == 0 },
			applyField: func(_, name, v string) *acb2.DeviceClassApplyConfiguration {
				return acb2.DeviceClass(name).WithSpec(acb2.DeviceClassSpec().WithSelectors(
					acb2.DeviceSelector().WithCEL(acb2.CELDeviceSelector().WithExpression(driverIs(v)))))
			},
			appliedField: func(o *rb2.DeviceClass) string {
				if len(o.Spec.Selectors) != 1 || o.Spec.Selectors[0].CEL == nil {
					return ""
				}
				return driverOf(o.Spec.Selectors[0].CEL.Expression)
			},
			extract: acb2.ExtractDeviceClass,
		})
	})

	t.Run("ResourceClaim", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*rb2.ResourceClaim, *rb2.ResourceClaimList, *acb2.ResourceClaimApplyConfiguration]{
			kind:       "ResourceClaim",
			namespaced: true,
			client: func(ns string) typedClient[*rb2.ResourceClaim, *rb2.ResourceClaimList, *acb2.ResourceClaimApplyConfiguration] {
				return r.ResourceClaims(ns)
			},
			items: func(l *rb2.ResourceClaimList) []*rb2.ResourceClaim { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1beta2().ResourceClaims().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, ns, name string) (*rb2.ResourceClaim, error) {
				return f.Resource().V1beta2().ResourceClaims().Lister().ResourceClaims(ns).Get(name)
			},
			full: func(ns, name string) *rb2.ResourceClaim {
				return in137[*rb2.ResourceClaim](t, v1Claim(t, ns, name), "v1beta2")
			},
			// The whole spec is immutable; metadata is what an update may change.
			update: func(o *rb2.ResourceClaim) { setAnnotation(o, "drakit.io/updated", "yes") },
			check:  func(o *rb2.ResourceClaim) bool { return o.Annotations["drakit.io/updated"] == "yes" },
			status: func(o *rb2.ResourceClaim) {
				o.Status = in137[*rb2.ResourceClaim](t, &rv1.ResourceClaim{Status: v1ClaimStatus(t)}, "v1beta2").Status
			},
			applyField: func(ns, name, v string) *acb2.ResourceClaimApplyConfiguration {
				return acb2.ResourceClaim(name, ns).WithLabels(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *rb2.ResourceClaim) string { return o.Labels["drakit.io/owner"] },
			extract:      acb2.ExtractResourceClaim,
		})
	})

	t.Run("ResourceClaimTemplate", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*rb2.ResourceClaimTemplate, *rb2.ResourceClaimTemplateList, *acb2.ResourceClaimTemplateApplyConfiguration]{
			kind:       "ResourceClaimTemplate",
			namespaced: true,
			client: func(ns string) typedClient[*rb2.ResourceClaimTemplate, *rb2.ResourceClaimTemplateList, *acb2.ResourceClaimTemplateApplyConfiguration] {
				return r.ResourceClaimTemplates(ns)
			},
			items: func(l *rb2.ResourceClaimTemplateList) []*rb2.ResourceClaimTemplate { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1beta2().ResourceClaimTemplates().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, ns, name string) (*rb2.ResourceClaimTemplate, error) {
				return f.Resource().V1beta2().ResourceClaimTemplates().Lister().ResourceClaimTemplates(ns).Get(name)
			},
			full: func(ns, name string) *rb2.ResourceClaimTemplate {
				return in137[*rb2.ResourceClaimTemplate](t, v1ClaimTemplate(t, ns, name), "v1beta2")
			},
			update: func(o *rb2.ResourceClaimTemplate) { setAnnotation(o, "drakit.io/updated", "yes") },
			check:  func(o *rb2.ResourceClaimTemplate) bool { return o.Annotations["drakit.io/updated"] == "yes" },
			applyField: func(ns, name, v string) *acb2.ResourceClaimTemplateApplyConfiguration {
				return acb2.ResourceClaimTemplate(name, ns).WithLabels(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *rb2.ResourceClaimTemplate) string { return o.Labels["drakit.io/owner"] },
			extract:      acb2.ExtractResourceClaimTemplate,
		})
	})

	// Three slices between them use every field of a slice: one per node
	// with every device field a node-local device may have, and a pool of
	// partitionable devices with its counters in a second slice.
	node := fmt.Sprintf("drakit-e2e-node-%d", time.Now().UnixNano()%1e9)
	sliceCase := func(t *testing.T, full func(name string) *rb2.ResourceSlice, labelsOnly bool) kindCase[*rb2.ResourceSlice, *rb2.ResourceSliceList, *acb2.ResourceSliceApplyConfiguration] {
		return kindCase[*rb2.ResourceSlice, *rb2.ResourceSliceList, *acb2.ResourceSliceApplyConfiguration]{
			kind: "ResourceSlice",
			client: func(string) typedClient[*rb2.ResourceSlice, *rb2.ResourceSliceList, *acb2.ResourceSliceApplyConfiguration] {
				return r.ResourceSlices()
			},
			items: func(l *rb2.ResourceSliceList) []*rb2.ResourceSlice { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1beta2().ResourceSlices().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*rb2.ResourceSlice, error) {
				return f.Resource().V1beta2().ResourceSlices().Lister().Get(name)
			},
			full:   func(_, name string) *rb2.ResourceSlice { return full(name) },
			update: func(o *rb2.ResourceSlice) { o.Spec.Pool.Generation++ },
			check:  func(o *rb2.ResourceSlice) bool { return o.Spec.Pool.Generation == 2 },
			applyField: func(_, name, v string) *acb2.ResourceSliceApplyConfiguration {
				if labelsOnly {
					return acb2.ResourceSlice(name).WithLabels(map[string]string{"drakit.io/owner": v})
				}
				return acb2.ResourceSlice(name).WithSpec(acb2.ResourceSliceSpec().WithDevices(acb2.Device().WithName(v)))
			},
			appliedField: func(o *rb2.ResourceSlice) string {
				if labelsOnly {
					return o.Labels["drakit.io/owner"]
				}
				if len(o.Spec.Devices) != 1 {
					return ""
				}
				return o.Spec.Devices[0].Name
			},
			extract: acb2.ExtractResourceSlice,
		}
	}
	t.Run("ResourceSlice", func(t *testing.T) {
		full := func(name string) *rb2.ResourceSlice {
			return in137[*rb2.ResourceSlice](t, v1Slice(t, "nodeSlice137", nodeSlice137, name, node, ""), "v1beta2")
		}
		allocatableNode(t, srv, node, func() error {
			return dryRunCreate(context.Background(), r.ResourceSlices().Create, full("drakit-e2e-probe"))
		})
		lifecycle(t, srv, ns, sliceCase(t, full, false))
	})
	t.Run("ResourceSlice with partitions", func(t *testing.T) {
		// The devices list cannot be replaced by one plain device while
		// partitionTypeAttribute is set, so the managers fight over a label.
		lifecycle(t, srv, ns, sliceCase(t, func(name string) *rb2.ResourceSlice {
			return in137[*rb2.ResourceSlice](t, v1Slice(t, "partitionSlice137", partitionSlice137, name, "", name), "v1beta2")
		}, true))
	})
	t.Run("ResourceSlice with counters", func(t *testing.T) {
		// A slice with shared counters may have no devices.
		lifecycle(t, srv, ns, sliceCase(t, func(name string) *rb2.ResourceSlice {
			return in137[*rb2.ResourceSlice](t, v1Slice(t, "counterSlice137", counterSlice137, name, "", name), "v1beta2")
		}, true))
	})

	t.Run("DeviceTaintRule", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*rb2.DeviceTaintRule, *rb2.DeviceTaintRuleList, *acb2.DeviceTaintRuleApplyConfiguration]{
			kind: "DeviceTaintRule",
			client: func(string) typedClient[*rb2.DeviceTaintRule, *rb2.DeviceTaintRuleList, *acb2.DeviceTaintRuleApplyConfiguration] {
				return r.DeviceTaintRules()
			},
			items: func(l *rb2.DeviceTaintRuleList) []*rb2.DeviceTaintRule { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1beta2().DeviceTaintRules().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*rb2.DeviceTaintRule, error) {
				return f.Resource().V1beta2().DeviceTaintRules().Lister().Get(name)
			},
			full: func(_, name string) *rb2.DeviceTaintRule {
				return in137[*rb2.DeviceTaintRule](t, v1TaintRule(t, name), "v1beta2")
			},
			// The value, not the effect: a changed effect makes the server
			// set timeAdded to now.
			update: func(o *rb2.DeviceTaintRule) { o.Spec.Taint.Value = "unplanned" },
			check:  func(o *rb2.DeviceTaintRule) bool { return o.Spec.Taint.Value == "unplanned" },
			status: func(o *rb2.DeviceTaintRule) {
				o.Status = in137[*rb2.DeviceTaintRule](t, &rv1.DeviceTaintRule{Status: v1TaintRuleStatus(t)}, "v1beta2").Status
			},
			applyField: func(_, name, v string) *acb2.DeviceTaintRuleApplyConfiguration {
				return acb2.DeviceTaintRule(name).WithSpec(acb2.DeviceTaintRuleSpec().WithTaint(acb2.DeviceTaint().WithKey("example.com/" + v)))
			},
			appliedField: func(o *rb2.DeviceTaintRule) string { return trimPrefix(o.Spec.Taint.Key, "example.com/") },
			extract:      acb2.ExtractDeviceTaintRule,
		})
	})
}
