package typed

import (
	"context"
	"fmt"
	"testing"
	"time"

	"k8s.io/client-go/tools/cache"

	rv1 "github.com/drakit/drakit/apis/resource/v1"
	rb1 "github.com/drakit/drakit/apis/resource/v1beta1"
	acb1 "github.com/drakit/drakit/applyconfig/resource/v1beta1"
	"github.com/drakit/drakit/generated/informers/externalversions"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// TestV1beta1 runs the typed-client program for the four kinds
// kube-apiserver 1.37 serves in resource.k8s.io/v1beta1 (it has no
// DeviceTaintRule). Its objects are v1's (objects137_test.go) converted
// with drakit's conversion, which must not stash anything: v1beta1 says
// everything v1 says, with requests flat instead of under exactly and
// device fields under basic.
func TestV1beta1(t *testing.T) {
	srv := e2eenv.Get(t)
	srv.RequireServed(t, "v1beta1")
	ns := srv.AdminNamespace(t)
	r := srv.Clientset.ResourceV1beta1()

	t.Run("DeviceClass", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*rb1.DeviceClass, *rb1.DeviceClassList, *acb1.DeviceClassApplyConfiguration]{
			kind: "DeviceClass",
			client: func(string) typedClient[*rb1.DeviceClass, *rb1.DeviceClassList, *acb1.DeviceClassApplyConfiguration] {
				return r.DeviceClasses()
			},
			items: func(l *rb1.DeviceClassList) []*rb1.DeviceClass { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1beta1().DeviceClasses().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*rb1.DeviceClass, error) {
				return f.Resource().V1beta1().DeviceClasses().Lister().Get(name)
			},
			full: func(_, name string) *rb1.DeviceClass {
				return in137[*rb1.DeviceClass](t, v1DeviceClass(t, name), "v1beta1")
			},
			update: func(o *rb1.DeviceClass) { o.Spec.Config = nil },
			check:  func(o *rb1.DeviceClass) bool { return len(o.Spec.Config) == 0 },
			applyField: func(_, name, v string) *acb1.DeviceClassApplyConfiguration {
				return acb1.DeviceClass(name).WithSpec(acb1.DeviceClassSpec().WithSelectors(
					acb1.DeviceSelector().WithCEL(acb1.CELDeviceSelector().WithExpression(driverIs(v)))))
			},
			appliedField: func(o *rb1.DeviceClass) string {
				if len(o.Spec.Selectors) != 1 || o.Spec.Selectors[0].CEL == nil {
					return ""
				}
				return driverOf(o.Spec.Selectors[0].CEL.Expression)
			},
			extract: acb1.ExtractDeviceClass,
		})
	})

	t.Run("ResourceClaim", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*rb1.ResourceClaim, *rb1.ResourceClaimList, *acb1.ResourceClaimApplyConfiguration]{
			kind:       "ResourceClaim",
			namespaced: true,
			client: func(ns string) typedClient[*rb1.ResourceClaim, *rb1.ResourceClaimList, *acb1.ResourceClaimApplyConfiguration] {
				return r.ResourceClaims(ns)
			},
			items: func(l *rb1.ResourceClaimList) []*rb1.ResourceClaim { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1beta1().ResourceClaims().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, ns, name string) (*rb1.ResourceClaim, error) {
				return f.Resource().V1beta1().ResourceClaims().Lister().ResourceClaims(ns).Get(name)
			},
			full: func(ns, name string) *rb1.ResourceClaim {
				return in137[*rb1.ResourceClaim](t, v1Claim(t, ns, name), "v1beta1")
			},
			// The whole spec is immutable; metadata is what an update may change.
			update: func(o *rb1.ResourceClaim) { setAnnotation(o, "drakit.io/updated", "yes") },
			check:  func(o *rb1.ResourceClaim) bool { return o.Annotations["drakit.io/updated"] == "yes" },
			status: func(o *rb1.ResourceClaim) {
				o.Status = in137[*rb1.ResourceClaim](t, &rv1.ResourceClaim{Status: v1ClaimStatus(t)}, "v1beta1").Status
			},
			applyField: func(ns, name, v string) *acb1.ResourceClaimApplyConfiguration {
				return acb1.ResourceClaim(name, ns).WithLabels(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *rb1.ResourceClaim) string { return o.Labels["drakit.io/owner"] },
			extract:      acb1.ExtractResourceClaim,
		})
	})

	t.Run("ResourceClaimTemplate", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*rb1.ResourceClaimTemplate, *rb1.ResourceClaimTemplateList, *acb1.ResourceClaimTemplateApplyConfiguration]{
			kind:       "ResourceClaimTemplate",
			namespaced: true,
			client: func(ns string) typedClient[*rb1.ResourceClaimTemplate, *rb1.ResourceClaimTemplateList, *acb1.ResourceClaimTemplateApplyConfiguration] {
				return r.ResourceClaimTemplates(ns)
			},
			items: func(l *rb1.ResourceClaimTemplateList) []*rb1.ResourceClaimTemplate { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1beta1().ResourceClaimTemplates().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, ns, name string) (*rb1.ResourceClaimTemplate, error) {
				return f.Resource().V1beta1().ResourceClaimTemplates().Lister().ResourceClaimTemplates(ns).Get(name)
			},
			full: func(ns, name string) *rb1.ResourceClaimTemplate {
				return in137[*rb1.ResourceClaimTemplate](t, v1ClaimTemplate(t, ns, name), "v1beta1")
			},
			update: func(o *rb1.ResourceClaimTemplate) { setAnnotation(o, "drakit.io/updated", "yes") },
			check:  func(o *rb1.ResourceClaimTemplate) bool { return o.Annotations["drakit.io/updated"] == "yes" },
			applyField: func(ns, name, v string) *acb1.ResourceClaimTemplateApplyConfiguration {
				return acb1.ResourceClaimTemplate(name, ns).WithLabels(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *rb1.ResourceClaimTemplate) string { return o.Labels["drakit.io/owner"] },
			extract:      acb1.ExtractResourceClaimTemplate,
		})
	})

	// Three slices between them use every field of a slice: one per node
	// with every device field a node-local device may have, and a pool of
	// partitionable devices with its counters in a second slice.
	node := fmt.Sprintf("drakit-e2e-node-%d", time.Now().UnixNano()%1e9)
	sliceCase := func(t *testing.T, full func(name string) *rb1.ResourceSlice, labelsOnly bool) kindCase[*rb1.ResourceSlice, *rb1.ResourceSliceList, *acb1.ResourceSliceApplyConfiguration] {
		return kindCase[*rb1.ResourceSlice, *rb1.ResourceSliceList, *acb1.ResourceSliceApplyConfiguration]{
			kind: "ResourceSlice",
			client: func(string) typedClient[*rb1.ResourceSlice, *rb1.ResourceSliceList, *acb1.ResourceSliceApplyConfiguration] {
				return r.ResourceSlices()
			},
			items: func(l *rb1.ResourceSliceList) []*rb1.ResourceSlice { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1beta1().ResourceSlices().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*rb1.ResourceSlice, error) {
				return f.Resource().V1beta1().ResourceSlices().Lister().Get(name)
			},
			full:   func(_, name string) *rb1.ResourceSlice { return full(name) },
			update: func(o *rb1.ResourceSlice) { o.Spec.Pool.Generation++ },
			check:  func(o *rb1.ResourceSlice) bool { return o.Spec.Pool.Generation == 2 },
			applyField: func(_, name, v string) *acb1.ResourceSliceApplyConfiguration {
				if labelsOnly {
					return acb1.ResourceSlice(name).WithLabels(map[string]string{"drakit.io/owner": v})
				}
				// With basic: 1.37 keeps devices in its internal (v1) shape
				// and writes every v1beta1 device back with basic, so Extract
				// would report basic: {} for a device applied without it.
				return acb1.ResourceSlice(name).WithSpec(acb1.ResourceSliceSpec().WithDevices(acb1.Device().WithName(v).WithBasic(acb1.BasicDevice())))
			},
			appliedField: func(o *rb1.ResourceSlice) string {
				if labelsOnly {
					return o.Labels["drakit.io/owner"]
				}
				if len(o.Spec.Devices) != 1 {
					return ""
				}
				return o.Spec.Devices[0].Name
			},
			extract: acb1.ExtractResourceSlice,
		}
	}
	t.Run("ResourceSlice", func(t *testing.T) {
		full := func(name string) *rb1.ResourceSlice {
			return in137[*rb1.ResourceSlice](t, v1Slice(t, "nodeSlice137", nodeSlice137, name, node, ""), "v1beta1")
		}
		allocatableNode(t, srv, node, func() error {
			return dryRunCreate(context.Background(), r.ResourceSlices().Create, full("drakit-e2e-probe"))
		})
		lifecycle(t, srv, ns, sliceCase(t, full, false))
	})
	t.Run("ResourceSlice with partitions", func(t *testing.T) {
		// The devices list cannot be replaced by one plain device while
		// partitionTypeAttribute is set, so the managers fight over a label.
		lifecycle(t, srv, ns, sliceCase(t, func(name string) *rb1.ResourceSlice {
			return in137[*rb1.ResourceSlice](t, v1Slice(t, "partitionSlice137", partitionSlice137, name, "", name), "v1beta1")
		}, true))
	})
	t.Run("ResourceSlice with counters", func(t *testing.T) {
		// A slice with shared counters may have no devices.
		lifecycle(t, srv, ns, sliceCase(t, func(name string) *rb1.ResourceSlice {
			return in137[*rb1.ResourceSlice](t, v1Slice(t, "counterSlice137", counterSlice137, name, "", name), "v1beta1")
		}, true))
	})
}
