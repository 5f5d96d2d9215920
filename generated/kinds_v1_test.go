// Hand-written (not generated): the kinds of the table (see kinds_test.go)
// in their 1.37 shape: v1alpha3's DeviceTaintRule and
// ResourcePoolStatusRequest, and every kind of v1beta1, v1beta2 and v1.
package generated_test

import (
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	acmeta "k8s.io/client-go/applyconfigurations/meta/v1"

	rv1 "github.com/drakit/drakit/apis/resource/v1"
	r3 "github.com/drakit/drakit/apis/resource/v1alpha3"
	rb1 "github.com/drakit/drakit/apis/resource/v1beta1"
	rb2 "github.com/drakit/drakit/apis/resource/v1beta2"
	acv1 "github.com/drakit/drakit/applyconfig/resource/v1"
	ac3 "github.com/drakit/drakit/applyconfig/resource/v1alpha3"
	acb1 "github.com/drakit/drakit/applyconfig/resource/v1beta1"
	acb2 "github.com/drakit/drakit/applyconfig/resource/v1beta2"
	"github.com/drakit/drakit/generated/clientset/versioned/fake"
	tcv1 "github.com/drakit/drakit/generated/clientset/versioned/typed/resource/v1"
	tc3 "github.com/drakit/drakit/generated/clientset/versioned/typed/resource/v1alpha3"
	tcb1 "github.com/drakit/drakit/generated/clientset/versioned/typed/resource/v1beta1"
	tcb2 "github.com/drakit/drakit/generated/clientset/versioned/typed/resource/v1beta2"
	informers "github.com/drakit/drakit/generated/informers/externalversions"
)

// condition is a valid status condition (type, status, reason and a
// transition time are required).
func condition(typ string, status metav1.ConditionStatus, reason string) metav1.Condition {
	return metav1.Condition{
		Type: typ, Status: status, Reason: reason, Message: "set by the test",
		LastTransitionTime: metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)),
	}
}

// conditionApply is condition as an apply configuration.
func conditionApply(typ string, status metav1.ConditionStatus, reason string) *acmeta.ConditionApplyConfiguration {
	c := condition(typ, status, reason)
	return acmeta.Condition().WithType(c.Type).WithStatus(c.Status).WithReason(c.Reason).
		WithMessage(c.Message).WithLastTransitionTime(c.LastTransitionTime)
}

// Probes (see kind), as for the alpha kinds: the first selector's CEL
// expression of a DeviceClass, written as a valid selector (see toCEL;
// selectors is atomic); the device class of a claim's or template's only
// request (requests is atomic: the applier owns the whole list); a slice's
// driver; a DeviceTaintRule's taint key; a ResourcePoolStatusRequest's
// driver. Every object is valid (TestObjectsValid); a claim's status is an
// allocation of its request with the pod that reserves it.
var v1EraKinds = []kindTest{
	// v1alpha3: the two kinds it has in their 1.37 shape.
	kind[*r3.DeviceTaintRule, *r3.DeviceTaintRuleList, *ac3.DeviceTaintRuleApplyConfiguration, tc3.DeviceTaintRuleInterface]{
		version: "v1alpha3", kind: "DeviceTaintRule",
		client: func(cs *fake.Clientset, _ string) tc3.DeviceTaintRuleInterface {
			return cs.ResourceV1alpha3().DeviceTaintRules()
		},
		newObject: func() *r3.DeviceTaintRule {
			return &r3.DeviceTaintRule{Spec: r3.DeviceTaintRuleSpec{
				DeviceSelector: &r3.DeviceTaintSelector{Driver: ptr("driver.example.com"), Pool: ptr("pool")},
				Taint:          r3.DeviceTaint{Effect: r3.DeviceTaintEffectNoSchedule},
			}}
		},
		probe:    func(o *r3.DeviceTaintRule) string { return o.Spec.Taint.Key },
		setProbe: func(o *r3.DeviceTaintRule, v string) { o.Spec.Taint.Key = v },
		setStatus: func(o *r3.DeviceTaintRule) {
			o.Status.Conditions = []metav1.Condition{condition(r3.DeviceTaintConditionEvictionInProgress, metav1.ConditionFalse, "NoEffect")}
		},
		hasStatus: func(o *r3.DeviceTaintRule) bool { return len(o.Status.Conditions) == 1 },
		applyStatus: func(name, _ string) *ac3.DeviceTaintRuleApplyConfiguration {
			return ac3.DeviceTaintRule(name).WithStatus(ac3.DeviceTaintRuleStatus().WithConditions(conditionApply("EvictionInProgress", metav1.ConditionFalse, "NoEffect")))
		},
		extractStatus: ac3.ExtractDeviceTaintRuleStatus,
		apply: func(name, _, v string) *ac3.DeviceTaintRuleApplyConfiguration {
			return ac3.DeviceTaintRule(name).WithSpec(ac3.DeviceTaintRuleSpec().WithTaint(ac3.DeviceTaint().WithKey(v)))
		},
		extract: ac3.ExtractDeviceTaintRule,
		extractedProbe: func(a *ac3.DeviceTaintRuleApplyConfiguration) *string {
			if a.Spec == nil || a.Spec.Taint == nil {
				return nil
			}
			return a.Spec.Taint.Key
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r3.DeviceTaintRule] {
			l := f.Resource().V1alpha3().DeviceTaintRules().Lister()
			return listerFuncs[*r3.DeviceTaintRule]{l.List, func(_, n string) (*r3.DeviceTaintRule, error) { return l.Get(n) }}
		},
	},
	kind[*r3.ResourcePoolStatusRequest, *r3.ResourcePoolStatusRequestList, *ac3.ResourcePoolStatusRequestApplyConfiguration, tc3.ResourcePoolStatusRequestInterface]{
		version: "v1alpha3", kind: "ResourcePoolStatusRequest",
		client: func(cs *fake.Clientset, _ string) tc3.ResourcePoolStatusRequestInterface {
			return cs.ResourceV1alpha3().ResourcePoolStatusRequests()
		},
		newObject: func() *r3.ResourcePoolStatusRequest {
			return &r3.ResourcePoolStatusRequest{Spec: r3.ResourcePoolStatusRequestSpec{
				PoolName: ptr("pool"),
				Limit:    ptr(r3.ResourcePoolStatusRequestLimitDefault),
			}}
		},
		probe:    func(o *r3.ResourcePoolStatusRequest) string { return o.Spec.Driver },
		setProbe: func(o *r3.ResourcePoolStatusRequest, v string) { o.Spec.Driver = v },
		setStatus: func(o *r3.ResourcePoolStatusRequest) {
			o.Status = &r3.ResourcePoolStatusRequestStatus{
				PoolCount:  ptr(int32(0)),
				Conditions: []metav1.Condition{condition(r3.ResourcePoolStatusRequestConditionComplete, metav1.ConditionTrue, "NoPools")},
			}
		},
		hasStatus: func(o *r3.ResourcePoolStatusRequest) bool { return o.Status != nil && len(o.Status.Conditions) == 1 },
		applyStatus: func(name, _ string) *ac3.ResourcePoolStatusRequestApplyConfiguration {
			return ac3.ResourcePoolStatusRequest(name).WithStatus(ac3.ResourcePoolStatusRequestStatus().WithPoolCount(0).
				WithConditions(conditionApply("Complete", metav1.ConditionTrue, "NoPools")))
		},
		extractStatus: ac3.ExtractResourcePoolStatusRequestStatus,
		apply: func(name, _, v string) *ac3.ResourcePoolStatusRequestApplyConfiguration {
			return ac3.ResourcePoolStatusRequest(name).WithSpec(ac3.ResourcePoolStatusRequestSpec().WithDriver(v))
		},
		extract: ac3.ExtractResourcePoolStatusRequest,
		extractedProbe: func(a *ac3.ResourcePoolStatusRequestApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return a.Spec.Driver
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*r3.ResourcePoolStatusRequest] {
			l := f.Resource().V1alpha3().ResourcePoolStatusRequests().Lister()
			return listerFuncs[*r3.ResourcePoolStatusRequest]{l.List, func(_, n string) (*r3.ResourcePoolStatusRequest, error) { return l.Get(n) }}
		},
	},

	// v1beta1
	kind[*rb1.DeviceClass, *rb1.DeviceClassList, *acb1.DeviceClassApplyConfiguration, tcb1.DeviceClassInterface]{
		version: "v1beta1", kind: "DeviceClass",
		client: func(cs *fake.Clientset, _ string) tcb1.DeviceClassInterface {
			return cs.ResourceV1beta1().DeviceClasses()
		},
		newObject: func() *rb1.DeviceClass {
			return &rb1.DeviceClass{Spec: rb1.DeviceClassSpec{Selectors: []rb1.DeviceSelector{{CEL: &rb1.CELDeviceSelector{}}}}}
		},
		probe:    func(o *rb1.DeviceClass) string { return fromCEL(o.Spec.Selectors[0].CEL.Expression) },
		setProbe: func(o *rb1.DeviceClass, v string) { o.Spec.Selectors[0].CEL.Expression = toCEL(v) },
		apply: func(name, _, v string) *acb1.DeviceClassApplyConfiguration {
			return acb1.DeviceClass(name).WithSpec(acb1.DeviceClassSpec().WithSelectors(
				acb1.DeviceSelector().WithCEL(acb1.CELDeviceSelector().WithExpression(toCEL(v)))))
		},
		extract: acb1.ExtractDeviceClass,
		extractedProbe: func(a *acb1.DeviceClassApplyConfiguration) *string {
			if a.Spec == nil || len(a.Spec.Selectors) != 1 || a.Spec.Selectors[0].CEL == nil {
				return nil
			}
			return fromCELPtr(a.Spec.Selectors[0].CEL.Expression)
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rb1.DeviceClass] {
			l := f.Resource().V1beta1().DeviceClasses().Lister()
			return listerFuncs[*rb1.DeviceClass]{l.List, func(_, n string) (*rb1.DeviceClass, error) { return l.Get(n) }}
		},
	},
	kind[*rb1.ResourceClaim, *rb1.ResourceClaimList, *acb1.ResourceClaimApplyConfiguration, tcb1.ResourceClaimInterface]{
		version: "v1beta1", kind: "ResourceClaim", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tcb1.ResourceClaimInterface {
			return cs.ResourceV1beta1().ResourceClaims(ns)
		},
		newObject: func() *rb1.ResourceClaim {
			return &rb1.ResourceClaim{Spec: rb1.ResourceClaimSpec{Devices: rb1.DeviceClaim{
				Requests: []rb1.DeviceRequest{{Name: "req", AllocationMode: rb1.DeviceAllocationModeExactCount, Count: 1}},
			}}}
		},
		probe:    func(o *rb1.ResourceClaim) string { return o.Spec.Devices.Requests[0].DeviceClassName },
		setProbe: func(o *rb1.ResourceClaim, v string) { o.Spec.Devices.Requests[0].DeviceClassName = v },
		setStatus: func(o *rb1.ResourceClaim) {
			o.Status.Allocation = &rb1.AllocationResult{Devices: rb1.DeviceAllocationResult{Results: []rb1.DeviceRequestAllocationResult{
				{Request: "req", Driver: "driver.example.com", Pool: "pool", Device: "gpu-0"},
			}}}
			o.Status.ReservedFor = []rb1.ResourceClaimConsumerReference{{Resource: "pods", Name: "pod-1", UID: "uid-1"}}
		},
		hasStatus: func(o *rb1.ResourceClaim) bool { return len(o.Status.ReservedFor) == 1 },
		applyStatus: func(name, ns string) *acb1.ResourceClaimApplyConfiguration {
			return acb1.ResourceClaim(name, ns).WithStatus(acb1.ResourceClaimStatus().WithReservedFor(
				acb1.ResourceClaimConsumerReference().WithResource("pods").WithName("pod-1").WithUID("uid-1")))
		},
		extractStatus: acb1.ExtractResourceClaimStatus,
		apply: func(name, ns, v string) *acb1.ResourceClaimApplyConfiguration {
			return acb1.ResourceClaim(name, ns).WithSpec(acb1.ResourceClaimSpec().WithDevices(acb1.DeviceClaim().
				WithRequests(acb1.DeviceRequest().WithName("req").WithDeviceClassName(v))))
		},
		extract: acb1.ExtractResourceClaim,
		extractedProbe: func(a *acb1.ResourceClaimApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return b1RequestProbe(a.Spec.Devices)
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rb1.ResourceClaim] {
			l := f.Resource().V1beta1().ResourceClaims().Lister()
			return listerFuncs[*rb1.ResourceClaim]{l.List, func(ns, n string) (*rb1.ResourceClaim, error) { return l.ResourceClaims(ns).Get(n) }}
		},
	},
	kind[*rb1.ResourceClaimTemplate, *rb1.ResourceClaimTemplateList, *acb1.ResourceClaimTemplateApplyConfiguration, tcb1.ResourceClaimTemplateInterface]{
		version: "v1beta1", kind: "ResourceClaimTemplate", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tcb1.ResourceClaimTemplateInterface {
			return cs.ResourceV1beta1().ResourceClaimTemplates(ns)
		},
		newObject: func() *rb1.ResourceClaimTemplate {
			return &rb1.ResourceClaimTemplate{Spec: rb1.ResourceClaimTemplateSpec{Spec: rb1.ResourceClaimSpec{Devices: rb1.DeviceClaim{
				Requests: []rb1.DeviceRequest{{Name: "req", AllocationMode: rb1.DeviceAllocationModeExactCount, Count: 1}},
			}}}}
		},
		probe:    func(o *rb1.ResourceClaimTemplate) string { return o.Spec.Spec.Devices.Requests[0].DeviceClassName },
		setProbe: func(o *rb1.ResourceClaimTemplate, v string) { o.Spec.Spec.Devices.Requests[0].DeviceClassName = v },
		apply: func(name, ns, v string) *acb1.ResourceClaimTemplateApplyConfiguration {
			return acb1.ResourceClaimTemplate(name, ns).WithSpec(acb1.ResourceClaimTemplateSpec().
				WithSpec(acb1.ResourceClaimSpec().WithDevices(acb1.DeviceClaim().
					WithRequests(acb1.DeviceRequest().WithName("req").WithDeviceClassName(v)))))
		},
		extract: acb1.ExtractResourceClaimTemplate,
		extractedProbe: func(a *acb1.ResourceClaimTemplateApplyConfiguration) *string {
			if a.Spec == nil || a.Spec.Spec == nil {
				return nil
			}
			return b1RequestProbe(a.Spec.Spec.Devices)
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rb1.ResourceClaimTemplate] {
			l := f.Resource().V1beta1().ResourceClaimTemplates().Lister()
			return listerFuncs[*rb1.ResourceClaimTemplate]{l.List, func(ns, n string) (*rb1.ResourceClaimTemplate, error) { return l.ResourceClaimTemplates(ns).Get(n) }}
		},
	},
	kind[*rb1.ResourceSlice, *rb1.ResourceSliceList, *acb1.ResourceSliceApplyConfiguration, tcb1.ResourceSliceInterface]{
		version: "v1beta1", kind: "ResourceSlice",
		client: func(cs *fake.Clientset, _ string) tcb1.ResourceSliceInterface {
			return cs.ResourceV1beta1().ResourceSlices()
		},
		newObject: func() *rb1.ResourceSlice {
			return &rb1.ResourceSlice{Spec: rb1.ResourceSliceSpec{
				Pool:     rb1.ResourcePool{Name: "pool", ResourceSliceCount: 1},
				NodeName: "node-1",
				Devices:  []rb1.Device{{Name: "gpu-0", Basic: &rb1.BasicDevice{}}},
			}}
		},
		probe:    func(o *rb1.ResourceSlice) string { return o.Spec.Driver },
		setProbe: func(o *rb1.ResourceSlice, v string) { o.Spec.Driver = v },
		apply: func(name, _, v string) *acb1.ResourceSliceApplyConfiguration {
			return acb1.ResourceSlice(name).WithSpec(acb1.ResourceSliceSpec().WithDriver(v))
		},
		extract: acb1.ExtractResourceSlice,
		extractedProbe: func(a *acb1.ResourceSliceApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return a.Spec.Driver
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rb1.ResourceSlice] {
			l := f.Resource().V1beta1().ResourceSlices().Lister()
			return listerFuncs[*rb1.ResourceSlice]{l.List, func(_, n string) (*rb1.ResourceSlice, error) { return l.Get(n) }}
		},
	},

	// v1beta2
	kind[*rb2.DeviceClass, *rb2.DeviceClassList, *acb2.DeviceClassApplyConfiguration, tcb2.DeviceClassInterface]{
		version: "v1beta2", kind: "DeviceClass",
		client: func(cs *fake.Clientset, _ string) tcb2.DeviceClassInterface {
			return cs.ResourceV1beta2().DeviceClasses()
		},
		newObject: func() *rb2.DeviceClass {
			return &rb2.DeviceClass{Spec: rb2.DeviceClassSpec{Selectors: []rb2.DeviceSelector{{CEL: &rb2.CELDeviceSelector{}}}}}
		},
		probe:    func(o *rb2.DeviceClass) string { return fromCEL(o.Spec.Selectors[0].CEL.Expression) },
		setProbe: func(o *rb2.DeviceClass, v string) { o.Spec.Selectors[0].CEL.Expression = toCEL(v) },
		apply: func(name, _, v string) *acb2.DeviceClassApplyConfiguration {
			return acb2.DeviceClass(name).WithSpec(acb2.DeviceClassSpec().WithSelectors(
				acb2.DeviceSelector().WithCEL(acb2.CELDeviceSelector().WithExpression(toCEL(v)))))
		},
		extract: acb2.ExtractDeviceClass,
		extractedProbe: func(a *acb2.DeviceClassApplyConfiguration) *string {
			if a.Spec == nil || len(a.Spec.Selectors) != 1 || a.Spec.Selectors[0].CEL == nil {
				return nil
			}
			return fromCELPtr(a.Spec.Selectors[0].CEL.Expression)
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rb2.DeviceClass] {
			l := f.Resource().V1beta2().DeviceClasses().Lister()
			return listerFuncs[*rb2.DeviceClass]{l.List, func(_, n string) (*rb2.DeviceClass, error) { return l.Get(n) }}
		},
	},
	kind[*rb2.ResourceClaim, *rb2.ResourceClaimList, *acb2.ResourceClaimApplyConfiguration, tcb2.ResourceClaimInterface]{
		version: "v1beta2", kind: "ResourceClaim", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tcb2.ResourceClaimInterface {
			return cs.ResourceV1beta2().ResourceClaims(ns)
		},
		newObject: func() *rb2.ResourceClaim {
			return &rb2.ResourceClaim{Spec: rb2.ResourceClaimSpec{Devices: rb2.DeviceClaim{
				Requests: []rb2.DeviceRequest{{Name: "req", Exactly: &rb2.ExactDeviceRequest{AllocationMode: rb2.DeviceAllocationModeExactCount, Count: 1}}},
			}}}
		},
		probe:    func(o *rb2.ResourceClaim) string { return o.Spec.Devices.Requests[0].Exactly.DeviceClassName },
		setProbe: func(o *rb2.ResourceClaim, v string) { o.Spec.Devices.Requests[0].Exactly.DeviceClassName = v },
		setStatus: func(o *rb2.ResourceClaim) {
			o.Status.Allocation = &rb2.AllocationResult{Devices: rb2.DeviceAllocationResult{Results: []rb2.DeviceRequestAllocationResult{
				{Request: "req", Driver: "driver.example.com", Pool: "pool", Device: "gpu-0"},
			}}}
			o.Status.ReservedFor = []rb2.ResourceClaimConsumerReference{{Resource: "pods", Name: "pod-1", UID: "uid-1"}}
		},
		hasStatus: func(o *rb2.ResourceClaim) bool { return len(o.Status.ReservedFor) == 1 },
		applyStatus: func(name, ns string) *acb2.ResourceClaimApplyConfiguration {
			return acb2.ResourceClaim(name, ns).WithStatus(acb2.ResourceClaimStatus().WithReservedFor(
				acb2.ResourceClaimConsumerReference().WithResource("pods").WithName("pod-1").WithUID("uid-1")))
		},
		extractStatus: acb2.ExtractResourceClaimStatus,
		apply: func(name, ns, v string) *acb2.ResourceClaimApplyConfiguration {
			return acb2.ResourceClaim(name, ns).WithSpec(acb2.ResourceClaimSpec().WithDevices(acb2.DeviceClaim().
				WithRequests(acb2.DeviceRequest().WithName("req").WithExactly(acb2.ExactDeviceRequest().WithDeviceClassName(v)))))
		},
		extract: acb2.ExtractResourceClaim,
		extractedProbe: func(a *acb2.ResourceClaimApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return b2RequestProbe(a.Spec.Devices)
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rb2.ResourceClaim] {
			l := f.Resource().V1beta2().ResourceClaims().Lister()
			return listerFuncs[*rb2.ResourceClaim]{l.List, func(ns, n string) (*rb2.ResourceClaim, error) { return l.ResourceClaims(ns).Get(n) }}
		},
	},
	kind[*rb2.ResourceClaimTemplate, *rb2.ResourceClaimTemplateList, *acb2.ResourceClaimTemplateApplyConfiguration, tcb2.ResourceClaimTemplateInterface]{
		version: "v1beta2", kind: "ResourceClaimTemplate", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tcb2.ResourceClaimTemplateInterface {
			return cs.ResourceV1beta2().ResourceClaimTemplates(ns)
		},
		newObject: func() *rb2.ResourceClaimTemplate {
			return &rb2.ResourceClaimTemplate{Spec: rb2.ResourceClaimTemplateSpec{Spec: rb2.ResourceClaimSpec{Devices: rb2.DeviceClaim{
				Requests: []rb2.DeviceRequest{{Name: "req", Exactly: &rb2.ExactDeviceRequest{AllocationMode: rb2.DeviceAllocationModeExactCount, Count: 1}}},
			}}}}
		},
		probe: func(o *rb2.ResourceClaimTemplate) string {
			return o.Spec.Spec.Devices.Requests[0].Exactly.DeviceClassName
		},
		setProbe: func(o *rb2.ResourceClaimTemplate, v string) {
			o.Spec.Spec.Devices.Requests[0].Exactly.DeviceClassName = v
		},
		apply: func(name, ns, v string) *acb2.ResourceClaimTemplateApplyConfiguration {
			return acb2.ResourceClaimTemplate(name, ns).WithSpec(acb2.ResourceClaimTemplateSpec().
				WithSpec(acb2.ResourceClaimSpec().WithDevices(acb2.DeviceClaim().
					WithRequests(acb2.DeviceRequest().WithName("req").WithExactly(acb2.ExactDeviceRequest().WithDeviceClassName(v))))))
		},
		extract: acb2.ExtractResourceClaimTemplate,
		extractedProbe: func(a *acb2.ResourceClaimTemplateApplyConfiguration) *string {
			if a.Spec == nil || a.Spec.Spec == nil {
				return nil
			}
			return b2RequestProbe(a.Spec.Spec.Devices)
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rb2.ResourceClaimTemplate] {
			l := f.Resource().V1beta2().ResourceClaimTemplates().Lister()
			return listerFuncs[*rb2.ResourceClaimTemplate]{l.List, func(ns, n string) (*rb2.ResourceClaimTemplate, error) { return l.ResourceClaimTemplates(ns).Get(n) }}
		},
	},
	kind[*rb2.ResourceSlice, *rb2.ResourceSliceList, *acb2.ResourceSliceApplyConfiguration, tcb2.ResourceSliceInterface]{
		version: "v1beta2", kind: "ResourceSlice",
		client: func(cs *fake.Clientset, _ string) tcb2.ResourceSliceInterface {
			return cs.ResourceV1beta2().ResourceSlices()
		},
		newObject: func() *rb2.ResourceSlice {
			return &rb2.ResourceSlice{Spec: rb2.ResourceSliceSpec{
				Pool:     rb2.ResourcePool{Name: "pool", ResourceSliceCount: 1},
				NodeName: ptr("node-1"),
				Devices:  []rb2.Device{{Name: "gpu-0"}},
			}}
		},
		probe:    func(o *rb2.ResourceSlice) string { return o.Spec.Driver },
		setProbe: func(o *rb2.ResourceSlice, v string) { o.Spec.Driver = v },
		apply: func(name, _, v string) *acb2.ResourceSliceApplyConfiguration {
			return acb2.ResourceSlice(name).WithSpec(acb2.ResourceSliceSpec().WithDriver(v))
		},
		extract: acb2.ExtractResourceSlice,
		extractedProbe: func(a *acb2.ResourceSliceApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return a.Spec.Driver
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rb2.ResourceSlice] {
			l := f.Resource().V1beta2().ResourceSlices().Lister()
			return listerFuncs[*rb2.ResourceSlice]{l.List, func(_, n string) (*rb2.ResourceSlice, error) { return l.Get(n) }}
		},
	},
	kind[*rb2.DeviceTaintRule, *rb2.DeviceTaintRuleList, *acb2.DeviceTaintRuleApplyConfiguration, tcb2.DeviceTaintRuleInterface]{
		version: "v1beta2", kind: "DeviceTaintRule",
		client: func(cs *fake.Clientset, _ string) tcb2.DeviceTaintRuleInterface {
			return cs.ResourceV1beta2().DeviceTaintRules()
		},
		newObject: func() *rb2.DeviceTaintRule {
			return &rb2.DeviceTaintRule{Spec: rb2.DeviceTaintRuleSpec{
				DeviceSelector: &rb2.DeviceTaintSelector{Driver: ptr("driver.example.com"), Pool: ptr("pool")},
				Taint:          rb2.DeviceTaint{Effect: rb2.DeviceTaintEffectNoSchedule},
			}}
		},
		probe:    func(o *rb2.DeviceTaintRule) string { return o.Spec.Taint.Key },
		setProbe: func(o *rb2.DeviceTaintRule, v string) { o.Spec.Taint.Key = v },
		setStatus: func(o *rb2.DeviceTaintRule) {
			o.Status.Conditions = []metav1.Condition{condition(rb2.DeviceTaintConditionEvictionInProgress, metav1.ConditionFalse, "NoEffect")}
		},
		hasStatus: func(o *rb2.DeviceTaintRule) bool { return len(o.Status.Conditions) == 1 },
		applyStatus: func(name, _ string) *acb2.DeviceTaintRuleApplyConfiguration {
			return acb2.DeviceTaintRule(name).WithStatus(acb2.DeviceTaintRuleStatus().WithConditions(conditionApply("EvictionInProgress", metav1.ConditionFalse, "NoEffect")))
		},
		extractStatus: acb2.ExtractDeviceTaintRuleStatus,
		apply: func(name, _, v string) *acb2.DeviceTaintRuleApplyConfiguration {
			return acb2.DeviceTaintRule(name).WithSpec(acb2.DeviceTaintRuleSpec().WithTaint(acb2.DeviceTaint().WithKey(v)))
		},
		extract: acb2.ExtractDeviceTaintRule,
		extractedProbe: func(a *acb2.DeviceTaintRuleApplyConfiguration) *string {
			if a.Spec == nil || a.Spec.Taint == nil {
				return nil
			}
			return a.Spec.Taint.Key
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rb2.DeviceTaintRule] {
			l := f.Resource().V1beta2().DeviceTaintRules().Lister()
			return listerFuncs[*rb2.DeviceTaintRule]{l.List, func(_, n string) (*rb2.DeviceTaintRule, error) { return l.Get(n) }}
		},
	},

	// v1
	kind[*rv1.DeviceClass, *rv1.DeviceClassList, *acv1.DeviceClassApplyConfiguration, tcv1.DeviceClassInterface]{
		version: "v1", kind: "DeviceClass",
		client: func(cs *fake.Clientset, _ string) tcv1.DeviceClassInterface {
			return cs.ResourceV1().DeviceClasses()
		},
		newObject: func() *rv1.DeviceClass {
			return &rv1.DeviceClass{Spec: rv1.DeviceClassSpec{Selectors: []rv1.DeviceSelector{{CEL: &rv1.CELDeviceSelector{}}}}}
		},
		probe:    func(o *rv1.DeviceClass) string { return fromCEL(o.Spec.Selectors[0].CEL.Expression) },
		setProbe: func(o *rv1.DeviceClass, v string) { o.Spec.Selectors[0].CEL.Expression = toCEL(v) },
		apply: func(name, _, v string) *acv1.DeviceClassApplyConfiguration {
			return acv1.DeviceClass(name).WithSpec(acv1.DeviceClassSpec().WithSelectors(
				acv1.DeviceSelector().WithCEL(acv1.CELDeviceSelector().WithExpression(toCEL(v)))))
		},
		extract: acv1.ExtractDeviceClass,
		extractedProbe: func(a *acv1.DeviceClassApplyConfiguration) *string {
			if a.Spec == nil || len(a.Spec.Selectors) != 1 || a.Spec.Selectors[0].CEL == nil {
				return nil
			}
			return fromCELPtr(a.Spec.Selectors[0].CEL.Expression)
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rv1.DeviceClass] {
			l := f.Resource().V1().DeviceClasses().Lister()
			return listerFuncs[*rv1.DeviceClass]{l.List, func(_, n string) (*rv1.DeviceClass, error) { return l.Get(n) }}
		},
	},
	kind[*rv1.ResourceClaim, *rv1.ResourceClaimList, *acv1.ResourceClaimApplyConfiguration, tcv1.ResourceClaimInterface]{
		version: "v1", kind: "ResourceClaim", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tcv1.ResourceClaimInterface {
			return cs.ResourceV1().ResourceClaims(ns)
		},
		newObject: func() *rv1.ResourceClaim {
			return &rv1.ResourceClaim{Spec: rv1.ResourceClaimSpec{Devices: rv1.DeviceClaim{
				Requests: []rv1.DeviceRequest{{Name: "req", Exactly: &rv1.ExactDeviceRequest{AllocationMode: rv1.DeviceAllocationModeExactCount, Count: 1}}},
			}}}
		},
		probe:    func(o *rv1.ResourceClaim) string { return o.Spec.Devices.Requests[0].Exactly.DeviceClassName },
		setProbe: func(o *rv1.ResourceClaim, v string) { o.Spec.Devices.Requests[0].Exactly.DeviceClassName = v },
		setStatus: func(o *rv1.ResourceClaim) {
			o.Status.Allocation = &rv1.AllocationResult{Devices: rv1.DeviceAllocationResult{Results: []rv1.DeviceRequestAllocationResult{
				{Request: "req", Driver: "driver.example.com", Pool: "pool", Device: "gpu-0"},
			}}}
			o.Status.ReservedFor = []rv1.ResourceClaimConsumerReference{{Resource: "pods", Name: "pod-1", UID: "uid-1"}}
		},
		hasStatus: func(o *rv1.ResourceClaim) bool { return len(o.Status.ReservedFor) == 1 },
		applyStatus: func(name, ns string) *acv1.ResourceClaimApplyConfiguration {
			return acv1.ResourceClaim(name, ns).WithStatus(acv1.ResourceClaimStatus().WithReservedFor(
				acv1.ResourceClaimConsumerReference().WithResource("pods").WithName("pod-1").WithUID("uid-1")))
		},
		extractStatus: acv1.ExtractResourceClaimStatus,
		apply: func(name, ns, v string) *acv1.ResourceClaimApplyConfiguration {
			return acv1.ResourceClaim(name, ns).WithSpec(acv1.ResourceClaimSpec().WithDevices(acv1.DeviceClaim().
				WithRequests(acv1.DeviceRequest().WithName("req").WithExactly(acv1.ExactDeviceRequest().WithDeviceClassName(v)))))
		},
		extract: acv1.ExtractResourceClaim,
		extractedProbe: func(a *acv1.ResourceClaimApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return v1RequestProbe(a.Spec.Devices)
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rv1.ResourceClaim] {
			l := f.Resource().V1().ResourceClaims().Lister()
			return listerFuncs[*rv1.ResourceClaim]{l.List, func(ns, n string) (*rv1.ResourceClaim, error) { return l.ResourceClaims(ns).Get(n) }}
		},
	},
	kind[*rv1.ResourceClaimTemplate, *rv1.ResourceClaimTemplateList, *acv1.ResourceClaimTemplateApplyConfiguration, tcv1.ResourceClaimTemplateInterface]{
		version: "v1", kind: "ResourceClaimTemplate", namespaced: true,
		client: func(cs *fake.Clientset, ns string) tcv1.ResourceClaimTemplateInterface {
			return cs.ResourceV1().ResourceClaimTemplates(ns)
		},
		newObject: func() *rv1.ResourceClaimTemplate {
			return &rv1.ResourceClaimTemplate{Spec: rv1.ResourceClaimTemplateSpec{Spec: rv1.ResourceClaimSpec{Devices: rv1.DeviceClaim{
				Requests: []rv1.DeviceRequest{{Name: "req", Exactly: &rv1.ExactDeviceRequest{AllocationMode: rv1.DeviceAllocationModeExactCount, Count: 1}}},
			}}}}
		},
		probe: func(o *rv1.ResourceClaimTemplate) string {
			return o.Spec.Spec.Devices.Requests[0].Exactly.DeviceClassName
		},
		setProbe: func(o *rv1.ResourceClaimTemplate, v string) {
			o.Spec.Spec.Devices.Requests[0].Exactly.DeviceClassName = v
		},
		apply: func(name, ns, v string) *acv1.ResourceClaimTemplateApplyConfiguration {
			return acv1.ResourceClaimTemplate(name, ns).WithSpec(acv1.ResourceClaimTemplateSpec().
				WithSpec(acv1.ResourceClaimSpec().WithDevices(acv1.DeviceClaim().
					WithRequests(acv1.DeviceRequest().WithName("req").WithExactly(acv1.ExactDeviceRequest().WithDeviceClassName(v))))))
		},
		extract: acv1.ExtractResourceClaimTemplate,
		extractedProbe: func(a *acv1.ResourceClaimTemplateApplyConfiguration) *string {
			if a.Spec == nil || a.Spec.Spec == nil {
				return nil
			}
			return v1RequestProbe(a.Spec.Spec.Devices)
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rv1.ResourceClaimTemplate] {
			l := f.Resource().V1().ResourceClaimTemplates().Lister()
			return listerFuncs[*rv1.ResourceClaimTemplate]{l.List, func(ns, n string) (*rv1.ResourceClaimTemplate, error) { return l.ResourceClaimTemplates(ns).Get(n) }}
		},
	},
	kind[*rv1.ResourceSlice, *rv1.ResourceSliceList, *acv1.ResourceSliceApplyConfiguration, tcv1.ResourceSliceInterface]{
		version: "v1", kind: "ResourceSlice",
		client: func(cs *fake.Clientset, _ string) tcv1.ResourceSliceInterface {
			return cs.ResourceV1().ResourceSlices()
		},
		newObject: func() *rv1.ResourceSlice {
			return &rv1.ResourceSlice{Spec: rv1.ResourceSliceSpec{
				Pool:     rv1.ResourcePool{Name: "pool", ResourceSliceCount: 1},
				NodeName: ptr("node-1"),
				Devices:  []rv1.Device{{Name: "gpu-0"}},
			}}
		},
		probe:    func(o *rv1.ResourceSlice) string { return o.Spec.Driver },
		setProbe: func(o *rv1.ResourceSlice, v string) { o.Spec.Driver = v },
		apply: func(name, _, v string) *acv1.ResourceSliceApplyConfiguration {
			return acv1.ResourceSlice(name).WithSpec(acv1.ResourceSliceSpec().WithDriver(v))
		},
		extract: acv1.ExtractResourceSlice,
		extractedProbe: func(a *acv1.ResourceSliceApplyConfiguration) *string {
			if a.Spec == nil {
				return nil
			}
			return a.Spec.Driver
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rv1.ResourceSlice] {
			l := f.Resource().V1().ResourceSlices().Lister()
			return listerFuncs[*rv1.ResourceSlice]{l.List, func(_, n string) (*rv1.ResourceSlice, error) { return l.Get(n) }}
		},
	},
	kind[*rv1.DeviceTaintRule, *rv1.DeviceTaintRuleList, *acv1.DeviceTaintRuleApplyConfiguration, tcv1.DeviceTaintRuleInterface]{
		version: "v1", kind: "DeviceTaintRule",
		client: func(cs *fake.Clientset, _ string) tcv1.DeviceTaintRuleInterface {
			return cs.ResourceV1().DeviceTaintRules()
		},
		newObject: func() *rv1.DeviceTaintRule {
			return &rv1.DeviceTaintRule{Spec: rv1.DeviceTaintRuleSpec{
				DeviceSelector: &rv1.DeviceTaintSelector{Driver: ptr("driver.example.com"), Pool: ptr("pool")},
				Taint:          rv1.DeviceTaint{Effect: rv1.DeviceTaintEffectNoSchedule},
			}}
		},
		probe:    func(o *rv1.DeviceTaintRule) string { return o.Spec.Taint.Key },
		setProbe: func(o *rv1.DeviceTaintRule, v string) { o.Spec.Taint.Key = v },
		setStatus: func(o *rv1.DeviceTaintRule) {
			o.Status.Conditions = []metav1.Condition{condition(rv1.DeviceTaintConditionEvictionInProgress, metav1.ConditionFalse, "NoEffect")}
		},
		hasStatus: func(o *rv1.DeviceTaintRule) bool { return len(o.Status.Conditions) == 1 },
		applyStatus: func(name, _ string) *acv1.DeviceTaintRuleApplyConfiguration {
			return acv1.DeviceTaintRule(name).WithStatus(acv1.DeviceTaintRuleStatus().WithConditions(conditionApply("EvictionInProgress", metav1.ConditionFalse, "NoEffect")))
		},
		extractStatus: acv1.ExtractDeviceTaintRuleStatus,
		apply: func(name, _, v string) *acv1.DeviceTaintRuleApplyConfiguration {
			return acv1.DeviceTaintRule(name).WithSpec(acv1.DeviceTaintRuleSpec().WithTaint(acv1.DeviceTaint().WithKey(v)))
		},
		extract: acv1.ExtractDeviceTaintRule,
		extractedProbe: func(a *acv1.DeviceTaintRuleApplyConfiguration) *string {
			if a.Spec == nil || a.Spec.Taint == nil {
				return nil
			}
			return a.Spec.Taint.Key
		},
		lister: func(f informers.SharedInformerFactory) listerFuncs[*rv1.DeviceTaintRule] {
			l := f.Resource().V1().DeviceTaintRules().Lister()
			return listerFuncs[*rv1.DeviceTaintRule]{l.List, func(_, n string) (*rv1.DeviceTaintRule, error) { return l.Get(n) }}
		},
	},
}

// b1RequestProbe, b2RequestProbe and v1RequestProbe read the probe of an
// extracted claim spec: the device class of its only request.
func b1RequestProbe(d *acb1.DeviceClaimApplyConfiguration) *string {
	if d == nil || len(d.Requests) != 1 {
		return nil
	}
	return d.Requests[0].DeviceClassName
}

func b2RequestProbe(d *acb2.DeviceClaimApplyConfiguration) *string {
	if d == nil || len(d.Requests) != 1 || d.Requests[0].Exactly == nil {
		return nil
	}
	return d.Requests[0].Exactly.DeviceClassName
}

func v1RequestProbe(d *acv1.DeviceClaimApplyConfiguration) *string {
	if d == nil || len(d.Requests) != 1 || d.Requests[0].Exactly == nil {
		return nil
	}
	return d.Requests[0].Exactly.DeviceClassName
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
