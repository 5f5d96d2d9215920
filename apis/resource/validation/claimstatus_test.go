package validation

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// allocating is a status update from the unallocated claim to v1Allocated
// changed by f.
func allocating(name string, f func(st *resourcev1.ResourceClaimStatus), want ...string) v1Case {
	return v1Case{name: name, op: opStatus, old: v1Claim(), obj: v1Allocated(func(c *resourcev1.ResourceClaim) { f(&c.Status) }), want: want}
}

func result0(st *resourcev1.ResourceClaimStatus) *resourcev1.DeviceRequestAllocationResult {
	return &st.Allocation.Devices.Results[0]
}

const (
	res0  = "status.allocation.devices.results[0]"
	acfg0 = "status.allocation.devices.config[0]"
	dev0  = "status.devices[0]"
)

func TestV1ClaimStatusReservedFor(t *testing.T) {
	pod2 := resourcev1.ResourceClaimConsumerReference{Resource: "pods", Name: "pod-2", UID: "uid-2"}
	deleting := func(c *resourcev1.ResourceClaim) { c.DeletionTimestamp = &deletedAt }
	runV1Cases(t, []v1Case{
		{name: "without allocation", op: opStatus, old: v1Claim(),
			obj: v1Claim(func(c *resourcev1.ResourceClaim) {
				c.Status.ReservedFor = []resourcev1.ResourceClaimConsumerReference{pod1v1}
			}),
			want: []string{"Forbidden status.reservedFor"}},
		allocating("duplicate uid", func(st *resourcev1.ResourceClaimStatus) {
			st.ReservedFor = append(st.ReservedFor, resourcev1.ResourceClaimConsumerReference{Resource: "jobs", Name: "j", UID: pod1v1.UID})
		}, "Duplicate status.reservedFor[2]"),
		allocating("fields required", func(st *resourcev1.ResourceClaimStatus) {
			st.ReservedFor = []resourcev1.ResourceClaimConsumerReference{{APIGroup: "apps"}}
		}, "Required status.reservedFor[0].resource", "Required status.reservedFor[0].name", "Required status.reservedFor[0].uid"),
		allocating("too many", func(st *resourcev1.ResourceClaimStatus) {
			for i := 0; len(st.ReservedFor) <= V1ReservedForMaxSize; i++ {
				st.ReservedFor = append(st.ReservedFor, resourcev1.ResourceClaimConsumerReference{UID: types.UID(fmt.Sprint(i))})
			}
		}, "TooMany status.reservedFor"),
		{name: "no new entries while deleting", op: opStatus, old: v1Allocated(deleting),
			obj: v1Allocated(deleting, func(c *resourcev1.ResourceClaim) {
				c.Status.ReservedFor = append(c.Status.ReservedFor, pod2)
			}), want: []string{"Forbidden status.reservedFor"}},
		{name: "entries may go while deleting", op: opStatus, old: v1Allocated(deleting),
			obj: v1Allocated(deleting, func(c *resourcev1.ResourceClaim) { c.Status.ReservedFor = nil })},
		{name: "new entries while allocated", op: opStatus, old: v1Allocated(),
			obj: v1Allocated(func(c *resourcev1.ResourceClaim) { c.Status.ReservedFor = append(c.Status.ReservedFor, pod2) })},
	})
}

func TestV1ClaimStatusAllocation(t *testing.T) {
	share := func(s string) *types.UID { u := types.UID(s); return &u }
	runV1Cases(t, []v1Case{
		{name: "allocation may not change", op: opStatus, old: v1Allocated(),
			obj:  v1Allocated(func(c *resourcev1.ResourceClaim) { c.Status.Allocation.Devices.Results[2].Device = "nic-1" }),
			want: []string{"Invalid status.allocation"}, details: []string{"Invalid status.allocation: field cannot be modified once set"}},
		{name: "a stored allocation is not validated again", op: opStatus,
			old: v1Allocated(func(c *resourcev1.ResourceClaim) { c.Status.Allocation.Devices.Results[2].Pool = "Old_Pool" }),
			obj: v1Allocated(func(c *resourcev1.ResourceClaim) { c.Status.Allocation.Devices.Results[2].Pool = "Old_Pool" })},
		allocating("unknown request", func(st *resourcev1.ResourceClaimStatus) { result0(st).Request = "nic" }), // "nic" has sub-requests, but the request alone is a valid reference.

		allocating("unknown sub-request", func(st *resourcev1.ResourceClaimStatus) { result0(st).Request = "nic/medium" },
			"Invalid "+res0+".request"),
		allocating("too many results", func(st *resourcev1.ResourceClaimStatus) {
			for len(st.Allocation.Devices.Results) <= V1AllocationResultsMaxSize {
				st.Allocation.Devices.Results = append(st.Allocation.Devices.Results, resourcev1.DeviceRequestAllocationResult{})
			}
		}, "TooMany status.allocation.devices.results"),
		allocating("driver required", func(st *resourcev1.ResourceClaimStatus) { result0(st).Driver = "" },
			"Required "+res0+".driver", "Invalid status.devices[0]"),
		allocating("pool", func(st *resourcev1.ResourceClaimStatus) { result0(st).Pool = "node-1//x" },
			"Invalid "+res0+".pool", "Invalid status.devices[0]"),
		allocating("device", func(st *resourcev1.ResourceClaimStatus) { result0(st).Device = "GPU-0" },
			"Invalid "+res0+".device", "Invalid status.devices[0]"),
		allocating("shareID", func(st *resourcev1.ResourceClaimStatus) { result0(st).ShareID = share("not-a-uuid") },
			"Invalid "+res0+".shareID", "Invalid status.devices[0]"),
		allocating("upper-case shareID", func(st *resourcev1.ResourceClaimStatus) { result0(st).ShareID = share(strings.ToUpper(shareID1)) },
			"Invalid "+res0+".shareID", "Invalid status.devices[0]"),
		allocating("tolerations", func(st *resourcev1.ResourceClaimStatus) { result0(st).Tolerations[1].Value = "x" },
			"Invalid "+res0+".tolerations[1].value"),
		allocating("skipping prepare needs unprepare", func(st *resourcev1.ResourceClaimStatus) {
			result0(st).SkipNodeOperations = []resourcev1.SkipNodeOperation{resourcev1.SkipNodeOperationNodePrepareResources}
		}, "Invalid "+res0+".skipNodeOperations"),
		allocating("skip operation value", func(st *resourcev1.ResourceClaimStatus) {
			result0(st).SkipNodeOperations = []resourcev1.SkipNodeOperation{"NodeStageResources", resourcev1.SkipNodeOperationAll, resourcev1.SkipNodeOperationAll}
		}, "NotSupported "+res0+".skipNodeOperations[0]", "Duplicate "+res0+".skipNodeOperations[2]"),
		allocating("config source required", func(st *resourcev1.ResourceClaimStatus) { st.Allocation.Devices.Config[0].Source = "" },
			"Required "+acfg0+".source"),
		allocating("config source", func(st *resourcev1.ResourceClaimStatus) { st.Allocation.Devices.Config[0].Source = "FromNode" },
			"NotSupported "+acfg0+".source"),
		allocating("config requests", func(st *resourcev1.ResourceClaimStatus) {
			st.Allocation.Devices.Config[0].Requests = []string{"gpu", "gpu", "tpu"}
		},
			"Duplicate "+acfg0+".requests[1]", "Invalid "+acfg0+".requests[2]"),
		allocating("config opaque", func(st *resourcev1.ResourceClaimStatus) { st.Allocation.Devices.Config[0].Opaque = nil },
			"Required "+acfg0+".opaque"),
		allocating("too many configs", func(st *resourcev1.ResourceClaimStatus) {
			for len(st.Allocation.Devices.Config) <= V1AllocationConfigMaxSize {
				st.Allocation.Devices.Config = append(st.Allocation.Devices.Config, resourcev1.DeviceAllocationConfiguration{})
			}
		}, "TooMany status.allocation.devices.config"),
		allocating("node selector terms", func(st *resourcev1.ResourceClaimStatus) { st.Allocation.NodeSelector.NodeSelectorTerms = nil },
			"Required status.allocation.nodeSelector.nodeSelectorTerms"),
		allocating("node selector label value", func(st *resourcev1.ResourceClaimStatus) {
			st.Allocation.NodeSelector.NodeSelectorTerms[0].MatchExpressions = []corev1.NodeSelectorRequirement{
				{Key: "bad key", Operator: corev1.NodeSelectorOpIn, Values: []string{"a b"}},
			}
		}, "Invalid status.allocation.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].key",
			"Invalid status.allocation.nodeSelector.nodeSelectorTerms[0].matchExpressions[0].values[0]"),
	})
	t.Run("driver and pool have the declarative wording", func(t *testing.T) {
		env, _ := testEnvV1(nil)
		errs := validateV1(env, opStatus, v1Allocated(func(c *resourcev1.ResourceClaim) {
			result0(&c.Status).Pool = "node-1//x"
			c.Status.Allocation.Devices.Results[1].Driver = "dra_example.com"
		}), v1Claim(), Options{})
		expectDetails(t, errs, "Invalid "+res0+".pool: segment 1: must not be empty",
			"Invalid status.allocation.devices.results[1].driver: (e.g. 'Example.com'",
			"Invalid "+dev0+": must be an allocated device in the claim")
	})
}

func TestV1ClaimStatusBinding(t *testing.T) {
	bc := func(name string, conds, failures []string, want ...string) v1Case {
		return allocating(name, func(st *resourcev1.ResourceClaimStatus) {
			result0(st).BindingConditions, result0(st).BindingFailureConditions = conds, failures
		}, want...)
	}
	runV1Cases(t, []v1Case{
		bc("none", nil, nil),
		bc("failure conditions need conditions", nil, []string{"f"}, "Invalid "+res0+".bindingConditions"),
		bc("conditions need failure conditions", []string{"c"}, nil, "Invalid "+res0+".bindingFailureConditions"),
		bc("overlap", []string{"c"}, []string{"c"}, "Invalid "+res0+".bindingFailureConditions[0]"),
		bc("duplicates", []string{"c", "c"}, []string{"f", "f"}, "Duplicate "+res0+".bindingConditions[1]", "Duplicate "+res0+".bindingFailureConditions[1]"),
		bc("label names", []string{"bad key"}, []string{"f"}, "Invalid "+res0+".bindingConditions[0]"),
		bc("too many", []string{"a", "b", "c", "d", "e"}, []string{"f", "g", "h", "i", "bad key"},
			"TooMany "+res0+".bindingConditions", "TooMany "+res0+".bindingFailureConditions"),
	})
}

func TestV1ClaimStatusDevices(t *testing.T) {
	dev := func(name string, f func(d *resourcev1.AllocatedDeviceStatus), want ...string) v1Case {
		return allocating(name, func(st *resourcev1.ResourceClaimStatus) { f(&st.Devices[0]) }, want...)
	}
	cond := func(typ string) metav1.Condition {
		return metav1.Condition{Type: typ, Status: metav1.ConditionTrue, LastTransitionTime: added1, Reason: "R"}
	}
	runV1Cases(t, []v1Case{
		dev("not allocated", func(d *resourcev1.AllocatedDeviceStatus) { d.Device = "gpu-9" }, "Invalid "+dev0),
		dev("the share must match", func(d *resourcev1.AllocatedDeviceStatus) { d.ShareID = nil }, "Invalid "+dev0),
		dev("another share", func(d *resourcev1.AllocatedDeviceStatus) { d.ShareID = ptr("00000000-0000-0000-0000-000000000000") }, "Invalid "+dev0),
		dev("driver required", func(d *resourcev1.AllocatedDeviceStatus) { d.Driver = "" }, "Required "+dev0+".driver", "Invalid "+dev0),
		dev("pool", func(d *resourcev1.AllocatedDeviceStatus) { d.Pool = "" }, "Required "+dev0+".pool", "Invalid "+dev0),
		dev("device", func(d *resourcev1.AllocatedDeviceStatus) { d.Device = "" }, "Invalid "+dev0+".device", "Invalid "+dev0),
		dev("shareID", func(d *resourcev1.AllocatedDeviceStatus) { d.ShareID = ptr("x") }, "Invalid "+dev0+".shareID", "Invalid "+dev0),
		dev("too many conditions", func(d *resourcev1.AllocatedDeviceStatus) {
			d.Conditions = nil
			for i := 0; i <= V1AllocatedDeviceStatusMaxConditions; i++ {
				d.Conditions = append(d.Conditions, cond(fmt.Sprintf("C%d", i)))
			}
		}, "TooMany "+dev0+".conditions"),
		dev("condition", func(d *resourcev1.AllocatedDeviceStatus) {
			d.Conditions = []metav1.Condition{cond("Ready"), cond("Ready"), {Type: "Bad type", Status: "Maybe"}}
		}, "Duplicate "+dev0+".conditions[1]", "Invalid "+dev0+".conditions[2].type", "NotSupported "+dev0+".conditions[2].status",
			"Required "+dev0+".conditions[2].lastTransitionTime", "Required "+dev0+".conditions[2].reason"),
		dev("data not an object", func(d *resourcev1.AllocatedDeviceStatus) { d.Data = &runtime.RawExtension{Raw: []byte(`"x"`)} }, "Invalid "+dev0+".data"),
		dev("empty data is no data", func(d *resourcev1.AllocatedDeviceStatus) { d.Data = &runtime.RawExtension{} }),
		dev("data too long", func(d *resourcev1.AllocatedDeviceStatus) {
			d.Data = &runtime.RawExtension{Raw: []byte(`{"a":"` + strings.Repeat("x", V1AllocatedDeviceStatusDataMaxLength) + `"}`)}
		}, "TooLong "+dev0+".data"),
		dev("interface name", func(d *resourcev1.AllocatedDeviceStatus) {
			d.NetworkData.InterfaceName = strings.Repeat("i", V1NetworkDeviceDataInterfaceNameMaxLength+1)
		}, "TooLong "+dev0+".networkData.interfaceName"),
		dev("hardware address", func(d *resourcev1.AllocatedDeviceStatus) {
			d.NetworkData.HardwareAddress = strings.Repeat("a", V1NetworkDeviceDataHardwareAddressMaxLength+1)
		}, "TooLong "+dev0+".networkData.hardwareAddress"),
		dev("ips", func(d *resourcev1.AllocatedDeviceStatus) {
			d.NetworkData.IPs = []string{"10.0.0.1", "10.9.8.1/24", "10.9.8.1/24"}
		},
			"Invalid "+dev0+".networkData.ips[0]", "Duplicate "+dev0+".networkData.ips[2]"),
		dev("too many ips", func(d *resourcev1.AllocatedDeviceStatus) {
			d.NetworkData.IPs = repeat(V1NetworkDeviceDataMaxIPs+1, func(i int) string { return fmt.Sprintf("10.0.0.%d/32", i) })
		}, "TooMany "+dev0+".networkData.ips"),
		allocating("duplicate", func(st *resourcev1.ResourceClaimStatus) { st.Devices = append(st.Devices, st.Devices[0]) },
			"Duplicate status.devices[1]"),
		allocating("each share once", func(st *resourcev1.ResourceClaimStatus) {
			st.Devices = append(st.Devices, st.Devices[0])
			st.Devices[1].ShareID = nil
			st.Devices[1].Device = "gpu-1"
		}),
		{name: "devices need an allocation", op: opStatus, old: v1Claim(),
			obj: v1Claim(func(c *resourcev1.ResourceClaim) {
				c.Status.Devices = []resourcev1.AllocatedDeviceStatus{v1DeviceStatus()}
			}),
			want: []string{"Invalid " + dev0}},
	})
}

// TestV1ClaimStatusDeviceShareID: the declarative validation checks the
// shareID of new status.devices entries (its message); an entry the update
// left alone is checked by the handwritten rule only (its message).
func TestV1ClaimStatusDeviceShareID(t *testing.T) {
	withShare := func(share string, more ...resourcev1.AllocatedDeviceStatus) *resourcev1.ResourceClaim {
		return v1Allocated(func(c *resourcev1.ResourceClaim) {
			u := types.UID(share)
			c.Status.Allocation.Devices.Results[0].ShareID = &u
			c.Status.Devices[0].ShareID = ptr(share)
			c.Status.Devices = append(c.Status.Devices, more...)
		})
	}
	const sid = dev0 + ".shareID"
	extra := resourcev1.AllocatedDeviceStatus{Driver: "dra.example.com", Pool: "node-1", Device: "gpu-1"}
	runV1Cases(t, []v1Case{
		{name: "new entry", op: opStatus, obj: withShare("x"), old: v1Allocated(func(c *resourcev1.ResourceClaim) {
			*c = *withShare("x")
			c.Status.Devices = nil
		}), want: []string{"Invalid " + sid}, details: []string{"Invalid " + sid + ": must be a lowercase UUID in 8-4-4-4-12 format"}},
		// Matched by driver, pool, device and shareID: a changed entry keeps
		// its shareID, which the declarative validation does not check again.
		{name: "changed entry", op: opStatus, old: withShare("x"), obj: v1Allocated(func(c *resourcev1.ResourceClaim) {
			*c = *withShare("x")
			c.Status.Devices[0].Data = nil
		}), want: []string{"Invalid " + sid}, details: []string{"Invalid " + sid + ": error validating uid: invalid UUID length: 1"}},
		{name: "unchanged entry, changed list", op: opStatus, old: withShare("x"), obj: withShare("x", extra),
			want: []string{"Invalid " + sid}, details: []string{"Invalid " + sid + ": error validating uid: invalid UUID length: 1"}},
	})
	for share, want := range map[string]string{
		"urn:uuid:" + shareID1:                            "uid must be in RFC 4122 normalized form",
		"urn:uid::" + shareID1:                            `error validating uid: invalid urn prefix: "urn:uid::"`,
		"{" + shareID1 + "}":                              "uid must be in RFC 4122 normalized form",
		"(" + shareID1 + ")":                              "error validating uid: invalid bracketed UUID format",
		strings.ReplaceAll(shareID1, "-", ""):             "uid must be in RFC 4122 normalized form",
		strings.ReplaceAll(shareID1, "-", "")[:30] + "xy": "error validating uid: invalid UUID format",
		strings.ToUpper(shareID1):                         "uid must be in RFC 4122 normalized form",
		strings.Replace(shareID1, "-", "+", 1):            "error validating uid: invalid UUID format",
		strings.Replace(shareID1, "a", "g", 1):            "error validating uid: invalid UUID format",
	} {
		errs := validateUIDV1(share, field.NewPath("shareID"), handwrittenOnly)
		if len(errs) != 1 || !strings.Contains(errs[0].Detail, want) {
			t.Errorf("%q: got %v, want %q", share, errs, want)
		}
	}
	if errs := validateUIDV1(shareID1, field.NewPath("shareID"), handwrittenOnly); len(errs) != 0 {
		t.Errorf("valid shareID: %v", errs)
	}
}

func TestV1ClaimStatusAdmin(t *testing.T) {
	teamA := func(c *resourcev1.ResourceClaim) {
		c.Namespace = "team-a"
		c.Spec.Devices.Requests[0].Exactly.AdminAccess = nil
	}
	const admin = "status.allocation.devices.results[0].adminAccess"
	runV1Cases(t, []v1Case{
		{name: "granting admin access needs the label", op: opStatus, old: v1Claim(teamA), obj: v1Allocated(teamA),
			want: []string{"Forbidden " + admin}},
		{name: "kept admin access needs nothing", op: opStatus, old: v1Allocated(teamA),
			obj: v1Allocated(teamA, func(c *resourcev1.ResourceClaim) { c.Status.ReservedFor = nil })},
		{name: "labelled namespace", op: opStatus, old: v1Claim(), obj: v1Allocated()},
	})
}
