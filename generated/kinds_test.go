// Hand-written (not generated): the table of kinds that clients_test.go
// checks; the kinds of v1alpha1 and v1alpha2, and v1alpha3's in their 1.31
// shape: the kinds whose types drakit owns (client-go has the others).
package generated_test

import (
	"strconv"
	"strings"

	r1 "github.com/drakit/drakit/apis/resource/v1alpha1"
	r2 "github.com/drakit/drakit/apis/resource/v1alpha2"
	r3 "github.com/drakit/drakit/apis/resource/v1alpha3"
	ac1 "github.com/drakit/drakit/applyconfig/resource/v1alpha1"
	ac2 "github.com/drakit/drakit/applyconfig/resource/v1alpha2"
	ac3 "github.com/drakit/drakit/applyconfig/resource/v1alpha3"
	"github.com/drakit/drakit/generated/clientset/versioned/fake"
	tc1 "github.com/drakit/drakit/generated/clientset/versioned/typed/resource/v1alpha1"
	tc2 "github.com/drakit/drakit/generated/clientset/versioned/typed/resource/v1alpha2"
	tc3 "github.com/drakit/drakit/generated/clientset/versioned/typed/resource/v1alpha3"
	informers "github.com/drakit/drakit/generated/informers/externalversions"
)

// kinds is the table: every kind of drakit's own types, in the catalogue's order.
var kinds = alphaKinds

// Probes (see kind): a spec field of each kind.
var alphaKinds = []kindTest{
	// v1alpha1
	kind[*r1.ResourceClass, *r1.ResourceClassList, *ac1.ResourceClassApplyConfiguration, tc1.ResourceClassInterface]{
		version: "v1alpha1", kind: "ResourceClass",
		client: func(cs *fake.Clientset, _ string) tc1.ResourceClassInterface {
			return cs.ResourceV1alpha1().ResourceClasses()
		},
		newObject: func() *r1.ResourceClass { return &r1.ResourceClass{} },
		probe:     func(o *r1.ResourceClass) string { return o.DriverName },
		setProbe:  func(o *r1.ResourceClass, v string) { o.DriverName = v },
		apply: func(name, _, v string) *ac1.ResourceClassApplyConfiguration {
			return ac1.ResourceClass(name).WithDriverName(v)
		},
		extract:        ac1.ExtractResourceClass,
		extractedProbe: func(a *ac1.ResourceClassApplyConfiguration) *string { return a.DriverName },
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r1.ResourceClass] {
			l := f.Resource().V1alpha1().ResourceClasses().Lister()
			return listerFuncs[*r1.ResourceClass]{l.List, func(_, n string) (*r1.ResourceClass, error) { return l.Get(n) }}
		},
	},
	kind[*r1.ResourceClaim, *r1.ResourceClaimList, *ac1.ResourceClaimApplyConfiguration, tc1.ResourceClaimInterface]{
		version: "v1alpha1", kind: "ResourceClaim", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tc1.ResourceClaimInterface {
			return cs.ResourceV1alpha1().ResourceClaims(ns)
		},
		newObject: func() *r1.ResourceClaim {
			return &r1.ResourceClaim{Spec: r1.ResourceClaimSpec{AllocationMode: r1.AllocationModeWaitForFirstConsumer}}
		},
		probe:    func(o *r1.ResourceClaim) string { return o.Spec.ResourceClassName },
		setProbe: func(o *r1.ResourceClaim, v string) { o.Spec.ResourceClassName = v },
		setStatus: func(o *r1.ResourceClaim) {
			o.Status.DriverName = "driver.example.com"
			o.Status.Allocation = &r1.AllocationResult{}
			o.Status.ReservedFor = []r1.ResourceClaimConsumerReference{{Resource: "pods", Name: "pod-1", UID: "uid-1"}}
		},
		hasStatus: func(o *r1.ResourceClaim) bool { return len(o.Status.ReservedFor) == 1 },
		applyStatus: func(name, ns string) *ac1.ResourceClaimApplyConfiguration {
			return ac1.ResourceClaim(name, ns).WithStatus(ac1.ResourceClaimStatus().WithReservedFor(
				ac1.ResourceClaimConsumerReference().WithResource("pods").WithName("pod-1").WithUID("uid-1")))
		},
		extractStatus: ac1.ExtractResourceClaimStatus,
		apply: func(name, ns, v string) *ac1.ResourceClaimApplyConfiguration {
			return ac1.ResourceClaim(name, ns).WithSpec(ac1.ResourceClaimSpec().WithResourceClassName(v))
		},
		extract: ac1.ExtractResourceClaim,
		extractedProbe: func(a *ac1.ResourceClaimApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return a.Spec.ResourceClassName
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r1.ResourceClaim] {
			l := f.Resource().V1alpha1().ResourceClaims().Lister()
			return listerFuncs[*r1.ResourceClaim]{l.List, func(ns, n string) (*r1.ResourceClaim, error) { return l.ResourceClaims(ns).Get(n) }}
		},
	},
	kind[*r1.ResourceClaimTemplate, *r1.ResourceClaimTemplateList, *ac1.ResourceClaimTemplateApplyConfiguration, tc1.ResourceClaimTemplateInterface]{
		version: "v1alpha1", kind: "ResourceClaimTemplate", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tc1.ResourceClaimTemplateInterface {
			return cs.ResourceV1alpha1().ResourceClaimTemplates(ns)
		},
		newObject: func() *r1.ResourceClaimTemplate { return &r1.ResourceClaimTemplate{} },
		probe:     func(o *r1.ResourceClaimTemplate) string { return o.Spec.Spec.ResourceClassName },
		setProbe:  func(o *r1.ResourceClaimTemplate, v string) { o.Spec.Spec.ResourceClassName = v },
		apply: func(name, ns, v string) *ac1.ResourceClaimTemplateApplyConfiguration {
			return ac1.ResourceClaimTemplate(name, ns).WithSpec(ac1.ResourceClaimTemplateSpec().
				WithSpec(ac1.ResourceClaimSpec().WithResourceClassName(v)))
		},
		extract: ac1.ExtractResourceClaimTemplate,
		extractedProbe: func(a *ac1.ResourceClaimTemplateApplyConfiguration) *string {
			if a.Spec == nil || a.Spec.Spec == nil {
				return nil
			}
			return a.Spec.Spec.ResourceClassName
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r1.ResourceClaimTemplate] {
			l := f.Resource().V1alpha1().ResourceClaimTemplates().Lister()
			return listerFuncs[*r1.ResourceClaimTemplate]{l.List, func(ns, n string) (*r1.ResourceClaimTemplate, error) { return l.ResourceClaimTemplates(ns).Get(n) }}
		},
	},
	kind[*r1.PodScheduling, *r1.PodSchedulingList, *ac1.PodSchedulingApplyConfiguration, tc1.PodSchedulingInterface]{
		version: "v1alpha1", kind: "PodScheduling", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tc1.PodSchedulingInterface {
			return cs.ResourceV1alpha1().PodSchedulings(ns)
		},
		newObject: func() *r1.PodScheduling {
			return &r1.PodScheduling{Spec: r1.PodSchedulingSpec{PotentialNodes: []string{"node-1"}}}
		},
		probe:    func(o *r1.PodScheduling) string { return o.Spec.SelectedNode },
		setProbe: func(o *r1.PodScheduling, v string) { o.Spec.SelectedNode = v },
		setStatus: func(o *r1.PodScheduling) {
			o.Status.ResourceClaims = []r1.ResourceClaimSchedulingStatus{{Name: "claim", UnsuitableNodes: []string{"node-1"}}}
		},
		hasStatus: func(o *r1.PodScheduling) bool { return len(o.Status.ResourceClaims) == 1 },
		applyStatus: func(name, ns string) *ac1.PodSchedulingApplyConfiguration {
			return ac1.PodScheduling(name, ns).WithStatus(ac1.PodSchedulingStatus().WithResourceClaims(
				ac1.ResourceClaimSchedulingStatus().WithName("claim").WithUnsuitableNodes("node-1")))
		},
		extractStatus: ac1.ExtractPodSchedulingStatus,
		apply: func(name, ns, v string) *ac1.PodSchedulingApplyConfiguration {
			return ac1.PodScheduling(name, ns).WithSpec(ac1.PodSchedulingSpec().WithSelectedNode(v))
		},
		extract: ac1.ExtractPodScheduling,
		extractedProbe: func(a *ac1.PodSchedulingApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return a.Spec.SelectedNode
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r1.PodScheduling] {
			l := f.Resource().V1alpha1().PodSchedulings().Lister()
			return listerFuncs[*r1.PodScheduling]{l.List, func(ns, n string) (*r1.PodScheduling, error) { return l.PodSchedulings(ns).Get(n) }}
		},
	},

	// v1alpha2
	kind[*r2.ResourceClass, *r2.ResourceClassList, *ac2.ResourceClassApplyConfiguration, tc2.ResourceClassInterface]{
		version: "v1alpha2", kind: "ResourceClass",
		client: func(cs *fake.Clientset, _ string) tc2.ResourceClassInterface {
			return cs.ResourceV1alpha2().ResourceClasses()
		},
		newObject: func() *r2.ResourceClass { return &r2.ResourceClass{} },
		probe:     func(o *r2.ResourceClass) string { return o.DriverName },
		setProbe:  func(o *r2.ResourceClass, v string) { o.DriverName = v },
		apply: func(name, _, v string) *ac2.ResourceClassApplyConfiguration {
			return ac2.ResourceClass(name).WithDriverName(v)
		},
		extract:        ac2.ExtractResourceClass,
		extractedProbe: func(a *ac2.ResourceClassApplyConfiguration) *string { return a.DriverName },
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r2.ResourceClass] {
			l := f.Resource().V1alpha2().ResourceClasses().Lister()
			return listerFuncs[*r2.ResourceClass]{l.List, func(_, n string) (*r2.ResourceClass, error) { return l.Get(n) }}
		},
	},
	kind[*r2.ResourceClaim, *r2.ResourceClaimList, *ac2.ResourceClaimApplyConfiguration, tc2.ResourceClaimInterface]{
		version: "v1alpha2", kind: "ResourceClaim", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tc2.ResourceClaimInterface {
			return cs.ResourceV1alpha2().ResourceClaims(ns)
		},
		newObject: func() *r2.ResourceClaim {
			return &r2.ResourceClaim{Spec: r2.ResourceClaimSpec{AllocationMode: r2.AllocationModeWaitForFirstConsumer}}
		},
		probe:    func(o *r2.ResourceClaim) string { return o.Spec.ResourceClassName },
		setProbe: func(o *r2.ResourceClaim, v string) { o.Spec.ResourceClassName = v },
		setStatus: func(o *r2.ResourceClaim) {
			o.Status.DriverName = "driver.example.com"
			o.Status.Allocation = &r2.AllocationResult{}
			o.Status.ReservedFor = []r2.ResourceClaimConsumerReference{{Resource: "pods", Name: "pod-1", UID: "uid-1"}}
		},
		hasStatus: func(o *r2.ResourceClaim) bool { return len(o.Status.ReservedFor) == 1 },
		applyStatus: func(name, ns string) *ac2.ResourceClaimApplyConfiguration {
			return ac2.ResourceClaim(name, ns).WithStatus(ac2.ResourceClaimStatus().WithReservedFor(
				ac2.ResourceClaimConsumerReference().WithResource("pods").WithName("pod-1").WithUID("uid-1")))
		},
		extractStatus: ac2.ExtractResourceClaimStatus,
		apply: func(name, ns, v string) *ac2.ResourceClaimApplyConfiguration {
			return ac2.ResourceClaim(name, ns).WithSpec(ac2.ResourceClaimSpec().WithResourceClassName(v))
		},
		extract: ac2.ExtractResourceClaim,
		extractedProbe: func(a *ac2.ResourceClaimApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return a.Spec.ResourceClassName
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r2.ResourceClaim] {
			l := f.Resource().V1alpha2().ResourceClaims().Lister()
			return listerFuncs[*r2.ResourceClaim]{l.List, func(ns, n string) (*r2.ResourceClaim, error) { return l.ResourceClaims(ns).Get(n) }}
		},
	},
	kind[*r2.ResourceClaimTemplate, *r2.ResourceClaimTemplateList, *ac2.ResourceClaimTemplateApplyConfiguration, tc2.ResourceClaimTemplateInterface]{
		version: "v1alpha2", kind: "ResourceClaimTemplate", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tc2.ResourceClaimTemplateInterface {
			return cs.ResourceV1alpha2().ResourceClaimTemplates(ns)
		},
		newObject: func() *r2.ResourceClaimTemplate { return &r2.ResourceClaimTemplate{} },
		probe:     func(o *r2.ResourceClaimTemplate) string { return o.Spec.Spec.ResourceClassName },
		setProbe:  func(o *r2.ResourceClaimTemplate, v string) { o.Spec.Spec.ResourceClassName = v },
		apply: func(name, ns, v string) *ac2.ResourceClaimTemplateApplyConfiguration {
			return ac2.ResourceClaimTemplate(name, ns).WithSpec(ac2.ResourceClaimTemplateSpec().
				WithSpec(ac2.ResourceClaimSpec().WithResourceClassName(v)))
		},
		extract: ac2.ExtractResourceClaimTemplate,
		extractedProbe: func(a *ac2.ResourceClaimTemplateApplyConfiguration) *string {
			if a.Spec == nil || a.Spec.Spec == nil {
				return nil
			}
			return a.Spec.Spec.ResourceClassName
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r2.ResourceClaimTemplate] {
			l := f.Resource().V1alpha2().ResourceClaimTemplates().Lister()
			return listerFuncs[*r2.ResourceClaimTemplate]{l.List, func(ns, n string) (*r2.ResourceClaimTemplate, error) { return l.ResourceClaimTemplates(ns).Get(n) }}
		},
	},
	kind[*r2.PodSchedulingContext, *r2.PodSchedulingContextList, *ac2.PodSchedulingContextApplyConfiguration, tc2.PodSchedulingContextInterface]{
		version: "v1alpha2", kind: "PodSchedulingContext", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tc2.PodSchedulingContextInterface {
			return cs.ResourceV1alpha2().PodSchedulingContexts(ns)
		},
		newObject: func() *r2.PodSchedulingContext {
			return &r2.PodSchedulingContext{Spec: r2.PodSchedulingContextSpec{PotentialNodes: []string{"node-1"}}}
		},
		probe:    func(o *r2.PodSchedulingContext) string { return o.Spec.SelectedNode },
		setProbe: func(o *r2.PodSchedulingContext, v string) { o.Spec.SelectedNode = v },
		setStatus: func(o *r2.PodSchedulingContext) {
			o.Status.ResourceClaims = []r2.ResourceClaimSchedulingStatus{{Name: "claim", UnsuitableNodes: []string{"node-1"}}}
		},
		hasStatus: func(o *r2.PodSchedulingContext) bool { return len(o.Status.ResourceClaims) == 1 },
		applyStatus: func(name, ns string) *ac2.PodSchedulingContextApplyConfiguration {
			return ac2.PodSchedulingContext(name, ns).WithStatus(ac2.PodSchedulingContextStatus().WithResourceClaims(
				ac2.ResourceClaimSchedulingStatus().WithName("claim").WithUnsuitableNodes("node-1")))
		},
		extractStatus: ac2.ExtractPodSchedulingContextStatus,
		apply: func(name, ns, v string) *ac2.PodSchedulingContextApplyConfiguration {
			return ac2.PodSchedulingContext(name, ns).WithSpec(ac2.PodSchedulingContextSpec().WithSelectedNode(v))
		},
		extract: ac2.ExtractPodSchedulingContext,
		extractedProbe: func(a *ac2.PodSchedulingContextApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return a.Spec.SelectedNode
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r2.PodSchedulingContext] {
			l := f.Resource().V1alpha2().PodSchedulingContexts().Lister()
			return listerFuncs[*r2.PodSchedulingContext]{l.List, func(ns, n string) (*r2.PodSchedulingContext, error) { return l.PodSchedulingContexts(ns).Get(n) }}
		},
	},
	kind[*r2.ResourceSlice, *r2.ResourceSliceList, *ac2.ResourceSliceApplyConfiguration, tc2.ResourceSliceInterface]{
		version: "v1alpha2", kind: "ResourceSlice",
		client: func(cs *fake.Clientset, _ string) tc2.ResourceSliceInterface {
			return cs.ResourceV1alpha2().ResourceSlices()
		},
		newObject: func() *r2.ResourceSlice {
			return &r2.ResourceSlice{NodeName: "node-1", ResourceModel: r2.ResourceModel{NamedResources: &r2.NamedResourcesResources{
				Instances: []r2.NamedResourcesInstance{{Name: "gpu-0"}},
			}}}
		},
		probe:    func(o *r2.ResourceSlice) string { return o.DriverName },
		setProbe: func(o *r2.ResourceSlice, v string) { o.DriverName = v },
		apply: func(name, _, v string) *ac2.ResourceSliceApplyConfiguration {
			return ac2.ResourceSlice(name).WithDriverName(v)
		},
		extract:        ac2.ExtractResourceSlice,
		extractedProbe: func(a *ac2.ResourceSliceApplyConfiguration) *string { return a.DriverName },
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r2.ResourceSlice] {
			l := f.Resource().V1alpha2().ResourceSlices().Lister()
			return listerFuncs[*r2.ResourceSlice]{l.List, func(_, n string) (*r2.ResourceSlice, error) { return l.Get(n) }}
		},
	},
	kind[*r2.ResourceClaimParameters, *r2.ResourceClaimParametersList, *ac2.ResourceClaimParametersApplyConfiguration, tc2.ResourceClaimParametersInterface]{
		version: "v1alpha2", kind: "ResourceClaimParameters", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tc2.ResourceClaimParametersInterface {
			return cs.ResourceV1alpha2().ResourceClaimParameters(ns)
		},
		newObject: func() *r2.ResourceClaimParameters {
			return &r2.ResourceClaimParameters{
				GeneratedFrom: &r2.ResourceClaimParametersReference{Kind: "ConfigMap"},
				DriverRequests: []r2.DriverRequests{{DriverName: "driver.example.com", Requests: []r2.ResourceRequest{{
					ResourceRequestModel: r2.ResourceRequestModel{NamedResources: &r2.NamedResourcesRequest{Selector: "true"}},
				}}}},
			}
		},
		probe:    func(o *r2.ResourceClaimParameters) string { return o.GeneratedFrom.Name },
		setProbe: func(o *r2.ResourceClaimParameters, v string) { o.GeneratedFrom.Name = v },
		apply: func(name, ns, v string) *ac2.ResourceClaimParametersApplyConfiguration {
			return ac2.ResourceClaimParameters(name, ns).WithGeneratedFrom(ac2.ResourceClaimParametersReference().
				WithKind("ConfigMap").WithName(v))
		},
		extract: ac2.ExtractResourceClaimParameters,
		extractedProbe: func(a *ac2.ResourceClaimParametersApplyConfiguration) *string {
			if a.GeneratedFrom == nil {
				return nil
			}
			return a.GeneratedFrom.Name
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r2.ResourceClaimParameters] {
			l := f.Resource().V1alpha2().ResourceClaimParameters().Lister()
			return listerFuncs[*r2.ResourceClaimParameters]{l.List, func(ns, n string) (*r2.ResourceClaimParameters, error) { return l.ResourceClaimParameters(ns).Get(n) }}
		},
	},
	kind[*r2.ResourceClassParameters, *r2.ResourceClassParametersList, *ac2.ResourceClassParametersApplyConfiguration, tc2.ResourceClassParametersInterface]{
		version: "v1alpha2", kind: "ResourceClassParameters", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tc2.ResourceClassParametersInterface {
			return cs.ResourceV1alpha2().ResourceClassParameters(ns)
		},
		newObject: func() *r2.ResourceClassParameters {
			return &r2.ResourceClassParameters{
				GeneratedFrom: &r2.ResourceClassParametersReference{Kind: "ConfigMap", Namespace: "ns1"},
				Filters: []r2.ResourceFilter{{DriverName: "driver.example.com",
					ResourceFilterModel: r2.ResourceFilterModel{NamedResources: &r2.NamedResourcesFilter{Selector: "true"}},
				}},
			}
		},
		probe:    func(o *r2.ResourceClassParameters) string { return o.GeneratedFrom.Name },
		setProbe: func(o *r2.ResourceClassParameters, v string) { o.GeneratedFrom.Name = v },
		apply: func(name, ns, v string) *ac2.ResourceClassParametersApplyConfiguration {
			return ac2.ResourceClassParameters(name, ns).WithGeneratedFrom(ac2.ResourceClassParametersReference().
				WithKind("ConfigMap").WithName(v))
		},
		extract: ac2.ExtractResourceClassParameters,
		extractedProbe: func(a *ac2.ResourceClassParametersApplyConfiguration) *string {
			if a.GeneratedFrom == nil {
				return nil
			}
			return a.GeneratedFrom.Name
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r2.ResourceClassParameters] {
			l := f.Resource().V1alpha2().ResourceClassParameters().Lister()
			return listerFuncs[*r2.ResourceClassParameters]{l.List, func(ns, n string) (*r2.ResourceClassParameters, error) { return l.ResourceClassParameters(ns).Get(n) }}
		},
	},

	// v1alpha3
	kind[*r3.DeviceClass, *r3.DeviceClassList, *ac3.DeviceClassApplyConfiguration, tc3.DeviceClassInterface]{
		version: "v1alpha3", kind: "DeviceClass",
		client: func(cs *fake.Clientset, _ string) tc3.DeviceClassInterface {
			return cs.ResourceV1alpha3().DeviceClasses()
		},
		newObject: func() *r3.DeviceClass {
			return &r3.DeviceClass{Spec: r3.DeviceClassSpec{Selectors: []r3.DeviceSelector{{CEL: &r3.CELDeviceSelector{}}}}}
		},
		// selectors is an atomic list: whoever applies it owns all of it.
		probe:    func(o *r3.DeviceClass) string { return fromCEL(o.Spec.Selectors[0].CEL.Expression) },
		setProbe: func(o *r3.DeviceClass, v string) { o.Spec.Selectors[0].CEL.Expression = toCEL(v) },
		apply: func(name, _, v string) *ac3.DeviceClassApplyConfiguration {
			return ac3.DeviceClass(name).WithSpec(ac3.DeviceClassSpec().WithSelectors(
				ac3.DeviceSelector().WithCEL(ac3.CELDeviceSelector().WithExpression(toCEL(v)))))
		},
		extract: ac3.ExtractDeviceClass,
		extractedProbe: func(a *ac3.DeviceClassApplyConfiguration) *string {
			if a.Spec == nil || len(a.Spec.Selectors) != 1 || a.Spec.Selectors[0].CEL == nil {
				return nil
			}
			return fromCELPtr(a.Spec.Selectors[0].CEL.Expression)
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r3.DeviceClass] {
			l := f.Resource().V1alpha3().DeviceClasses().Lister()
			return listerFuncs[*r3.DeviceClass]{l.List, func(_, n string) (*r3.DeviceClass, error) { return l.Get(n) }}
		},
	},
	kind[*r3.ResourceClaim, *r3.ResourceClaimList, *ac3.ResourceClaimApplyConfiguration, tc3.ResourceClaimInterface]{
		version: "v1alpha3", kind: "ResourceClaim", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tc3.ResourceClaimInterface {
			return cs.ResourceV1alpha3().ResourceClaims(ns)
		},
		newObject: func() *r3.ResourceClaim {
			return &r3.ResourceClaim{Spec: r3.ResourceClaimSpec{Devices: r3.DeviceClaim{
				Requests: []r3.DeviceRequest{{Name: "req", DeviceClassName: "class", AllocationMode: r3.DeviceAllocationModeExactCount, Count: 1}},
			}}}
		},
		probe:    func(o *r3.ResourceClaim) string { return o.Spec.Controller },
		setProbe: func(o *r3.ResourceClaim, v string) { o.Spec.Controller = v },
		setStatus: func(o *r3.ResourceClaim) {
			o.Status.Allocation = &r3.AllocationResult{Devices: r3.DeviceAllocationResult{Results: []r3.DeviceRequestAllocationResult{
				{Request: "req", Driver: "driver.example.com", Pool: "pool", Device: "gpu-0"},
			}}}
			o.Status.ReservedFor = []r3.ResourceClaimConsumerReference{{Resource: "pods", Name: "pod-1", UID: "uid-1"}}
		},
		hasStatus: func(o *r3.ResourceClaim) bool { return len(o.Status.ReservedFor) == 1 },
		applyStatus: func(name, ns string) *ac3.ResourceClaimApplyConfiguration {
			return ac3.ResourceClaim(name, ns).WithStatus(ac3.ResourceClaimStatus().WithReservedFor(
				ac3.ResourceClaimConsumerReference().WithResource("pods").WithName("pod-1").WithUID("uid-1")))
		},
		extractStatus: ac3.ExtractResourceClaimStatus,
		apply: func(name, ns, v string) *ac3.ResourceClaimApplyConfiguration {
			return ac3.ResourceClaim(name, ns).WithSpec(ac3.ResourceClaimSpec().WithController(v))
		},
		extract: ac3.ExtractResourceClaim,
		extractedProbe: func(a *ac3.ResourceClaimApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return a.Spec.Controller
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r3.ResourceClaim] {
			l := f.Resource().V1alpha3().ResourceClaims().Lister()
			return listerFuncs[*r3.ResourceClaim]{l.List, func(ns, n string) (*r3.ResourceClaim, error) { return l.ResourceClaims(ns).Get(n) }}
		},
	},
	kind[*r3.ResourceClaimTemplate, *r3.ResourceClaimTemplateList, *ac3.ResourceClaimTemplateApplyConfiguration, tc3.ResourceClaimTemplateInterface]{
		version: "v1alpha3", kind: "ResourceClaimTemplate", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tc3.ResourceClaimTemplateInterface {
			return cs.ResourceV1alpha3().ResourceClaimTemplates(ns)
		},
		newObject: func() *r3.ResourceClaimTemplate {
			return &r3.ResourceClaimTemplate{Spec: r3.ResourceClaimTemplateSpec{Spec: r3.ResourceClaimSpec{Devices: r3.DeviceClaim{
				Requests: []r3.DeviceRequest{{Name: "req", DeviceClassName: "class"}},
			}}}}
		},
		probe:    func(o *r3.ResourceClaimTemplate) string { return o.Spec.Spec.Controller },
		setProbe: func(o *r3.ResourceClaimTemplate, v string) { o.Spec.Spec.Controller = v },
		apply: func(name, ns, v string) *ac3.ResourceClaimTemplateApplyConfiguration {
			return ac3.ResourceClaimTemplate(name, ns).WithSpec(ac3.ResourceClaimTemplateSpec().
				WithSpec(ac3.ResourceClaimSpec().WithController(v)))
		},
		extract: ac3.ExtractResourceClaimTemplate,
		extractedProbe: func(a *ac3.ResourceClaimTemplateApplyConfiguration) *string {
			if a.Spec == nil || a.Spec.Spec == nil {
				return nil
			}
			return a.Spec.Spec.Controller
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r3.ResourceClaimTemplate] {
			l := f.Resource().V1alpha3().ResourceClaimTemplates().Lister()
			return listerFuncs[*r3.ResourceClaimTemplate]{l.List, func(ns, n string) (*r3.ResourceClaimTemplate, error) { return l.ResourceClaimTemplates(ns).Get(n) }}
		},
	},
	kind[*r3.PodSchedulingContext, *r3.PodSchedulingContextList, *ac3.PodSchedulingContextApplyConfiguration, tc3.PodSchedulingContextInterface]{
		version: "v1alpha3", kind: "PodSchedulingContext", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tc3.PodSchedulingContextInterface {
			return cs.ResourceV1alpha3().PodSchedulingContexts(ns)
		},
		newObject: func() *r3.PodSchedulingContext {
			return &r3.PodSchedulingContext{Spec: r3.PodSchedulingContextSpec{PotentialNodes: []string{"node-1"}}}
		},
		probe:    func(o *r3.PodSchedulingContext) string { return o.Spec.SelectedNode },
		setProbe: func(o *r3.PodSchedulingContext, v string) { o.Spec.SelectedNode = v },
		setStatus: func(o *r3.PodSchedulingContext) {
			o.Status.ResourceClaims = []r3.ResourceClaimSchedulingStatus{{Name: "claim", UnsuitableNodes: []string{"node-1"}}}
		},
		hasStatus: func(o *r3.PodSchedulingContext) bool { return len(o.Status.ResourceClaims) == 1 },
		applyStatus: func(name, ns string) *ac3.PodSchedulingContextApplyConfiguration {
			return ac3.PodSchedulingContext(name, ns).WithStatus(ac3.PodSchedulingContextStatus().WithResourceClaims(
				ac3.ResourceClaimSchedulingStatus().WithName("claim").WithUnsuitableNodes("node-1")))
		},
		extractStatus: ac3.ExtractPodSchedulingContextStatus,
		apply: func(name, ns, v string) *ac3.PodSchedulingContextApplyConfiguration {
			return ac3.PodSchedulingContext(name, ns).WithSpec(ac3.PodSchedulingContextSpec().WithSelectedNode(v))
		},
		extract: ac3.ExtractPodSchedulingContext,
		extractedProbe: func(a *ac3.PodSchedulingContextApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return a.Spec.SelectedNode
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r3.PodSchedulingContext] {
			l := f.Resource().V1alpha3().PodSchedulingContexts().Lister()
			return listerFuncs[*r3.PodSchedulingContext]{l.List, func(ns, n string) (*r3.PodSchedulingContext, error) { return l.PodSchedulingContexts(ns).Get(n) }}
		},
	},
	kind[*r3.ResourceSlice, *r3.ResourceSliceList, *ac3.ResourceSliceApplyConfiguration, tc3.ResourceSliceInterface]{
		version: "v1alpha3", kind: "ResourceSlice",
		client: func(cs *fake.Clientset, _ string) tc3.ResourceSliceInterface {
			return cs.ResourceV1alpha3().ResourceSlices()
		},
		newObject: func() *r3.ResourceSlice {
			return &r3.ResourceSlice{Spec: r3.ResourceSliceSpec{
				Pool:     r3.ResourcePool{Name: "pool", ResourceSliceCount: 1},
				NodeName: "node-1",
				Devices:  []r3.Device{{Name: "gpu-0", Basic: &r3.BasicDevice{}}},
			}}
		},
		probe:    func(o *r3.ResourceSlice) string { return o.Spec.Driver },
		setProbe: func(o *r3.ResourceSlice, v string) { o.Spec.Driver = v },
		apply: func(name, _, v string) *ac3.ResourceSliceApplyConfiguration {
			return ac3.ResourceSlice(name).WithSpec(ac3.ResourceSliceSpec().WithDriver(v))
		},
		extract: ac3.ExtractResourceSlice,
		extractedProbe: func(a *ac3.ResourceSliceApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return a.Spec.Driver
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r3.ResourceSlice] {
			l := f.Resource().V1alpha3().ResourceSlices().Lister()
			return listerFuncs[*r3.ResourceSlice]{l.List, func(_, n string) (*r3.ResourceSlice, error) { return l.Get(n) }}
		},
	},
}

// toCEL writes a DeviceClass probe as a valid selector: a CEL expression
// that compares the device's driver with the value; fromCEL reads it back
// (an expression of another form is returned as it is, so that it differs
// from every probe value).
func toCEL(v string) string { return celProbePrefix + strconv.Quote(v) }

func fromCEL(expr string) string {
	if q, ok := strings.CutPrefix(expr, celProbePrefix); ok {
		if v, err := strconv.Unquote(q); err == nil {
			return v
		}
	}
	return expr
}

// fromCELPtr is fromCEL for an extracted expression (nil if unset).
func fromCELPtr(expr *string) *string {
	if expr == nil {
		return nil
	}
	return ptr(fromCEL(*expr))
}

const celProbePrefix = "device.driver == "
