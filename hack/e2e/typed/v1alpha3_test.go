package typed

import (
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	a3 "github.com/drakit/drakit/apis/resource/v1alpha3"
	ac3 "github.com/drakit/drakit/applyconfig/resource/v1alpha3"
	"github.com/drakit/drakit/generated/informers/externalversions"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// TestV1alpha3 runs the typed-client program for the kinds kube-apiserver
// 1.33 serves in resource.k8s.io/v1alpha3. drakit's v1alpha3 is the 1.31
// shape; 1.32 dropped PodSchedulingContext and the fields of classic DRA
// (spec.controller, status.allocation.controller,
// status.deallocationRequested, DeviceClass spec.suitableNodes) from it, so
// the objects here leave those out; TestStrictFieldNames lists them.
func TestV1alpha3(t *testing.T) {
	srv := e2eenv.Get(t)
	srv.RequireVersion(t, "v1alpha3")
	ns := srv.Namespace(t)
	r := srv.Clientset.ResourceV1alpha3()

	t.Run("DeviceClass", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*a3.DeviceClass, *a3.DeviceClassList, *ac3.DeviceClassApplyConfiguration]{
			kind: "DeviceClass",
			client: func(string) typedClient[*a3.DeviceClass, *a3.DeviceClassList, *ac3.DeviceClassApplyConfiguration] {
				return r.DeviceClasses()
			},
			items: func(l *a3.DeviceClassList) []*a3.DeviceClass { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1alpha3().DeviceClasses().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*a3.DeviceClass, error) {
				return f.Resource().V1alpha3().DeviceClasses().Lister().Get(name)
			},
			full: func(_, name string) *a3.DeviceClass {
				return &a3.DeviceClass{
					ObjectMeta: meta("", name),
					Spec: a3.DeviceClassSpec{
						Selectors: []a3.DeviceSelector{
							{CEL: &a3.CELDeviceSelector{Expression: `device.driver == "gpu.example.com"`}},
							{CEL: &a3.CELDeviceSelector{Expression: `device.attributes["gpu.example.com"].model == "a100"`}},
						},
						Config: []a3.DeviceClassConfiguration{{DeviceConfiguration: a3.DeviceConfiguration{
							Opaque: &a3.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: raw(`{"sharing":"time-slicing"}`)},
						}}},
					},
				}
			},
			update: func(o *a3.DeviceClass) { o.Spec.Config = nil },
			check:  func(o *a3.DeviceClass) bool { return len(o.Spec.Config) == 0 },
			applyField: func(_, name, v string) *ac3.DeviceClassApplyConfiguration {
				return ac3.DeviceClass(name).WithSpec(ac3.DeviceClassSpec().WithSelectors(
					ac3.DeviceSelector().WithCEL(ac3.CELDeviceSelector().WithExpression(`device.driver == "` + v + `"`))))
			},
			appliedField: func(o *a3.DeviceClass) string {
				if len(o.Spec.Selectors) != 1 || o.Spec.Selectors[0].CEL == nil {
					return ""
				}
				e := o.Spec.Selectors[0].CEL.Expression
				return trimSuffix(e[len(`device.driver == "`):], `"`)
			},
			extract: ac3.ExtractDeviceClass,
		})
	})

	t.Run("ResourceClaim", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*a3.ResourceClaim, *a3.ResourceClaimList, *ac3.ResourceClaimApplyConfiguration]{
			kind:       "ResourceClaim",
			namespaced: true,
			client: func(ns string) typedClient[*a3.ResourceClaim, *a3.ResourceClaimList, *ac3.ResourceClaimApplyConfiguration] {
				return r.ResourceClaims(ns)
			},
			items: func(l *a3.ResourceClaimList) []*a3.ResourceClaim { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1alpha3().ResourceClaims().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, ns, name string) (*a3.ResourceClaim, error) {
				return f.Resource().V1alpha3().ResourceClaims().Lister().ResourceClaims(ns).Get(name)
			},
			full: func(ns, name string) *a3.ResourceClaim {
				return &a3.ResourceClaim{ObjectMeta: meta(ns, name), Spec: claimSpecV1alpha3()}
			},
			update: func(o *a3.ResourceClaim) { setAnnotation(o, "drakit.io/updated", "yes") },
			check:  func(o *a3.ResourceClaim) bool { return o.Annotations["drakit.io/updated"] == "yes" },
			status: func(o *a3.ResourceClaim) {
				o.Status = a3.ResourceClaimStatus{
					Allocation: &a3.AllocationResult{
						Devices: a3.DeviceAllocationResult{
							Results: []a3.DeviceRequestAllocationResult{
								{Request: "gpus", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-0"},
								{Request: "gpus", Driver: "gpu.example.com", Pool: "node-1", Device: "gpu-1"},
								{Request: "nic", Driver: "nic.example.com", Pool: "rack-1", Device: "nic-0"},
							},
							Config: []a3.DeviceAllocationConfiguration{
								{Source: a3.AllocationConfigSourceClass, DeviceConfiguration: a3.DeviceConfiguration{
									Opaque: &a3.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: raw(`{"from":"class"}`)}}},
								{Source: a3.AllocationConfigSourceClaim, Requests: []string{"gpus"}, DeviceConfiguration: a3.DeviceConfiguration{
									Opaque: &a3.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: raw(`{"from":"claim"}`)}}},
							},
						},
						NodeSelector: nodeSelector("node-1"),
					},
					ReservedFor: []a3.ResourceClaimConsumerReference{
						{Resource: "pods", Name: "pod-a", UID: "11111111-2222-3333-4444-555555555555"},
					},
				}
			},
			applyField: func(ns, name, v string) *ac3.ResourceClaimApplyConfiguration {
				return ac3.ResourceClaim(name, ns).WithLabels(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *a3.ResourceClaim) string { return o.Labels["drakit.io/owner"] },
			extract:      ac3.ExtractResourceClaim,
		})
	})

	t.Run("ResourceClaimTemplate", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*a3.ResourceClaimTemplate, *a3.ResourceClaimTemplateList, *ac3.ResourceClaimTemplateApplyConfiguration]{
			kind:       "ResourceClaimTemplate",
			namespaced: true,
			client: func(ns string) typedClient[*a3.ResourceClaimTemplate, *a3.ResourceClaimTemplateList, *ac3.ResourceClaimTemplateApplyConfiguration] {
				return r.ResourceClaimTemplates(ns)
			},
			items: func(l *a3.ResourceClaimTemplateList) []*a3.ResourceClaimTemplate { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1alpha3().ResourceClaimTemplates().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, ns, name string) (*a3.ResourceClaimTemplate, error) {
				return f.Resource().V1alpha3().ResourceClaimTemplates().Lister().ResourceClaimTemplates(ns).Get(name)
			},
			full: func(ns, name string) *a3.ResourceClaimTemplate {
				return &a3.ResourceClaimTemplate{
					ObjectMeta: meta(ns, name),
					Spec: a3.ResourceClaimTemplateSpec{
						ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"claim": "from-template"}},
						Spec:       claimSpecV1alpha3(),
					},
				}
			},
			update: func(o *a3.ResourceClaimTemplate) { setAnnotation(o, "drakit.io/updated", "yes") },
			check:  func(o *a3.ResourceClaimTemplate) bool { return o.Annotations["drakit.io/updated"] == "yes" },
			applyField: func(ns, name, v string) *ac3.ResourceClaimTemplateApplyConfiguration {
				return ac3.ResourceClaimTemplate(name, ns).WithLabels(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *a3.ResourceClaimTemplate) string { return o.Labels["drakit.io/owner"] },
			extract:      ac3.ExtractResourceClaimTemplate,
		})
	})

	t.Run("ResourceSlice", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*a3.ResourceSlice, *a3.ResourceSliceList, *ac3.ResourceSliceApplyConfiguration]{
			kind: "ResourceSlice",
			client: func(string) typedClient[*a3.ResourceSlice, *a3.ResourceSliceList, *ac3.ResourceSliceApplyConfiguration] {
				return r.ResourceSlices()
			},
			items: func(l *a3.ResourceSliceList) []*a3.ResourceSlice { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1alpha3().ResourceSlices().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*a3.ResourceSlice, error) {
				return f.Resource().V1alpha3().ResourceSlices().Lister().Get(name)
			},
			full: func(_, name string) *a3.ResourceSlice {
				return &a3.ResourceSlice{
					ObjectMeta: meta("", name),
					Spec: a3.ResourceSliceSpec{
						Driver:   "gpu.example.com",
						Pool:     a3.ResourcePool{Name: "node-1", Generation: 3, ResourceSliceCount: 2},
						NodeName: "node-1",
						Devices: []a3.Device{
							{Name: "gpu-0", Basic: &a3.BasicDevice{
								Attributes: map[a3.QualifiedName]a3.DeviceAttribute{
									"model":                  {StringValue: ptr.To("a100")},
									"index":                  {IntValue: ptr.To[int64](0)},
									"healthy":                {BoolValue: ptr.To(true)},
									"gpu.example.com/driver": {VersionValue: ptr.To("1.2.3")},
								},
								Capacity: map[a3.QualifiedName]apiresource.Quantity{"memory": apiresource.MustParse("16Gi")},
							}},
							{Name: "gpu-1", Basic: &a3.BasicDevice{}},
						},
					},
				}
			},
			update: func(o *a3.ResourceSlice) { o.Spec.Pool.Generation++ },
			check:  func(o *a3.ResourceSlice) bool { return o.Spec.Pool.Generation == 4 },
			applyField: func(_, name, v string) *ac3.ResourceSliceApplyConfiguration {
				// With basic set: 1.33 keeps devices in its internal (1.33)
				// shape and writes every v1alpha3 device back with `basic`,
				// empty or not, so Extract would report `basic: {}` for a
				// device applied without it (drift.SliceDeviceBasicAlwaysSet).
				return ac3.ResourceSlice(name).WithSpec(ac3.ResourceSliceSpec().WithDevices(ac3.Device().WithName(v).WithBasic(ac3.BasicDevice())))
			},
			appliedField: func(o *a3.ResourceSlice) string {
				if len(o.Spec.Devices) != 1 {
					return ""
				}
				return o.Spec.Devices[0].Name
			},
			extract: ac3.ExtractResourceSlice,
		})
	})

	// 1.32 removed PodSchedulingContext together with classic DRA; drakit's
	// v1alpha3 (1.31) still has it, so the typed client exists but the
	// server must not list the resource.
	t.Run("PodSchedulingContext is not served", func(t *testing.T) {
		if srv.Minor() < 32 {
			t.Skipf("kube-apiserver %s still serves PodSchedulingContext", srv.KubeVersion)
		}
		list, err := srv.Discovery.ServerResourcesForGroupVersion("resource.k8s.io/v1alpha3")
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range list.APIResources {
			if r.Name == "podschedulingcontexts" {
				t.Fatalf("kube-apiserver %s serves podschedulingcontexts in v1alpha3; the e2e suite assumes it does not", srv.KubeVersion)
			}
		}
	})
}

func claimSpecV1alpha3() a3.ResourceClaimSpec {
	return a3.ResourceClaimSpec{Devices: a3.DeviceClaim{
		Requests: []a3.DeviceRequest{
			{
				Name: "gpus", DeviceClassName: "gpu",
				Selectors:      []a3.DeviceSelector{{CEL: &a3.CELDeviceSelector{Expression: `device.capacity["gpu.example.com"].memory.compareTo(quantity("8Gi")) >= 0`}}},
				AllocationMode: a3.DeviceAllocationModeExactCount, Count: 2,
			},
			{Name: "nic", DeviceClassName: "nic", AllocationMode: a3.DeviceAllocationModeAll},
		},
		Constraints: []a3.DeviceConstraint{{Requests: []string{"gpus", "nic"}, MatchAttribute: ptr.To(a3.FullyQualifiedName("example.com/numa"))}},
		Config: []a3.DeviceClaimConfiguration{{
			Requests:            []string{"gpus"},
			DeviceConfiguration: a3.DeviceConfiguration{Opaque: &a3.OpaqueDeviceConfiguration{Driver: "gpu.example.com", Parameters: raw(`{"mig":"1g.5gb"}`)}},
		}},
	}}
}
