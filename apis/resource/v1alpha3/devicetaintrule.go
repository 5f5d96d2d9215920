package v1alpha3

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// This file holds DeviceTaintRule, which resource.k8s.io/v1alpha3 serves
// from Kubernetes 1.33 on, in its 1.37 shape (status since 1.35, the
// selector without deviceClassName and selectors since 1.35). The kinds of
// types.go are those of 1.31.

// DeviceTaint is a taint on a device. Claims that do not tolerate it,
// and through them the pods using those claims, are subject to its
// effect.
//
// +protobuf.options.(gogoproto.goproto_stringer)=false
type DeviceTaint struct {
	// Key identifies the taint. It must be a label name.
	//
	// +required
	Key string `json:"key" protobuf:"bytes,1,name=key"`

	// Value goes with the key. It must be a label value.
	//
	// +optional
	Value string `json:"value,omitempty" protobuf:"bytes,2,opt,name=value"`

	// Effect is what the taint does to claims that do not tolerate it:
	// None (informational only, since 1.35), NoSchedule or NoExecute.
	// PreferNoSchedule, known from node taints, is not allowed. Effects
	// a consumer does not know must be treated like None.
	//
	// +required
	Effect DeviceTaintEffect `json:"effect" protobuf:"bytes,3,name=effect,casttype=DeviceTaintEffect"`

	// TimeAdded is when the taint was added or, in a DeviceTaintRule,
	// when its effect last changed. Set to the current time on create or
	// update when missing; in a DeviceTaintRule an update that changes
	// the effect but keeps the old time gets the current time instead.
	//
	// +optional
	TimeAdded *metav1.Time `json:"timeAdded,omitempty" protobuf:"bytes,4,opt,name=timeAdded"`
}

// String writes the taint as key=value:effect, leaving out "=value" when
// the value is empty and ":effect" when the effect is empty (the colon
// stays when only the effect is empty and a value is set).
func (t DeviceTaint) String() string {
	s := t.Key
	if t.Value != "" {
		s += "=" + t.Value
	}
	switch {
	case t.Effect != "":
		s += ":" + string(t.Effect)
	case t.Value != "":
		s += ":"
	}
	return s
}

var _ fmt.Stringer = DeviceTaint{}

// DeviceTaintEffect is the effect of a device taint.
//
// +enum
type DeviceTaintEffect string

const (
	// DeviceTaintEffectNone has no effect: the taint only informs.
	DeviceTaintEffectNone DeviceTaintEffect = "None"

	// DeviceTaintEffectNoSchedule keeps new pods that use the device
	// without tolerating the taint from being scheduled. Pods already
	// running, and pods given to the kubelet without the scheduler, are
	// left alone.
	DeviceTaintEffectNoSchedule DeviceTaintEffect = "NoSchedule"

	// DeviceTaintEffectNoExecute also evicts running pods that use the
	// device without tolerating the taint.
	DeviceTaintEffectNoExecute DeviceTaintEffect = "NoExecute"
)

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DeviceTaintRule puts one taint on every device its selector matches,
// as if the driver had listed the taint on those devices in their
// ResourceSlices. Cluster-scoped; has a status subresource.
//
// Alpha since 1.33; served only when resource.k8s.io/v1alpha3 is enabled
// (off by default). The scheduler and the eviction controller act on it
// under the DRADeviceTaints gate (and, from 1.35, DRADeviceTaintRules).
type DeviceTaintRule struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the object.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is the selector and the taint. Any change to it increments
	// metadata.generation.
	//
	// +required
	Spec DeviceTaintRuleSpec `json:"spec" protobuf:"bytes,2,name=spec"`

	// Status reports on the effect of the rule, such as a pending
	// eviction. Since 1.35.
	//
	// +optional
	Status DeviceTaintRuleStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// DeviceTaintRuleSpec is the selector and the taint of a DeviceTaintRule.
type DeviceTaintRuleSpec struct {
	// DeviceSelector chooses the tainted devices: a device must satisfy
	// every criterion that is set, so an empty selector matches every
	// device, while no selector at all matches none.
	//
	// +optional
	DeviceSelector *DeviceTaintSelector `json:"deviceSelector,omitempty" protobuf:"bytes,1,opt,name=deviceSelector"`

	// Taint is put on each matching device.
	//
	// +required
	Taint DeviceTaint `json:"taint,omitempty" protobuf:"bytes,2,rep,name=taint"`
}

// DeviceTaintSelector chooses devices by driver, pool and device name.
// Every field that is set must match; an empty selector matches every
// device.
type DeviceTaintSelector struct {
	// Tombstone: pb 1 was deviceClassName (*string), removed in 1.35.

	// Driver, when set, matches only devices of this driver
	// (spec.driver of their ResourceSlice).
	//
	// +optional
	Driver *string `json:"driver,omitempty" protobuf:"bytes,2,opt,name=driver"`

	// Pool, when set, matches only devices of pools with this name. The
	// driver need not be set too: pools of several drivers may share a
	// name on purpose (for example the node name).
	//
	// +optional
	Pool *string `json:"pool,omitempty" protobuf:"bytes,3,opt,name=pool"`

	// Device, when set, matches only devices with this name
	// (spec.devices[].name of their ResourceSlice). Setting driver and
	// pool as well avoids matching equally named devices elsewhere.
	//
	// +optional
	Device *string `json:"device,omitempty" protobuf:"bytes,4,opt,name=device"`

	// Tombstone: pb 5 was selectors ([]DeviceSelector), removed in 1.35.
}

// DeviceTaintRuleStatus reports on what a DeviceTaintRule causes, in
// particular on the eviction of pods.
type DeviceTaintRuleStatus struct {
	// Conditions describe the state of the rule, keyed by type, at most
	// 8. The defined type is EvictionInProgress: True while pods still
	// have to be evicted, False otherwise (also for effects that evict
	// nothing); its message counts pending and evicted pods. For effect
	// None it is written once per spec change and tells what NoExecute
	// would do.
	//
	// +optional
	// +listType=map
	// +listMapKey=type
	// +patchStrategy=merge
	// +patchMergeKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,1,rep,name=conditions"`
}

// DeviceTaintRuleStatusMaxConditions is the maximum number of conditions
// in a DeviceTaintRule's status.
const DeviceTaintRuleStatusMaxConditions = 8

// DeviceTaintConditionEvictionInProgress is the condition type that
// tells whether a DeviceTaintRule still has pods to evict.
const DeviceTaintConditionEvictionInProgress = "EvictionInProgress"

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// DeviceTaintRuleList is a list of DeviceTaintRules.
type DeviceTaintRuleList struct {
	metav1.TypeMeta `json:",inline"`
	// Metadata of the list.
	// +optional
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the DeviceTaintRules of the list.
	Items []DeviceTaintRule `json:"items" protobuf:"bytes,2,rep,name=items"`
}
