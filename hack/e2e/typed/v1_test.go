package typed

import (
	"context"
	"fmt"
	"testing"
	"time"

	"k8s.io/client-go/tools/cache"

	rv1 "github.com/drakit/drakit/apis/resource/v1"
	acv1 "github.com/drakit/drakit/applyconfig/resource/v1"
	"github.com/drakit/drakit/generated/informers/externalversions"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// TestV1 runs the typed-client program for the five kinds kube-apiserver
// 1.37 serves in resource.k8s.io/v1, with objects that set every field 1.37
// stores (objects137_test.go).
func TestV1(t *testing.T) {
	srv := e2eenv.Get(t)
	srv.RequireServed(t, "v1")
	ns := srv.AdminNamespace(t)
	r := srv.Clientset.ResourceV1()

	t.Run("DeviceClass", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*rv1.DeviceClass, *rv1.DeviceClassList, *acv1.DeviceClassApplyConfiguration]{
			kind: "DeviceClass",
			client: func(string) typedClient[*rv1.DeviceClass, *rv1.DeviceClassList, *acv1.DeviceClassApplyConfiguration] {
				return r.DeviceClasses()
			},
			items: func(l *rv1.DeviceClassList) []*rv1.DeviceClass { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1().DeviceClasses().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*rv1.DeviceClass, error) {
				return f.Resource().V1().DeviceClasses().Lister().Get(name)
			},
			full:   func(_, name string) *rv1.DeviceClass { return v1DeviceClass(t, name) },
			update: func(o *rv1.DeviceClass) { o.Spec.Config = nil },
			check:  func(o *rv1.DeviceClass) bool { return len(o.Spec.Config) == 0 },
			applyField: func(_, name, v string) *acv1.DeviceClassApplyConfiguration {
				return acv1.DeviceClass(name).WithSpec(acv1.DeviceClassSpec().WithSelectors(
					acv1.DeviceSelector().WithCEL(acv1.CELDeviceSelector().WithExpression(driverIs(v)))))
			},
			appliedField: func(o *rv1.DeviceClass) string {
				if len(o.Spec.Selectors) != 1 || o.Spec.Selectors[0].CEL == nil {
					return ""
				}
				return driverOf(o.Spec.Selectors[0].CEL.Expression)
			},
			extract: acv1.ExtractDeviceClass,
		})
	})

	t.Run("ResourceClaim", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*rv1.ResourceClaim, *rv1.ResourceClaimList, *acv1.ResourceClaimApplyConfiguration]{
			kind:       "ResourceClaim",
			namespaced: true,
			client: func(ns string) typedClient[*rv1.ResourceClaim, *rv1.ResourceClaimList, *acv1.ResourceClaimApplyConfiguration] {
				return r.ResourceClaims(ns)
			},
			items: func(l *rv1.ResourceClaimList) []*rv1.ResourceClaim { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1().ResourceClaims().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, ns, name string) (*rv1.ResourceClaim, error) {
				return f.Resource().V1().ResourceClaims().Lister().ResourceClaims(ns).Get(name)
			},
			full: func(ns, name string) *rv1.ResourceClaim { return v1Claim(t, ns, name) },
			// The whole spec is immutable; metadata is what an update may change.
			update: func(o *rv1.ResourceClaim) { setAnnotation(o, "drakit.io/updated", "yes") },
			check:  func(o *rv1.ResourceClaim) bool { return o.Annotations["drakit.io/updated"] == "yes" },
			status: func(o *rv1.ResourceClaim) { o.Status = v1ClaimStatus(t) },
			applyField: func(ns, name, v string) *acv1.ResourceClaimApplyConfiguration {
				return acv1.ResourceClaim(name, ns).WithLabels(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *rv1.ResourceClaim) string { return o.Labels["drakit.io/owner"] },
			extract:      acv1.ExtractResourceClaim,
		})
	})

	t.Run("ResourceClaimTemplate", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*rv1.ResourceClaimTemplate, *rv1.ResourceClaimTemplateList, *acv1.ResourceClaimTemplateApplyConfiguration]{
			kind:       "ResourceClaimTemplate",
			namespaced: true,
			client: func(ns string) typedClient[*rv1.ResourceClaimTemplate, *rv1.ResourceClaimTemplateList, *acv1.ResourceClaimTemplateApplyConfiguration] {
				return r.ResourceClaimTemplates(ns)
			},
			items: func(l *rv1.ResourceClaimTemplateList) []*rv1.ResourceClaimTemplate { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1().ResourceClaimTemplates().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, ns, name string) (*rv1.ResourceClaimTemplate, error) {
				return f.Resource().V1().ResourceClaimTemplates().Lister().ResourceClaimTemplates(ns).Get(name)
			},
			full:   func(ns, name string) *rv1.ResourceClaimTemplate { return v1ClaimTemplate(t, ns, name) },
			update: func(o *rv1.ResourceClaimTemplate) { setAnnotation(o, "drakit.io/updated", "yes") },
			check:  func(o *rv1.ResourceClaimTemplate) bool { return o.Annotations["drakit.io/updated"] == "yes" },
			applyField: func(ns, name, v string) *acv1.ResourceClaimTemplateApplyConfiguration {
				return acv1.ResourceClaimTemplate(name, ns).WithLabels(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *rv1.ResourceClaimTemplate) string { return o.Labels["drakit.io/owner"] },
			extract:      acv1.ExtractResourceClaimTemplate,
		})
	})

	// Three slices between them use every field of a slice: one per node
	// with every device field a node-local device may have, and a pool of
	// partitionable devices with its counters in a second slice.
	node := fmt.Sprintf("drakit-e2e-node-%d", time.Now().UnixNano()%1e9)
	v1SliceCase := func(t *testing.T, full func(name string) *rv1.ResourceSlice, labelsOnly bool) kindCase[*rv1.ResourceSlice, *rv1.ResourceSliceList, *acv1.ResourceSliceApplyConfiguration] {
		return kindCase[*rv1.ResourceSlice, *rv1.ResourceSliceList, *acv1.ResourceSliceApplyConfiguration]{
			kind: "ResourceSlice",
			client: func(string) typedClient[*rv1.ResourceSlice, *rv1.ResourceSliceList, *acv1.ResourceSliceApplyConfiguration] {
				return r.ResourceSlices()
			},
			items: func(l *rv1.ResourceSliceList) []*rv1.ResourceSlice { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1().ResourceSlices().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*rv1.ResourceSlice, error) {
				return f.Resource().V1().ResourceSlices().Lister().Get(name)
			},
			full:   func(_, name string) *rv1.ResourceSlice { return full(name) },
			update: func(o *rv1.ResourceSlice) { o.Spec.Pool.Generation++ },
			check:  func(o *rv1.ResourceSlice) bool { return o.Spec.Pool.Generation == 2 },
			applyField: func(_, name, v string) *acv1.ResourceSliceApplyConfiguration {
				if labelsOnly {
					return acv1.ResourceSlice(name).WithLabels(map[string]string{"drakit.io/owner": v})
				}
				return acv1.ResourceSlice(name).WithSpec(acv1.ResourceSliceSpec().WithDevices(acv1.Device().WithName(v)))
			},
			appliedField: func(o *rv1.ResourceSlice) string {
				if labelsOnly {
					return o.Labels["drakit.io/owner"]
				}
				if len(o.Spec.Devices) != 1 {
					return ""
				}
				return o.Spec.Devices[0].Name
			},
			extract: acv1.ExtractResourceSlice,
		}
	}
	t.Run("ResourceSlice", func(t *testing.T) {
		full := func(name string) *rv1.ResourceSlice { return v1Slice(t, "nodeSlice137", nodeSlice137, name, node, "") }
		allocatableNode(t, srv, node, func() error {
			return dryRunCreate(context.Background(), r.ResourceSlices().Create, full("drakit-e2e-probe"))
		})
		lifecycle(t, srv, ns, v1SliceCase(t, full, false))
	})
	t.Run("ResourceSlice with partitions", func(t *testing.T) {
		// The devices list cannot be replaced by one plain device while
		// partitionTypeAttribute is set, so the managers fight over a label.
		lifecycle(t, srv, ns, v1SliceCase(t, func(name string) *rv1.ResourceSlice {
			return v1Slice(t, "partitionSlice137", partitionSlice137, name, "", name)
		}, true))
	})
	t.Run("ResourceSlice with counters", func(t *testing.T) {
		// A slice with shared counters may have no devices.
		lifecycle(t, srv, ns, v1SliceCase(t, func(name string) *rv1.ResourceSlice {
			return v1Slice(t, "counterSlice137", counterSlice137, name, "", name)
		}, true))
	})

	t.Run("DeviceTaintRule", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*rv1.DeviceTaintRule, *rv1.DeviceTaintRuleList, *acv1.DeviceTaintRuleApplyConfiguration]{
			kind: "DeviceTaintRule",
			client: func(string) typedClient[*rv1.DeviceTaintRule, *rv1.DeviceTaintRuleList, *acv1.DeviceTaintRuleApplyConfiguration] {
				return r.DeviceTaintRules()
			},
			items: func(l *rv1.DeviceTaintRuleList) []*rv1.DeviceTaintRule { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1().DeviceTaintRules().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*rv1.DeviceTaintRule, error) {
				return f.Resource().V1().DeviceTaintRules().Lister().Get(name)
			},
			full: func(_, name string) *rv1.DeviceTaintRule { return v1TaintRule(t, name) },
			// The value, not the effect: a changed effect makes the server
			// set timeAdded to now.
			update: func(o *rv1.DeviceTaintRule) { o.Spec.Taint.Value = "unplanned" },
			check:  func(o *rv1.DeviceTaintRule) bool { return o.Spec.Taint.Value == "unplanned" },
			status: func(o *rv1.DeviceTaintRule) { o.Status = v1TaintRuleStatus(t) },
			applyField: func(_, name, v string) *acv1.DeviceTaintRuleApplyConfiguration {
				return acv1.DeviceTaintRule(name).WithSpec(acv1.DeviceTaintRuleSpec().WithTaint(acv1.DeviceTaint().WithKey("example.com/" + v)))
			},
			appliedField: func(o *rv1.DeviceTaintRule) string { return trimPrefix(o.Spec.Taint.Key, "example.com/") },
			extract:      acv1.ExtractDeviceTaintRule,
		})
	})
}

// driverIs and driverOf write and read the CEL selector the DeviceClass
// tests' field managers fight over.
func driverIs(v string) string { return `device.driver == "` + v + `"` }

func driverOf(expr string) string {
	const prefix = `device.driver == "`
	if len(expr) < len(prefix) || expr[:len(prefix)] != prefix {
		return ""
	}
	return trimSuffix(expr[len(prefix):], `"`)
}

func trimPrefix(s, prefix string) string {
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):]
	}
	return s
}
