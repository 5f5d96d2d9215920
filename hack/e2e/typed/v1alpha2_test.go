package typed

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	a2 "github.com/drakit/drakit/apis/resource/v1alpha2"
	ac2 "github.com/drakit/drakit/applyconfig/resource/v1alpha2"
	"github.com/drakit/drakit/generated/informers/externalversions"
	"github.com/drakit/drakit/hack/e2e/internal/e2eenv"
)

// TestV1alpha2 runs the typed-client program for all seven kinds that
// kube-apiserver 1.30 serves in resource.k8s.io/v1alpha2.
func TestV1alpha2(t *testing.T) {
	srv := e2eenv.Get(t)
	srv.RequireVersion(t, "v1alpha2")
	ns := srv.Namespace(t)
	r := srv.Clientset.ResourceV1alpha2()

	t.Run("ResourceClass", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*a2.ResourceClass, *a2.ResourceClassList, *ac2.ResourceClassApplyConfiguration]{
			kind: "ResourceClass",
			client: func(string) typedClient[*a2.ResourceClass, *a2.ResourceClassList, *ac2.ResourceClassApplyConfiguration] {
				return r.ResourceClasses()
			},
			items: func(l *a2.ResourceClassList) []*a2.ResourceClass { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1alpha2().ResourceClasses().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*a2.ResourceClass, error) {
				return f.Resource().V1alpha2().ResourceClasses().Lister().Get(name)
			},
			full: func(_, name string) *a2.ResourceClass {
				return &a2.ResourceClass{
					ObjectMeta: meta("", name),
					DriverName: "gpu.example.com",
					ParametersRef: &a2.ResourceClassParametersReference{
						APIGroup: "gpu.example.com", Kind: "ClassParameters", Name: "defaults", Namespace: "kube-system",
					},
					SuitableNodes:        nodeSelector("node-1"),
					StructuredParameters: ptr.To(true),
				}
			},
			update: func(o *a2.ResourceClass) { o.SuitableNodes = nodeSelector("node-2") },
			check: func(o *a2.ResourceClass) bool {
				return o.SuitableNodes != nil && o.SuitableNodes.NodeSelectorTerms[0].MatchExpressions[0].Values[0] == "node-2"
			},
			applyField: func(_, name, v string) *ac2.ResourceClassApplyConfiguration {
				return ac2.ResourceClass(name).WithDriverName(v + ".example.com")
			},
			appliedField: func(o *a2.ResourceClass) string { return trimSuffix(o.DriverName, ".example.com") },
			extract:      ac2.ExtractResourceClass,
		})
	})

	t.Run("ResourceClaim", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*a2.ResourceClaim, *a2.ResourceClaimList, *ac2.ResourceClaimApplyConfiguration]{
			kind:       "ResourceClaim",
			namespaced: true,
			client: func(ns string) typedClient[*a2.ResourceClaim, *a2.ResourceClaimList, *ac2.ResourceClaimApplyConfiguration] {
				return r.ResourceClaims(ns)
			},
			items: func(l *a2.ResourceClaimList) []*a2.ResourceClaim { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1alpha2().ResourceClaims().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, ns, name string) (*a2.ResourceClaim, error) {
				return f.Resource().V1alpha2().ResourceClaims().Lister().ResourceClaims(ns).Get(name)
			},
			full: func(ns, name string) *a2.ResourceClaim {
				return &a2.ResourceClaim{ObjectMeta: meta(ns, name), Spec: claimSpecV1alpha2()}
			},
			// The whole spec is immutable; metadata is what an update may change.
			update: func(o *a2.ResourceClaim) { setAnnotation(o, "drakit.io/updated", "yes") },
			check:  func(o *a2.ResourceClaim) bool { return o.Annotations["drakit.io/updated"] == "yes" },
			status: func(o *a2.ResourceClaim) {
				o.Status = a2.ResourceClaimStatus{
					DriverName: "gpu.example.com",
					Allocation: &a2.AllocationResult{
						ResourceHandles: []a2.ResourceHandle{
							{DriverName: "gpu.example.com", Data: `{"gpu":"0"}`},
							{DriverName: "nic.example.com", StructuredData: &a2.StructuredResourceHandle{
								VendorClassParameters: raw(`{"class":1}`),
								VendorClaimParameters: raw(`{"claim":2}`),
								NodeName:              "node-1",
								Results: []a2.DriverAllocationResult{{
									VendorRequestParameters: raw(`{"request":3}`),
									AllocationResultModel:   a2.AllocationResultModel{NamedResources: &a2.NamedResourcesAllocationResult{Name: "nic-0"}},
								}},
							}},
						},
						AvailableOnNodes: nodeSelector("node-1"),
						Shareable:        true,
					},
					ReservedFor: []a2.ResourceClaimConsumerReference{
						{Resource: "pods", Name: "pod-a", UID: "11111111-2222-3333-4444-555555555555"},
						{APIGroup: "example.com", Resource: "jobs", Name: "job-b", UID: "22222222-2222-3333-4444-555555555555"},
					},
				}
			},
			applyField: func(ns, name, v string) *ac2.ResourceClaimApplyConfiguration {
				return ac2.ResourceClaim(name, ns).WithLabels(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *a2.ResourceClaim) string { return o.Labels["drakit.io/owner"] },
			extract:      ac2.ExtractResourceClaim,
		})
	})

	t.Run("ResourceClaimTemplate", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*a2.ResourceClaimTemplate, *a2.ResourceClaimTemplateList, *ac2.ResourceClaimTemplateApplyConfiguration]{
			kind:       "ResourceClaimTemplate",
			namespaced: true,
			client: func(ns string) typedClient[*a2.ResourceClaimTemplate, *a2.ResourceClaimTemplateList, *ac2.ResourceClaimTemplateApplyConfiguration] {
				return r.ResourceClaimTemplates(ns)
			},
			items: func(l *a2.ResourceClaimTemplateList) []*a2.ResourceClaimTemplate { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1alpha2().ResourceClaimTemplates().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, ns, name string) (*a2.ResourceClaimTemplate, error) {
				return f.Resource().V1alpha2().ResourceClaimTemplates().Lister().ResourceClaimTemplates(ns).Get(name)
			},
			full: func(ns, name string) *a2.ResourceClaimTemplate {
				return &a2.ResourceClaimTemplate{
					ObjectMeta: meta(ns, name),
					Spec: a2.ResourceClaimTemplateSpec{
						ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"claim": "from-template"}, Annotations: map[string]string{"note": "x"}},
						Spec:       claimSpecV1alpha2(),
					},
				}
			},
			update: func(o *a2.ResourceClaimTemplate) { setAnnotation(o, "drakit.io/updated", "yes") },
			check:  func(o *a2.ResourceClaimTemplate) bool { return o.Annotations["drakit.io/updated"] == "yes" },
			applyField: func(ns, name, v string) *ac2.ResourceClaimTemplateApplyConfiguration {
				return ac2.ResourceClaimTemplate(name, ns).WithLabels(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *a2.ResourceClaimTemplate) string { return o.Labels["drakit.io/owner"] },
			extract:      ac2.ExtractResourceClaimTemplate,
		})
	})

	t.Run("PodSchedulingContext", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*a2.PodSchedulingContext, *a2.PodSchedulingContextList, *ac2.PodSchedulingContextApplyConfiguration]{
			kind:       "PodSchedulingContext",
			namespaced: true,
			client: func(ns string) typedClient[*a2.PodSchedulingContext, *a2.PodSchedulingContextList, *ac2.PodSchedulingContextApplyConfiguration] {
				return r.PodSchedulingContexts(ns)
			},
			items: func(l *a2.PodSchedulingContextList) []*a2.PodSchedulingContext { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1alpha2().PodSchedulingContexts().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, ns, name string) (*a2.PodSchedulingContext, error) {
				return f.Resource().V1alpha2().PodSchedulingContexts().Lister().PodSchedulingContexts(ns).Get(name)
			},
			full: func(ns, name string) *a2.PodSchedulingContext {
				return &a2.PodSchedulingContext{
					ObjectMeta: meta(ns, name),
					Spec:       a2.PodSchedulingContextSpec{SelectedNode: "node-1", PotentialNodes: []string{"node-1", "node-2"}},
				}
			},
			update: func(o *a2.PodSchedulingContext) { o.Spec.PotentialNodes = append(o.Spec.PotentialNodes, "node-3") },
			check:  func(o *a2.PodSchedulingContext) bool { return len(o.Spec.PotentialNodes) == 3 },
			status: func(o *a2.PodSchedulingContext) {
				o.Status.ResourceClaims = []a2.ResourceClaimSchedulingStatus{
					{Name: "gpu", UnsuitableNodes: []string{"node-2"}},
					{Name: "nic"},
				}
			},
			applyField: func(ns, name, v string) *ac2.PodSchedulingContextApplyConfiguration {
				return ac2.PodSchedulingContext(name, ns).WithSpec(ac2.PodSchedulingContextSpec().WithSelectedNode(v))
			},
			appliedField: func(o *a2.PodSchedulingContext) string { return o.Spec.SelectedNode },
			extract:      ac2.ExtractPodSchedulingContext,
		})
	})

	t.Run("ResourceSlice", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*a2.ResourceSlice, *a2.ResourceSliceList, *ac2.ResourceSliceApplyConfiguration]{
			kind: "ResourceSlice",
			client: func(string) typedClient[*a2.ResourceSlice, *a2.ResourceSliceList, *ac2.ResourceSliceApplyConfiguration] {
				return r.ResourceSlices()
			},
			items: func(l *a2.ResourceSliceList) []*a2.ResourceSlice { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1alpha2().ResourceSlices().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, _, name string) (*a2.ResourceSlice, error) {
				return f.Resource().V1alpha2().ResourceSlices().Lister().Get(name)
			},
			full: func(_, name string) *a2.ResourceSlice {
				return &a2.ResourceSlice{
					ObjectMeta: meta("", name),
					NodeName:   "node-1",
					DriverName: "gpu.example.com",
					ResourceModel: a2.ResourceModel{NamedResources: &a2.NamedResourcesResources{
						Instances: []a2.NamedResourcesInstance{
							{Name: "gpu-0", Attributes: []a2.NamedResourcesAttribute{
								{Name: "memory", NamedResourcesAttributeValue: a2.NamedResourcesAttributeValue{QuantityValue: ptr.To(apiresource.MustParse("16Gi"))}},
								{Name: "healthy", NamedResourcesAttributeValue: a2.NamedResourcesAttributeValue{BoolValue: ptr.To(true)}},
								{Name: "index", NamedResourcesAttributeValue: a2.NamedResourcesAttributeValue{IntValue: ptr.To[int64](0)}},
								{Name: "numa", NamedResourcesAttributeValue: a2.NamedResourcesAttributeValue{IntSliceValue: &a2.NamedResourcesIntSlice{Ints: []int64{0, 1}}}},
								{Name: "model", NamedResourcesAttributeValue: a2.NamedResourcesAttributeValue{StringValue: ptr.To("a100")}},
								{Name: "features", NamedResourcesAttributeValue: a2.NamedResourcesAttributeValue{StringSliceValue: &a2.NamedResourcesStringSlice{Strings: []string{"mig", "nvlink"}}}},
								{Name: "driver-version", NamedResourcesAttributeValue: a2.NamedResourcesAttributeValue{VersionValue: ptr.To("1.2.3")}},
							}},
							{Name: "gpu-1"},
						},
					}},
				}
			},
			update: func(o *a2.ResourceSlice) {
				o.NamedResources.Instances = append(o.NamedResources.Instances, a2.NamedResourcesInstance{Name: "gpu-2"})
			},
			check: func(o *a2.ResourceSlice) bool {
				return o.NamedResources != nil && len(o.NamedResources.Instances) == 3
			},
			applyField: func(_, name, v string) *ac2.ResourceSliceApplyConfiguration {
				return ac2.ResourceSlice(name).WithAnnotations(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *a2.ResourceSlice) string { return o.Annotations["drakit.io/owner"] },
			extract:      ac2.ExtractResourceSlice,
		})
	})

	t.Run("ResourceClaimParameters", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*a2.ResourceClaimParameters, *a2.ResourceClaimParametersList, *ac2.ResourceClaimParametersApplyConfiguration]{
			kind:       "ResourceClaimParameters",
			namespaced: true,
			client: func(ns string) typedClient[*a2.ResourceClaimParameters, *a2.ResourceClaimParametersList, *ac2.ResourceClaimParametersApplyConfiguration] {
				return r.ResourceClaimParameters(ns)
			},
			items: func(l *a2.ResourceClaimParametersList) []*a2.ResourceClaimParameters { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1alpha2().ResourceClaimParameters().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, ns, name string) (*a2.ResourceClaimParameters, error) {
				return f.Resource().V1alpha2().ResourceClaimParameters().Lister().ResourceClaimParameters(ns).Get(name)
			},
			full: func(ns, name string) *a2.ResourceClaimParameters {
				return &a2.ResourceClaimParameters{
					ObjectMeta:    meta(ns, name),
					GeneratedFrom: &a2.ResourceClaimParametersReference{APIGroup: "gpu.example.com", Kind: "ClaimParameters", Name: "two-gpus"},
					Shareable:     true,
					DriverRequests: []a2.DriverRequests{{
						DriverName:       "gpu.example.com",
						VendorParameters: raw(`{"driver":"settings"}`),
						Requests: []a2.ResourceRequest{{
							VendorParameters:     raw(`{"per":"request"}`),
							ResourceRequestModel: a2.ResourceRequestModel{NamedResources: &a2.NamedResourcesRequest{Selector: `attributes.quantity["memory"].isGreaterThan(quantity("8Gi"))`}},
						}},
					}},
				}
			},
			update: func(o *a2.ResourceClaimParameters) { o.Shareable = false },
			check:  func(o *a2.ResourceClaimParameters) bool { return !o.Shareable },
			applyField: func(ns, name, v string) *ac2.ResourceClaimParametersApplyConfiguration {
				return ac2.ResourceClaimParameters(name, ns).WithLabels(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *a2.ResourceClaimParameters) string { return o.Labels["drakit.io/owner"] },
			extract:      ac2.ExtractResourceClaimParameters,
		})
	})

	t.Run("ResourceClassParameters", func(t *testing.T) {
		lifecycle(t, srv, ns, kindCase[*a2.ResourceClassParameters, *a2.ResourceClassParametersList, *ac2.ResourceClassParametersApplyConfiguration]{
			kind:       "ResourceClassParameters",
			namespaced: true,
			client: func(ns string) typedClient[*a2.ResourceClassParameters, *a2.ResourceClassParametersList, *ac2.ResourceClassParametersApplyConfiguration] {
				return r.ResourceClassParameters(ns)
			},
			items: func(l *a2.ResourceClassParametersList) []*a2.ResourceClassParameters { return ptrs(l.Items) },
			informer: func(f externalversions.SharedInformerFactory) cache.SharedIndexInformer {
				return f.Resource().V1alpha2().ResourceClassParameters().Informer()
			},
			get: func(f externalversions.SharedInformerFactory, ns, name string) (*a2.ResourceClassParameters, error) {
				return f.Resource().V1alpha2().ResourceClassParameters().Lister().ResourceClassParameters(ns).Get(name)
			},
			full: func(ns, name string) *a2.ResourceClassParameters {
				return &a2.ResourceClassParameters{
					ObjectMeta:    meta(ns, name),
					GeneratedFrom: &a2.ResourceClassParametersReference{APIGroup: "gpu.example.com", Kind: "ClassParameters", Name: "defaults", Namespace: ns},
					VendorParameters: []a2.VendorParameters{
						{DriverName: "gpu.example.com", Parameters: raw(`{"mode":"shared"}`)},
					},
					Filters: []a2.ResourceFilter{{
						DriverName:          "gpu.example.com",
						ResourceFilterModel: a2.ResourceFilterModel{NamedResources: &a2.NamedResourcesFilter{Selector: `attributes.bool["healthy"]`}},
					}},
				}
			},
			update: func(o *a2.ResourceClassParameters) { o.Filters = nil },
			check:  func(o *a2.ResourceClassParameters) bool { return len(o.Filters) == 0 },
			applyField: func(ns, name, v string) *ac2.ResourceClassParametersApplyConfiguration {
				return ac2.ResourceClassParameters(name, ns).WithLabels(map[string]string{"drakit.io/owner": v})
			},
			appliedField: func(o *a2.ResourceClassParameters) string { return o.Labels["drakit.io/owner"] },
			extract:      ac2.ExtractResourceClassParameters,
		})
	})
}

func claimSpecV1alpha2() a2.ResourceClaimSpec {
	return a2.ResourceClaimSpec{
		ResourceClassName: "gpu",
		ParametersRef:     &a2.ResourceClaimParametersReference{APIGroup: "gpu.example.com", Kind: "ClaimParameters", Name: "two-gpus"},
		AllocationMode:    a2.AllocationModeImmediate,
	}
}

func meta(ns, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name: name, Namespace: ns,
		Labels:      map[string]string{"app": "drakit-e2e"},
		Annotations: map[string]string{"drakit.io/note": "written by the typed client"},
	}
}

func nodeSelector(node string) *corev1.NodeSelector {
	return &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
		MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "kubernetes.io/hostname", Operator: corev1.NodeSelectorOpIn, Values: []string{node}}},
		MatchFields:      []corev1.NodeSelectorRequirement{{Key: "metadata.name", Operator: corev1.NodeSelectorOpIn, Values: []string{node}}},
	}}}
}

func raw(s string) runtime.RawExtension { return runtime.RawExtension{Raw: []byte(s)} }

func setAnnotation(o metav1.Object, k, v string) {
	a := o.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[k] = v
	o.SetAnnotations(a)
}

func ptrs[T any](items []T) []*T {
	out := make([]*T, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out
}

func trimSuffix(s, suffix string) string {
	if len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix {
		return s[:len(s)-len(suffix)]
	}
	return s
}
