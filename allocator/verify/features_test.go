package verify

import (
	"strings"
	"testing"

	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/testobjects"
)

// The checks of the 1.32+ rules, each shown to fail on a hand-made wrong
// result next to a right one.

func ptr[T any](v T) *T { return &v }

func q(s string) apiresource.Quantity { return apiresource.MustParse(s) }

// result is one device result of driver d, pool p.
func result(request, device string, edit ...func(*resource.DeviceRequestAllocationResult)) resource.DeviceRequestAllocationResult {
	r := resource.DeviceRequestAllocationResult{Request: request, Driver: "d", Pool: "p", Device: device}
	for _, e := range edit {
		e(&r)
	}
	return r
}

func allocOf(results ...resource.DeviceRequestAllocationResult) *resource.AllocationResult {
	return &resource.AllocationResult{Devices: resource.DeviceAllocationResult{Results: results}, NodeSelector: testobjects.NodeNameSelector("n1")}
}

// allocOfRequest is an allocation of the devices of pool p, all for one
// request.
func allocOfRequest(request string, devices ...string) *resource.AllocationResult {
	rs := make([]resource.DeviceRequestAllocationResult, len(devices))
	for i, d := range devices {
		rs[i] = result(request, d)
	}
	return allocOf(rs...)
}

// featureInventory is pool p of driver d on node n1: a counter set gpu0 (memory 8)
// with the whole GPU "whole" (8) and two halves "h1", "h2" (4 each); a
// tainted device "t" (NoSchedule k=v) and "none" (effect None); a shared
// NIC "nic" (bandwidth 10, validRange min 1 max 9 step 2, default 1); "bind"
// with binding conditions and bindsToNode; "n0", "n1" with numa 0.
func featureInventory() *Inventory {
	counters := &resource.ResourceSlice{Spec: resource.ResourceSliceSpec{Driver: "d", Pool: resource.ResourcePool{Name: "p", ResourceSliceCount: 2}, NodeName: ptr("n1"),
		SharedCounters: []resource.CounterSet{{Name: "gpu0", Counters: map[string]resource.Counter{"memory": {Value: q("8")}}}}}}
	consume := func(name, mem string) resource.Device {
		d := testobjects.Device(name)
		d.ConsumesCounters = []resource.DeviceCounterConsumption{{CounterSet: "gpu0", Counters: map[string]resource.Counter{"memory": {Value: q(mem)}}}}
		return d
	}
	tainted := testobjects.Device("t")
	tainted.Taints = []resource.DeviceTaint{{Key: "k", Value: "v", Effect: resource.DeviceTaintEffectNoSchedule}}
	none := testobjects.Device("none")
	none.Taints = []resource.DeviceTaint{{Key: "k", Value: "v", Effect: resource.DeviceTaintEffectNone}}
	nic := testobjects.Device("nic")
	nic.AllowMultipleAllocations = ptr(true)
	nic.Capacity = map[resource.QualifiedName]resource.DeviceCapacity{"bandwidth": {Value: q("10"), RequestPolicy: &resource.CapacityRequestPolicy{
		Default: ptr(q("1")), ValidRange: &resource.CapacityRequestPolicyRange{Min: ptr(q("1")), Max: ptr(q("9")), Step: ptr(q("2"))}}}}
	bind := testobjects.Device("bind")
	bind.BindingConditions, bind.BindingFailureConditions, bind.BindsToNode = []string{"ready"}, []string{"failed"}, ptr(true)
	devices := testobjects.Slice("devs", "d", "p", testobjects.OnNode("n1"),
		consume("whole", "8"), consume("h1", "4"), consume("h2", "4"), tainted, none, nic,
		testobjects.Device("n0", testobjects.Attr("numa", 0)), testobjects.Device("n1", testobjects.Attr("numa", 0)))
	devices.Spec.Pool.ResourceSliceCount = 2
	// bindsToNode on a device every node reaches.
	everywhere := testobjects.Slice("everywhere", "d", "e", testobjects.AllNodes(), bind)
	// Per-device node selection: one device for n1, one for n2.
	perDev := &resource.ResourceSlice{Spec: resource.ResourceSliceSpec{Driver: "d", Pool: resource.ResourcePool{Name: "pd", ResourceSliceCount: 1}, PerDeviceNodeSelection: ptr(true),
		Devices: []resource.Device{{Name: "here", NodeName: ptr("n1")}, {Name: "there", NodeName: ptr("n2")}}}}
	return &Inventory{
		Features: Features{AdminAccess: true, DeviceTaints: true, PartitionableDevices: true, ConsumableCapacity: true, DeviceBindingAndStatus: true},
		Classes:  []*resource.DeviceClass{testobjects.Class("any"), testobjects.Class("numa", `"numa" in device.attributes["d"]`)},
		Slices:   []*resource.ResourceSlice{counters, devices, everywhere, perDev},
		Node:     testobjects.Node("n1"),
	}
}

func featureClaim(reqs ...resource.DeviceRequest) *resource.ResourceClaim {
	return testobjects.Claim("c", reqs...)
}

func withTolerations(r resource.DeviceRequest, t ...resource.DeviceToleration) resource.DeviceRequest {
	r.Exactly.Tolerations = t
	return r
}

func withCapacity(r resource.DeviceRequest, name, v string) resource.DeviceRequest {
	r.Exactly.Capacity = &resource.CapacityRequirements{Requests: map[resource.QualifiedName]apiresource.Quantity{resource.QualifiedName(name): q(v)}}
	return r
}

var tolerateK = resource.DeviceToleration{Key: "k", Operator: resource.DeviceTolerationOpExists}

func share(id string, bw string) func(*resource.DeviceRequestAllocationResult) {
	return func(r *resource.DeviceRequestAllocationResult) {
		uid := types.UID(id)
		r.ShareID = &uid
		r.ConsumedCapacity = map[resource.QualifiedName]apiresource.Quantity{"bandwidth": q(bw)}
	}
}

func firstAvailable(name string, subs ...resource.DeviceSubRequest) resource.DeviceRequest {
	return resource.DeviceRequest{Name: name, FirstAvailable: subs}
}

func TestCheckerFeatures(t *testing.T) {
	tolerations := func(r *resource.DeviceRequestAllocationResult) {
		r.Tolerations = []resource.DeviceToleration{tolerateK}
	}
	admin := func(r *resource.DeviceRequestAllocationResult) { r.AdminAccess = ptr(true) }
	for _, tc := range []struct {
		name  string
		inv   func(*Inventory)
		claim *resource.ResourceClaim
		alloc *resource.AllocationResult
		// earlier are allocations of the same call checked first (valid).
		earlier []*resource.AllocationResult
		errors  []string
	}{
		// Counters.
		{name: "counters fit", claim: featureClaim(testobjects.Request("r", "any", testobjects.Count(2))), alloc: allocOf(result("r", "h1"), result("r", "h2"))},
		{name: "counters over-consumed", claim: featureClaim(testobjects.Request("r", "any", testobjects.Count(2))), alloc: allocOf(result("r", "whole"), result("r", "h1")),
			errors: []string{"counter set gpu0, counter memory: 12 consumed, 8 available"}},
		{name: "counters of a device in use", inv: func(inv *Inventory) { inv.InUse = map[DeviceID]bool{{"d", "p", "whole"}: true} },
			claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "h1")), errors: []string{"12 consumed, 8 available"}},
		{name: "counters of an earlier allocation", inv: func(inv *Inventory) { inv.Allocations = []*resource.AllocationResult{allocOf(result("x", "h1"))} },
			claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "whole")), errors: []string{"12 consumed, 8 available"}},
		{name: "counters of an earlier claim of the call", earlier: []*resource.AllocationResult{allocOf(result("r", "h2"))},
			claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "whole")), errors: []string{"12 consumed, 8 available"}},
		// Taints and tolerations.
		{name: "taint not tolerated", claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "t")), errors: []string{"taint k=v:NoSchedule, which the request does not tolerate"}},
		{name: "taint tolerated", claim: featureClaim(withTolerations(testobjects.Request("r", "any"), tolerateK)), alloc: allocOf(result("r", "t", tolerations))},
		{name: "tolerations not copied", claim: featureClaim(withTolerations(testobjects.Request("r", "any"), tolerateK)), alloc: allocOf(result("r", "t")), errors: []string{"result tolerations [], the request has"}},
		{name: "tolerations invented", claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "n0", tolerations)), errors: []string{"result tolerations"}},
		{name: "effect None does not block", claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "none"))},
		{name: "taints ignored", inv: func(inv *Inventory) { inv.Features.DeviceTaints = false }, claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "t"))},
		{name: "taint of a DeviceTaintRule", inv: func(inv *Inventory) {
			inv.TaintRules = []*resource.DeviceTaintRule{{Spec: resource.DeviceTaintRuleSpec{DeviceSelector: &resource.DeviceTaintSelector{Pool: ptr("p"), Device: ptr("n0")},
				Taint: resource.DeviceTaint{Key: "rule", Effect: resource.DeviceTaintEffectNoExecute}}}}
		}, claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "n0")), errors: []string{"taint rule=:NoExecute"}},
		{name: "a DeviceTaintRule of another pool", inv: func(inv *Inventory) {
			inv.TaintRules = []*resource.DeviceTaintRule{{Spec: resource.DeviceTaintRuleSpec{DeviceSelector: &resource.DeviceTaintSelector{Pool: ptr("other")},
				Taint: resource.DeviceTaint{Key: "rule", Effect: resource.DeviceTaintEffectNoExecute}}}}
		}, claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "n0"))},
		// Consumable capacity: 4 rounds up to 5 (min 1, step 2).
		{name: "share", claim: featureClaim(withCapacity(testobjects.Request("r", "any"), "bandwidth", "4")), alloc: allocOf(result("r", "nic", share("a", "5")))},
		{name: "share not rounded", claim: featureClaim(withCapacity(testobjects.Request("r", "any"), "bandwidth", "4")), alloc: allocOf(result("r", "nic", share("a", "4"))),
			errors: []string{"consumedCapacity map[bandwidth:4], the request policy gives map[bandwidth:5]"}},
		{name: "share default", claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "nic", share("a", "1")))},
		{name: "share without shareID", claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "nic", share("a", "1"), func(r *resource.DeviceRequestAllocationResult) { r.ShareID = nil })),
			errors: []string{"no shareID"}},
		{name: "shareID twice", earlier: []*resource.AllocationResult{allocOf(result("r", "nic", share("a", "1")))},
			claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "nic", share("a", "1"))), errors: []string{"shareID a is already in use"}},
		{name: "shares over capacity", inv: func(inv *Inventory) {
			inv.Allocations = []*resource.AllocationResult{allocOf(result("x", "nic", share("a", "7")))}
		},
			claim: featureClaim(withCapacity(testobjects.Request("r", "any"), "bandwidth", "4")), alloc: allocOf(result("r", "nic", share("b", "5"))),
			errors: []string{"capacity bandwidth: 12 consumed by its shares, 10 available"}},
		{name: "share of a device without multiple allocations", claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "n0", share("a", "1"))),
			errors: []string{"does not allow multiple allocations"}},
		{name: "capacity the device lacks", claim: featureClaim(withCapacity(testobjects.Request("r", "any"), "memory", "1")), alloc: allocOf(result("r", "nic", share("a", "1"))),
			errors: []string{"requests capacity memory, which the device does not have"}},
		{name: "capacity beyond the policy", claim: featureClaim(withCapacity(testobjects.Request("r", "any"), "bandwidth", "10")), alloc: allocOf(result("r", "nic", share("a", "11"))),
			errors: []string{"capacity bandwidth: 11 is not allowed"}},
		{name: "All with capacity requests", claim: featureClaim(withCapacity(testobjects.Request("r", "any", testobjects.All()), "bandwidth", "4")),
			alloc: allocOf(result("r", "nic", share("a", "5")))},
		{name: "All with capacity requests misses a device", claim: featureClaim(withCapacity(testobjects.Request("r", "any", testobjects.All()), "bandwidth", "4")),
			alloc: allocOf(), errors: []string{"matching device d/p/nic not allocated", "0 devices, 1 match"}},
		// Sub-requests.
		{name: "alternative", claim: featureClaim(firstAvailable("r", resource.DeviceSubRequest{Name: "big", DeviceClassName: "any", Count: 2}, resource.DeviceSubRequest{Name: "small", DeviceClassName: "any", Count: 1})),
			alloc: allocOf(result("r/small", "n0"))},
		{name: "alternative count", claim: featureClaim(firstAvailable("r", resource.DeviceSubRequest{Name: "big", DeviceClassName: "any", Count: 2}, resource.DeviceSubRequest{Name: "small", DeviceClassName: "any", Count: 1})),
			alloc: allocOf(result("r/big", "n0")), errors: []string{"request r/big: 1 devices, asks for 2"}},
		{name: "alternative unknown", claim: featureClaim(firstAvailable("r", resource.DeviceSubRequest{Name: "a", DeviceClassName: "any"})),
			alloc: allocOf(result("r/b", "n0")), errors: []string{`result for unknown request "r/b"`, "request r: no alternative allocated"}},
		{name: "two alternatives", claim: featureClaim(firstAvailable("r", resource.DeviceSubRequest{Name: "a", DeviceClassName: "any"}, resource.DeviceSubRequest{Name: "b", DeviceClassName: "any"})),
			alloc: allocOf(result("r/a", "n0"), result("r/b", "n1")), errors: []string{"results for several alternatives [r/a r/b]"}},
		{name: "alternative's class", claim: featureClaim(firstAvailable("r", resource.DeviceSubRequest{Name: "a", DeviceClassName: "numa"})),
			alloc: allocOf(result("r/a", "h1")), errors: []string{"does not pass the selectors of class numa"}},
		{name: "alternative's tolerations", claim: featureClaim(firstAvailable("r", resource.DeviceSubRequest{Name: "a", DeviceClassName: "any", Tolerations: []resource.DeviceToleration{tolerateK}})),
			alloc: allocOf(result("r/a", "t", tolerations))},
		// Binding conditions and bindsToNode.
		{name: "binding conditions", claim: featureClaim(testobjects.Request("r", "any")), alloc: func() *resource.AllocationResult {
			a := allocOf(result("r", "bind", func(r *resource.DeviceRequestAllocationResult) {
				r.Pool, r.BindingConditions, r.BindingFailureConditions = "e", []string{"ready"}, []string{"failed"}
			}))
			return a
		}()},
		{name: "binding conditions not copied", claim: featureClaim(testobjects.Request("r", "any")),
			alloc: allocOf(result("r", "bind", func(r *resource.DeviceRequestAllocationResult) { r.Pool = "e" })), errors: []string{"binding conditions []/[], the device has [ready]/[failed]"}},
		{name: "bindsToNode narrows to the node", claim: featureClaim(testobjects.Request("r", "any")), alloc: func() *resource.AllocationResult {
			a := allocOf(result("r", "bind", func(r *resource.DeviceRequestAllocationResult) {
				r.Pool, r.BindingConditions, r.BindingFailureConditions = "e", []string{"ready"}, []string{"failed"}
			}))
			a.NodeSelector = nil
			return a
		}(), errors: []string{"want the node n1"}},
		// Admin access.
		{name: "admin on a device in use", inv: func(inv *Inventory) { inv.InUse = map[DeviceID]bool{{"d", "p", "n0"}: true} },
			claim: featureClaim(testobjects.Request("r", "any", testobjects.Admin())), alloc: allocOf(result("r", "n0", admin))},
		{name: "admin does not hold", earlier: []*resource.AllocationResult{allocOf(result("r", "n0", admin))},
			claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "n0"))},
		{name: "admin flag missing", claim: featureClaim(testobjects.Request("r", "any", testobjects.Admin())), alloc: allocOf(result("r", "n0")),
			errors: []string{"result says adminAccess false, the request true"}},
		// distinctAttribute.
		{name: "distinct", claim: func() *resource.ResourceClaim {
			c := featureClaim(testobjects.Request("r", "numa", testobjects.Count(2)))
			c.Spec.Devices.Constraints = []resource.DeviceConstraint{{DistinctAttribute: ptr(resource.FullyQualifiedName("d/numa"))}}
			return c
		}(), alloc: allocOf(result("r", "n0"), result("r", "n1")), errors: []string{"has the same d/numa as another device"}},
		// Per-device node selection.
		{name: "device for this node", claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "here", func(r *resource.DeviceRequestAllocationResult) { r.Pool = "pd" }))},
		{name: "per-device node selection off", inv: func(inv *Inventory) { inv.Features.PartitionableDevices = false }, claim: featureClaim(testobjects.Request("r", "any")),
			alloc: allocOf(result("r", "here", func(r *resource.DeviceRequestAllocationResult) { r.Pool = "pd" })), errors: []string{"not a device the node reaches", "0 devices, asks for 1"}},
		{name: "counters off", inv: func(inv *Inventory) { inv.Features.PartitionableDevices = false }, claim: featureClaim(testobjects.Request("r", "any", testobjects.Count(2))),
			alloc: allocOf(result("r", "whole"), result("r", "h1"))},
		{name: "device for another node", claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "there", func(r *resource.DeviceRequestAllocationResult) { r.Pool = "pd" })),
			errors: []string{"not a device the node reaches", "0 devices, asks for 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv := featureInventory()
			if tc.inv != nil {
				tc.inv(inv)
			}
			c := NewChecker(inv)
			for _, e := range tc.earlier {
				cl := testobjects.Claim("earlier", testobjects.Request("r", "any"))
				if e.Devices.Results[0].AdminAccess != nil {
					cl = testobjects.Claim("earlier", testobjects.Request("r", "any", testobjects.Admin()))
				}
				if errs := c.Check(cl, e); len(errs) > 0 {
					t.Fatalf("earlier allocation: %v", errs)
				}
			}
			errs := c.Check(tc.claim, tc.alloc)
			if len(errs) != len(tc.errors) {
				t.Fatalf("errors %v, want %v", errs, tc.errors)
			}
			for i, e := range errs {
				if !strings.Contains(e.Error(), tc.errors[i]) {
					t.Errorf("error %q, want %q", e, tc.errors[i])
				}
			}
		})
	}
}

// TestCheckerFeatureRules checks the rules that come with the 1.37 semantics
// as a whole rather than with one feature: the selector environment and
// which devices are selectable at all. Each wrong answer is one that the
// checker accepted (or a right one it refused) before it knew the rule.
func TestCheckerFeatureRules(t *testing.T) {
	withBindNuma := func(inv *Inventory) {
		// "bind" (binding conditions, in pool e) becomes a numa device.
		inv.Slices[2].Spec.Devices[0].Attributes = map[resource.QualifiedName]resource.DeviceAttribute{"numa": {IntValue: ptr(int64(0))}}
	}
	bindingOff := func(inv *Inventory) { withBindNuma(inv); inv.Features.DeviceBindingAndStatus = false }
	sharedClass := func(inv *Inventory) {
		inv.Classes = append(inv.Classes, testobjects.Class("shared", `device.allowMultipleAllocations`))
	}
	tags := func(lists bool) func(*Inventory) {
		return func(inv *Inventory) {
			inv.Features.ListTypeAttributes = lists
			inv.Slices[1].Spec.Devices[6].Attributes["tags"] = resource.DeviceAttribute{StringValues: []string{"a", "b"}}
			inv.Classes = append(inv.Classes, testobjects.Class("tagged", `"tags" in device.attributes["d"]`))
		}
	}
	bound := func(r *resource.DeviceRequestAllocationResult) {
		r.Pool, r.BindingConditions, r.BindingFailureConditions = "e", []string{"ready"}, []string{"failed"}
	}
	for _, tc := range []struct {
		name   string
		inv    func(*Inventory)
		claim  *resource.ResourceClaim
		alloc  *resource.AllocationResult
		errors []string
	}{
		// The selector environment: 1.37's stored expressions with any
		// feature, 1.31's with none.
		{name: "device.allowMultipleAllocations in a class selector", inv: sharedClass,
			claim: featureClaim(testobjects.Request("r", "shared")), alloc: allocOf(result("r", "nic", share("a", "1")))},
		{name: "device.allowMultipleAllocations is false for other devices", inv: sharedClass,
			claim: featureClaim(testobjects.Request("r", "shared")), alloc: allocOf(result("r", "n0")), errors: []string{"does not pass the selectors of class shared (<nil>)"}},
		{name: "device.allowMultipleAllocations with only PrioritizedList", inv: func(inv *Inventory) {
			sharedClass(inv)
			inv.Features = Features{PrioritizedList: true}
		}, claim: featureClaim(testobjects.Request("r", "shared")), alloc: allocOf(result("r", "nic"))},
		{name: "device.allowMultipleAllocations does not compile in 1.31", inv: func(inv *Inventory) {
			sharedClass(inv)
			inv.Features = Features{}
		}, claim: featureClaim(testobjects.Request("r", "shared")), alloc: allocOf(result("r", "nic")), errors: []string{"undefined field 'allowMultipleAllocations'"}},
		{name: "list attribute with ListTypeAttributes", inv: tags(true), claim: featureClaim(testobjects.Request("r", "tagged")), alloc: allocOf(result("r", "n0"))},
		{name: "list attribute left out without ListTypeAttributes", inv: tags(false), claim: featureClaim(testobjects.Request("r", "tagged")), alloc: allocOf(result("r", "n0")),
			errors: []string{"does not pass the selectors of class tagged"}},
		// Binding conditions: without DeviceBindingAndStatus such devices
		// are not selectable (upstream's isSelectable), with it they are.
		{name: "All without DeviceBindingAndStatus leaves out devices with binding conditions", inv: bindingOff,
			claim: featureClaim(testobjects.Request("r", "numa", testobjects.All())), alloc: allocOf(result("r", "n0"), result("r", "n1"))},
		{name: "a device with binding conditions without DeviceBindingAndStatus", inv: bindingOff,
			claim: featureClaim(testobjects.Request("r", "any")), alloc: allocOf(result("r", "bind", func(r *resource.DeviceRequestAllocationResult) { r.Pool = "e" })),
			errors: []string{"device d/e/bind has binding conditions, which are not used without DeviceBindingAndStatus"}},
		{name: "All with DeviceBindingAndStatus includes devices with binding conditions", inv: withBindNuma,
			claim: featureClaim(testobjects.Request("r", "numa", testobjects.All())), alloc: allocOf(result("r", "n0"), result("r", "n1")),
			errors: []string{"matching device d/e/bind not allocated", "2 devices, 3 match"}},
		{name: "All with DeviceBindingAndStatus", inv: withBindNuma,
			claim: featureClaim(testobjects.Request("r", "numa", testobjects.All())), alloc: allocOf(result("r", "n0"), result("r", "n1"), result("r", "bind", bound))},
		{name: "1.31 knows no binding conditions", inv: func(inv *Inventory) { withBindNuma(inv); inv.Features = Features{} },
			claim: featureClaim(testobjects.Request("r", "numa", testobjects.All())), alloc: allocOf(result("r", "n0"), result("r", "n1")),
			errors: []string{"matching device d/e/bind not allocated", "2 devices, 3 match"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inv := featureInventory()
			tc.inv(inv)
			errs := NewChecker(inv).Check(tc.claim, tc.alloc)
			if len(errs) != len(tc.errors) {
				t.Fatalf("errors %v, want %v", errs, tc.errors)
			}
			for i, e := range errs {
				if !strings.Contains(e.Error(), tc.errors[i]) {
					t.Errorf("error %q, want %q", e, tc.errors[i])
				}
			}
		})
	}
}
