package allocator

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	apiresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/internal/quantityguard"
)

// hugeQty is beyond quantityguard's bound: comparing it with 1Gi took
// about a minute before the bound.
func hugeQty(t *testing.T) apiresource.Quantity {
	t.Helper()
	q, err := apiresource.ParseQuantity("1e100000000")
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestQuantitiesBeyondTheBound: a pool with a quantity beyond the bound is
// invalid (naming the slice and field), a claim that asks for one fails
// as invalid, and allocated claims that consumed one are refused by New,
// all in milliseconds, with the default features and with every gate off.
func TestQuantitiesBeyondTheBound(t *testing.T) {
	huge := hugeQty(t)
	n1 := node("n1")
	start := time.Now()
	hugeNIC := func(change func(*resource.Device)) *resource.ResourceSlice {
		d := nic("nic0")
		change(&d)
		return poolSlice("s", drv, "n1", 1, 1, onNode("n1"), d, nic("nic1"))
	}
	invalidPool := func(field string) []want {
		return []want{{reason: ReasonNoMatch, request: "r", contains: `not used: pool gpu.example.com/n1 is invalid: ResourceSlice "s": ` + field + `: Invalid value: `}}
	}
	cases := []semanticsCase{
		{
			name:    "capacity",
			classes: []*resource.DeviceClass{gpuClass},
			slices: []*resource.ResourceSlice{hugeNIC(func(d *resource.Device) {
				d.Capacity["bandwidth"] = resource.DeviceCapacity{Value: huge}
			})},
			claims: []*resource.ResourceClaim{claim("a", exact("r", "gpu", bandwidth("2")))},
			want:   invalidPool("spec.devices[0].capacity[bandwidth].value"),
		},
		{
			name:    "request policy",
			classes: []*resource.DeviceClass{gpuClass},
			slices: []*resource.ResourceSlice{hugeNIC(func(d *resource.Device) {
				c := d.Capacity["bandwidth"]
				r := *c.RequestPolicy.ValidRange
				r.Max = &huge
				c.RequestPolicy = &resource.CapacityRequestPolicy{ValidRange: &r}
				d.Capacity["bandwidth"] = c
			})},
			claims: []*resource.ResourceClaim{claim("a", exact("r", "gpu", bandwidth("2")))},
			want:   invalidPool("spec.devices[0].capacity[bandwidth].requestPolicy.validRange.max"),
		},
		{
			name:     "capacity with every gate off",
			features: gatesOff,
			classes:  []*resource.DeviceClass{gpuClass},
			slices: []*resource.ResourceSlice{hugeNIC(func(d *resource.Device) {
				d.Capacity["bandwidth"] = resource.DeviceCapacity{Value: huge}
			})},
			claims: []*resource.ResourceClaim{claim("a", req("r", "gpu", sel(`device.capacity["gpu.example.com"].bandwidth.isGreaterThan(quantity("1"))`)))},
			want:   invalidPool("spec.devices[0].capacity[bandwidth].value"),
		},
		{
			name:    "counters",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{counterSlice("c", "1e100000000"), partitions("s", "1", "2")},
			claims:  []*resource.ResourceClaim{claim("a", req("r", "gpu"))},
			want:    []want{{reason: ReasonNoMatch, request: "r", contains: `pool gpu.example.com/p is invalid: ResourceSlice "c": spec.sharedCounters[0].counters[size].value`}},
		},
		{
			name:    "All request",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{counterSlice("c", "1e100000000"), partitions("s", "1", "2")},
			claims:  []*resource.ResourceClaim{claim("a", req("r", "gpu", all()))},
			want:    []want{{reason: ReasonInvalidPool, request: "r", contains: `asks for all devices, but resource pool gpu.example.com/p is invalid: ResourceSlice "c": spec.sharedCounters[0].counters[size].value: Invalid value: quantity 1e100000000 is out of range`}},
		},
		{
			name:    "claim capacity request",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), nic("nic0"))},
			claims:  []*resource.ResourceClaim{claim("a", exact("r", "gpu", bandwidth("1e100000000")))},
			want:    []want{{reason: ReasonInvalidClaim, contains: "spec.devices.requests[0].exactly.capacity.requests[bandwidth]: Invalid value: "}},
		},
		{
			name:    "claim capacity request of an alternative",
			classes: []*resource.DeviceClass{gpuClass},
			slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), nic("nic0"))},
			claims: []*resource.ResourceClaim{claim("a", func() resource.DeviceRequest {
				alt := sub("small", "gpu", 1)
				alt.Capacity = &resource.CapacityRequirements{Requests: map[resource.QualifiedName]apiresource.Quantity{"bandwidth": huge, "zz": huge}}
				return firstAvailable("r", sub("big", "gpu", 1), alt)
			}())},
			want: []want{{reason: ReasonInvalidClaim, contains: "spec.devices.requests[0].firstAvailable[1].capacity.requests[bandwidth]: Invalid value: "}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runSemantics(t, c, n1) })
	}

	_, err := New(Options{Classes: []*resource.DeviceClass{gpuClass}, Node: n1,
		AllocatedClaims: []*resource.ResourceClaim{sharedClaim("used", "nic0", "1e100000000")}})
	if err == nil || !strings.Contains(err.Error(), "status.allocation.devices.results[0].consumedCapacity[bandwidth]") {
		t.Errorf("New with a consumed capacity beyond the bound: %v, want an error naming the field", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}

// BenchmarkSliceBoundCheck is what scanning a slice pays for the
// quantity bound: one walk of a slice of 128 devices, each with four
// capacities (one with a request policy) and eight attributes.
func BenchmarkSliceBoundCheck(b *testing.B) {
	var devices []resource.Device
	for i := range 128 {
		d := nic("nic" + strconv.Itoa(i))
		for _, c := range []resource.QualifiedName{"memory", "cores", "gpu.example.com/sm"} {
			d.Capacity[c] = resource.DeviceCapacity{Value: qty("40Gi")}
		}
		for j := range 8 {
			d.Attributes = map[resource.QualifiedName]resource.DeviceAttribute{}
			v := int64(j)
			d.Attributes[resource.QualifiedName("a"+strconv.Itoa(j))] = resource.DeviceAttribute{IntValue: &v}
		}
		devices = append(devices, d)
	}
	s := poolSlice("s", drv, "n1", 1, 1, onNode("n1"), devices...)
	b.Run("scan", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			e := &sliceEntry{obj: s, devices: s.Spec.Devices, words: 2}
			e.scanDevices()
			if e.outOfBound != "" {
				b.Fatal(e.outOfBound)
			}
		}
	})
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if quantityguard.FirstField(&s.Spec, nil) != nil {
				b.Fatal("out of bound")
			}
		}
	})
}

// TestSpecQuantitiesAreChecked keeps sliceHasQuantityBeyondBound and
// claimQuantityBeyondBound complete: they look at the quantities of the
// hub's slice and claim specs by name, which is right only while these
// lists are all there are. A new quantity field fails here until the
// checks look at it too.
func TestSpecQuantitiesAreChecked(t *testing.T) {
	for _, c := range []struct {
		typ   reflect.Type
		check string
		want  []string
	}{
		{reflect.TypeOf(resource.ResourceClaimSpec{}), "claimQuantityBeyondBound", []string{
			"spec.Devices.Requests.Exactly.Capacity.Requests[]",
			"spec.Devices.Requests.FirstAvailable.Capacity.Requests[]",
		}},
		{reflect.TypeOf(resource.ResourceSliceSpec{}), "sliceHasQuantityBeyondBound", []string{
			"spec.Devices.Capacity[].Value",
			"spec.Devices.Capacity[].RequestPolicy.Default",
			"spec.Devices.Capacity[].RequestPolicy.ValidValues",
			"spec.Devices.Capacity[].RequestPolicy.ValidRange.Min",
			"spec.Devices.Capacity[].RequestPolicy.ValidRange.Max",
			"spec.Devices.Capacity[].RequestPolicy.ValidRange.Step",
			"spec.Devices.ConsumesCounters.Counters[].Value",
			"spec.Devices.NodeAllocatableResources[].Mapping.CapacityMultiplier",
			"spec.Devices.NodeAllocatableResources[].Mapping.DeviceMultiplier",
			"spec.Devices.NodeAllocatableResources[].Overhead.PerPod",
			"spec.Devices.NodeAllocatableResources[].Overhead.PerContainer",
			"spec.SharedCounters.Counters[].Value",
		}},
	} {
		if found := quantityPaths(c.typ, "spec"); !slices.Equal(found, c.want) {
			t.Errorf("quantities in the hub's %s: %q, want %q; make %s check the new ones", c.typ.Name(), found, c.want, c.check)
		}
	}
}

// quantityPaths lists the Go field paths of every quantity a value of typ
// can hold ("[]" marks map values).
func quantityPaths(typ reflect.Type, root string) []string {
	quantity := reflect.TypeOf(apiresource.Quantity{})
	var found []string
	var walk func(t reflect.Type, path string, seen map[reflect.Type]bool)
	walk = func(typ reflect.Type, path string, seen map[reflect.Type]bool) {
		switch {
		case typ == quantity:
			found = append(found, path)
			return
		case seen[typ]:
			return
		}
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(typ.Elem(), path, seen)
		case reflect.Map:
			walk(typ.Elem(), path+"[]", seen)
		case reflect.Struct:
			seen[typ] = true
			for i := range typ.NumField() {
				f := typ.Field(i)
				walk(f.Type, path+"."+f.Name, seen)
			}
			delete(seen, typ)
		}
	}
	walk(typ, root, map[reflect.Type]bool{})
	return found
}
