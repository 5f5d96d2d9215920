package conversion

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/resource/v1"
	resourcev1alpha3 "k8s.io/api/resource/v1alpha3"
	"k8s.io/api/resource/v1beta1"
	"k8s.io/api/resource/v1beta2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/randfill"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
	"github.com/drakit/drakit/internal/fuzzer"
)

// The round-trip tests fill objects of every registered kind with random
// values and require that conversion gives back exactly what went in
// (go-cmp, not semantic equality): version -> hub -> version,
// hub -> version -> hub, and chains through every version that has the kind.
// The guarantee is for objects as the API server stores them, after
// defaulting, so the tests default what they fill (defaulted), and for
// objects as their version's own defaulting leaves them, which differ in
// v1beta1 (defaultedOwn; the versioned objects of the tests without a server
// between the versions take turns); that an object without its defaults
// comes back as its defaulted form is TestRoundTripUndefaulted's.

// iterations per kind and direction: fuzzer.Iterations, full (10,000) with
// DRAKIT_FUZZ_FULL=1.
func iterations() int { return fuzzer.Iterations(10000, 300) }

// seed is the first seed; DRAKIT_ROUNDTRIP_SEED picks another.
func seed(t *testing.T) int64 {
	if s := os.Getenv("DRAKIT_ROUNDTRIP_SEED"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("DRAKIT_ROUNDTRIP_SEED=%q is not a number", s)
		}
		return n
	}
	return 20261122
}

// filler fills objects with values that every version can carry on the wire
// (the fuzzer's: valid quantities, raw extensions that are compact JSON
// objects, and a share of the values in the shapes conversion treats
// specially, such as driver selectors and legacy requests), strings that are
// valid UTF-8, and, for the versioned lists whose wire keeps [] apart from
// null, empty lists too (not for the v1-era versions' slice devices, which
// their JSON writes with omitempty: no server gives one back empty). TypeMeta stays empty: conversion never sets it; the
// caller does.
func filler(seed int64) *randfill.Filler {
	return fuzzer.New(seed).NilChance(0.25).NumElements(1, 2).Funcs(
		func(tm *metav1.TypeMeta, c randfill.Continue) { *tm = metav1.TypeMeta{} },
		func(s *v1alpha3.DeviceSelector, c randfill.Continue) {
			c.FillNoCustom(s)
			if c.Intn(3) == 0 {
				*s = v1alpha3.DeviceSelector{CEL: &v1alpha3.CELDeviceSelector{Expression: hub.DriverSelectorExpression(fuzzer.Name(c))}}
			}
		},
		func(s *v1beta1.DeviceSelector, c randfill.Continue) {
			c.FillNoCustom(s)
			if c.Intn(3) == 0 {
				*s = v1beta1.DeviceSelector{CEL: &v1beta1.CELDeviceSelector{Expression: hub.DriverSelectorExpression(fuzzer.Name(c))}}
			}
		},
		func(s *v1beta2.DeviceSelector, c randfill.Continue) {
			c.FillNoCustom(s)
			if c.Intn(3) == 0 {
				*s = v1beta2.DeviceSelector{CEL: &v1beta2.CELDeviceSelector{Expression: hub.DriverSelectorExpression(fuzzer.Name(c))}}
			}
		},
		func(s *v1.DeviceSelector, c randfill.Continue) {
			c.FillNoCustom(s)
			if c.Intn(3) == 0 {
				*s = v1.DeviceSelector{CEL: &v1.CELDeviceSelector{Expression: hub.DriverSelectorExpression(fuzzer.Name(c))}}
			}
		},
		v1beta1Request,
		fuzzer.NilEmptyOrFilled[v1alpha3.Device](),
		fuzzer.NilEmptyOrFilled[v1alpha3.DeviceRequest](),
		fuzzer.NilEmptyOrFilled[v1beta1.DeviceRequest](),
		fuzzer.NilEmptyOrFilled[v1beta2.DeviceRequest](),
		fuzzer.NilEmptyOrFilled[v1.DeviceRequest](),
		fuzzer.NilEmptyOrFilled[v1alpha2.NamedResourcesInstance](),
		namedResourcesInstance,
		// The servers stamp a taint without timeAdded with the time of the
		// request: a default of the clock, not of the object, which two
		// defaultings a second apart would not agree on. Every version with
		// taints gets one (v1alpha3's 1.37 kinds and the v1-era versions'
		// slices and taint rules; the hub leaves timeAdded to the versions).
		func(taint *resourcev1alpha3.DeviceTaint, c randfill.Continue) {
			c.FillNoCustom(taint)
			taint.TimeAdded = timeAdded(taint.TimeAdded, c)
		},
		func(taint *v1beta1.DeviceTaint, c randfill.Continue) {
			c.FillNoCustom(taint)
			taint.TimeAdded = timeAdded(taint.TimeAdded, c)
		},
		func(taint *v1beta2.DeviceTaint, c randfill.Continue) {
			c.FillNoCustom(taint)
			taint.TimeAdded = timeAdded(taint.TimeAdded, c)
		},
		func(taint *v1.DeviceTaint, c randfill.Continue) {
			c.FillNoCustom(taint)
			taint.TimeAdded = timeAdded(taint.TimeAdded, c)
		},
	)
}

// timeAdded is t, or a random time when t is nil.
func timeAdded(t *metav1.Time, c randfill.Continue) *metav1.Time {
	if t == nil {
		r := fuzzer.Time(c)
		t = &r
	}
	return t
}

// v1beta1Request fills a v1beta1 flat request, one time in three without a
// class, beside alternatives or not: the request that v1beta1's defaulting
// leaves alone and v1's (a 1.37 server's, see servedAsV1) does not, so that
// the tests that take objects as their version's defaulting leaves them
// (defaultedOwn) meet exact fields without a mode. Like the hub's requests
// (fuzzer.DeviceRequest), its allocation mode is ExactCount, All, empty or
// any string, and its count one, zero or any.
func v1beta1Request(r *v1beta1.DeviceRequest, c randfill.Continue) {
	c.FillNoCustom(r)
	if c.Intn(3) == 0 {
		r.DeviceClassName = ""
		if c.Bool() {
			r.FirstAvailable = nil
		}
	}
	switch c.Intn(4) {
	case 0:
		r.AllocationMode = v1beta1.DeviceAllocationModeExactCount
	case 1:
		r.AllocationMode = v1beta1.DeviceAllocationModeAll
	case 2:
		r.AllocationMode = ""
	}
	switch c.Intn(3) {
	case 0:
		r.Count = 1
	case 1:
		r.Count = 0
	}
}

// namedResourcesInstance fills a v1alpha2 instance as the 1.30 API server
// accepts it, and only so: no attribute name twice, and exactly one value
// in each attribute. Conversion refuses the others (the hub's maps cannot
// hold them); TestConvertRefusesInvalidInstances has them.
func namedResourcesInstance(inst *v1alpha2.NamedResourcesInstance, c randfill.Continue) {
	c.FillNoCustom(inst)
	seen := map[string]bool{}
	attrs := inst.Attributes[:0:0]
	for _, a := range inst.Attributes {
		if seen[a.Name] {
			continue
		}
		seen[a.Name] = true
		var v v1alpha2.NamedResourcesAttributeValue
		switch c.Intn(7) {
		case 0:
			c.Fill(&v.QuantityValue)
		case 1:
			c.Fill(&v.BoolValue)
		case 2:
			c.Fill(&v.IntValue)
		case 3:
			c.Fill(&v.IntSliceValue)
		case 4:
			c.Fill(&v.StringValue)
		case 5:
			c.Fill(&v.StringSliceValue)
		default:
			c.Fill(&v.VersionValue)
		}
		if v == (v1alpha2.NamedResourcesAttributeValue{}) {
			s := "1.0.0"
			v.VersionValue = &s // the filler chose no pointer at all
		}
		a.NamedResourcesAttributeValue = v
		attrs = append(attrs, a)
	}
	if inst.Attributes != nil {
		inst.Attributes = attrs
	}
}

// defaulted applies the defaults the API server applies before it stores
// an object: a version's own (Scheme.Default), or for a hub object the
// versions' defaults in their hub homes (hub.SetObjectDefaults). Each does
// nothing to the other's objects. It also applies what the servers do
// besides defaulting (normalised), and what a 1.37 server serves a v1beta1
// request with (servedAsV1).
func defaulted(obj runtime.Object) runtime.Object {
	Scheme.Default(obj)
	hub.SetObjectDefaults(obj)
	normalised(obj)
	servedAsV1(obj)
	return obj
}

// defaultedOwn is defaulted without servedAsV1: an object as its version's
// own defaulting leaves it, and as conversion, which defaults nothing, must
// give it back as well. It differs from defaulted only in a v1beta1
// request without a class, which v1beta1's defaulting gives no allocation
// mode and count, and which no server stores (it needs a class, or sets no
// exact field beside firstAvailable). The tests that convert without a
// server between the versions take half their objects this way.
func defaultedOwn(obj runtime.Object) runtime.Object {
	Scheme.Default(obj)
	hub.SetObjectDefaults(obj)
	normalised(obj)
	return obj
}

// defaultedAs is defaulted for even i and defaultedOwn for odd i.
func defaultedAs(i int, obj runtime.Object) runtime.Object {
	if i%2 == 1 {
		return defaultedOwn(obj)
	}
	return defaulted(obj)
}

// normalised applies to obj what the API servers do to what they store
// besides their version's defaulting, which conversion therefore gives back
// that way (docs/conversion.md, "Defaults" and "Presence"): a v1alpha3 or
// v1beta1 device without basic is a device with an empty one (the 1.31
// server requires basic; 1.37's v1beta1 always writes it).
func normalised(obj runtime.Object) {
	switch o := obj.(type) {
	case *v1alpha3.ResourceSlice:
		basicA3(o)
	case *v1alpha3.ResourceSliceList:
		for i := range o.Items {
			basicA3(&o.Items[i])
		}
	case *v1beta1.ResourceSlice:
		basicB1(o)
	case *v1beta1.ResourceSliceList:
		for i := range o.Items {
			basicB1(&o.Items[i])
		}
	}
}

// servedAsV1 gives a v1beta1 claim's or template's requests what a 1.37
// server serves them with: a request that sets any of the flat exact
// fields (deviceClassName, selectors, allocationMode, count, adminAccess,
// tolerations, capacity, derivedAttributes) gets v1's defaults, an empty
// allocationMode ExactCount and then an ExactCount count of 0 one, even
// without a deviceClassName. A 1.37 server stores a v1beta1 claim as v1,
// those fields in exactly, and defaults it with v1's
// SetDefaults_ExactDeviceRequest when it reads it back, so what it serves in
// v1beta1 has them, although v1beta1's own SetDefaults_DeviceRequest leaves
// a request without a class alone (defaultedOwn). A request with none of
// those fields (firstAvailable only) has no exactly in v1 and no defaults.
func servedAsV1(obj runtime.Object) {
	switch o := obj.(type) {
	case *v1beta1.ResourceClaim:
		requestsB1(&o.Spec)
	case *v1beta1.ResourceClaimList:
		for i := range o.Items {
			requestsB1(&o.Items[i].Spec)
		}
	case *v1beta1.ResourceClaimTemplate:
		requestsB1(&o.Spec.Spec)
	case *v1beta1.ResourceClaimTemplateList:
		for i := range o.Items {
			requestsB1(&o.Items[i].Spec.Spec)
		}
	}
}

func basicA3(s *v1alpha3.ResourceSlice) {
	for j := range s.Spec.Devices {
		if d := &s.Spec.Devices[j]; d.Basic == nil {
			d.Basic = &v1alpha3.BasicDevice{}
		}
	}
}

func basicB1(s *v1beta1.ResourceSlice) {
	for j := range s.Spec.Devices {
		if d := &s.Spec.Devices[j]; d.Basic == nil {
			d.Basic = &v1beta1.BasicDevice{}
		}
	}
}

func requestsB1(spec *v1beta1.ResourceClaimSpec) {
	for i := range spec.Devices.Requests {
		r := &spec.Devices.Requests[i]
		if r.DeviceClassName == "" && r.Selectors == nil && r.AllocationMode == "" && r.Count == 0 &&
			r.AdminAccess == nil && r.Tolerations == nil && r.Capacity == nil && r.DerivedAttributes == nil {
			continue
		}
		if r.AllocationMode == "" {
			r.AllocationMode = v1beta1.DeviceAllocationModeExactCount
		}
		if r.AllocationMode == v1beta1.DeviceAllocationModeExactCount && r.Count == 0 {
			r.Count = 1
		}
	}
}

// kindsUnderTest lists every resource.k8s.io kind the scheme knows, per
// version, leaving out the meta kinds every version registers; for the
// hub, the kinds the catalogue's versions convert to, with their lists. A
// kind of drakit's types that the scheme registers and the catalogue does
// not list fails the test: the loops, which follow the catalogue, would
// never exercise it.
func kindsUnderTest(t *testing.T) map[string][]string {
	kinds := map[string][]string{}
	hubKinds := map[string]bool{}
	for _, k := range catalogue.HubKinds() {
		hubKinds[k], hubKinds[k+"List"] = true, true
	}
	for gvk, typ := range Scheme.AllKnownTypes() {
		if gvk.Group != hub.GroupName || !strings.HasPrefix(typ.PkgPath(), drakitTypes) && !strings.HasPrefix(typ.PkgPath(), kubeAPITypes) {
			continue // the meta kinds (ListOptions, Status, ...) of every version
		}
		if gvk.Version == runtime.APIVersionInternal {
			if !hubKinds[gvk.Kind] {
				t.Errorf("the scheme's hub kind %s is not a hub kind of the catalogue: no version converts to it, and no test would", gvk.Kind)
			}
			continue
		}
		if _, err := HubKind(gvk); err != nil {
			t.Errorf("the scheme registers %s, which the catalogue does not list: no test would exercise it (%v)", gvk, err)
			continue
		}
		kinds[gvk.Version] = append(kinds[gvk.Version], gvk.Kind)
	}
	for _, k := range catalogue.HubKinds() {
		for _, kind := range []string{k, k + "List"} {
			if !Scheme.Recognizes(hub.SchemeGroupVersion.WithKind(kind)) {
				t.Fatalf("the catalogue's hub kind %s is not in the scheme", kind)
			}
			kinds[runtime.APIVersionInternal] = append(kinds[runtime.APIVersionInternal], kind)
		}
	}
	for _, ks := range kinds {
		sort.Strings(ks)
	}
	if len(kinds) != len(catalogue.Versions)+1 {
		t.Fatalf("the scheme has resource.k8s.io kinds in %d versions, want the hub and %d versions: %v", len(kinds), len(catalogue.Versions), kinds)
	}
	return kinds
}

// drakitTypes is the import path prefix of the hub's Go types and the
// alpha versions'; kubeAPITypes that of the versions whose types are
// k8s.io/api's.
const (
	drakitTypes  = "github.com/drakit/drakit/apis/resource"
	kubeAPITypes = "k8s.io/api/resource/"
)

// coverage records which (version, kind, direction) the tests exercised, so
// that a kind missing from the loops fails the run.
type coverage struct {
	mu   sync.Mutex
	seen map[string]int
}

func (c *coverage) add(key string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = map[string]int{}
	}
	c.seen[key] += n
}

func newObject(t *testing.T, gvk schema.GroupVersionKind) runtime.Object {
	obj, err := Scheme.New(gvk)
	if err != nil {
		t.Fatalf("Scheme.New(%s): %v", gvk, err)
	}
	return obj
}

func clearTypeMeta(obj runtime.Object) {
	obj.GetObjectKind().SetGroupVersionKind(schema.GroupVersionKind{})
}

// diff compares exactly. reflect.DeepEqual answers most calls quickly; it is
// stricter than needed only for quantities that went through the stash's
// JSON (same value, other cached text), so go-cmp, which compares Quantity
// and Time through their Equal methods, decides when it says no.
func diff(want, got any) string {
	if same(want, got) {
		return ""
	}
	return cmp.Diff(want, got)
}

// same is diff's answer without the report: cmp.Equal costs a fraction of
// cmp.Diff, which builds the report even for equal values, and the
// round-trip tests compare millions of pairs with DRAKIT_FUZZ_FULL=1, many
// of which TestRoundTripUndefaulted expects to differ.
func same(want, got any) bool {
	return reflect.DeepEqual(want, got) || cmp.Equal(want, got)
}

// TestRoundTripVersionHubVersion: any object of any version survives a
// trip through the hub unchanged.
func TestRoundTripVersionHubVersion(t *testing.T) {
	t.Parallel() // with the other round trips: their subtests share the cores
	var cov coverage
	kinds := kindsUnderTest(t)
	for _, gv := range Versions {
		for _, kind := range kinds[gv.Version] {
			gvk := gv.WithKind(kind)
			t.Run(gv.Version+"/"+kind, func(t *testing.T) {
				t.Parallel()
				f := filler(seed(t) + int64(len(kind)))
				n := iterations()
				for i := 0; i < n; i++ {
					in := newObject(t, gvk)
					f.Fill(in)
					defaultedAs(i, in)
					original := in.DeepCopyObject()
					h, err := ToHub(in)
					if err != nil {
						t.Fatalf("iteration %d: to hub: %v", i, err)
					}
					out, err := FromHub(h, gv.Version)
					if err != nil {
						t.Fatalf("iteration %d: from hub: %v", i, err)
					}
					clearTypeMeta(out)
					if d := diff(original, out); d != "" {
						t.Fatalf("iteration %d: %s -> hub -> %s changed the object (-in +out):\n%s", i, gvk, gv.Version, d)
					}
					if d := diff(original, in); d != "" {
						t.Fatalf("iteration %d: conversion modified its input (-before +after):\n%s", i, d)
					}
				}
				cov.add("v>h>v "+gvk.String(), n)
			})
		}
	}
	t.Cleanup(func() { requireCoverage(t, &cov, kinds, "v>h>v") })
}

// TestRoundTripHubVersionHub: any hub object survives a trip through every
// version that has its kind, the stash keeping what the version cannot say.
func TestRoundTripHubVersionHub(t *testing.T) {
	t.Parallel() // with the other round trips: their subtests share the cores
	var cov coverage
	kinds := kindsUnderTest(t)
	for _, hubKind := range kinds[runtime.APIVersionInternal] {
		for _, gv := range Versions {
			if _, err := KindIn(hubKind, gv.Version); err != nil {
				continue
			}
			hubGVK := hub.SchemeGroupVersion.WithKind(hubKind)
			t.Run(hubKind+"/"+gv.Version, func(t *testing.T) {
				t.Parallel()
				f := filler(seed(t) + int64(len(hubKind)+len(gv.Version)))
				n := iterations()
				for i := 0; i < n; i++ {
					in := newObject(t, hubGVK)
					f.Fill(in)
					defaulted(in)
					original := in.DeepCopyObject()
					v, err := FromHub(in, gv.Version)
					if err != nil {
						t.Fatalf("iteration %d: to %s: %v", i, gv.Version, err)
					}
					out, err := ToHub(v)
					if err != nil {
						t.Fatalf("iteration %d: back to hub: %v", i, err)
					}
					clearTypeMeta(out)
					if d := diff(original, out); d != "" {
						t.Fatalf("iteration %d: hub -> %s -> hub changed the object (-in +out):\n%s", i, gv.Version, d)
					}
					if d := diff(original, in); d != "" {
						t.Fatalf("iteration %d: conversion modified its input (-before +after):\n%s", i, d)
					}
				}
				kind, _ := KindIn(hubKind, gv.Version)
				cov.add("h>v>h "+gv.WithKind(kind).String(), n)
			})
		}
	}
	t.Cleanup(func() { requireCoverage(t, &cov, kinds, "h>v>h") })
}

// TestRoundTripChains: an object converted through every other version that
// has its kind and back to where it started is unchanged; so is a hub object
// sent through all of them.
//
// Six versions have 720 orders, too many to try each with many objects; the
// test samples them (chainOrders, seeded by DRAKIT_ROUNDTRIP_SEED): every
// version starts a chain (the random objects are filled in the version a
// chain starts in), and every ordered pair of versions follows one another
// in some chain. With the default seed that takes one order per version,
// the least it can be: 6 for the kinds all six versions have (DeviceClass,
// ResourceClaim, ResourceClaimTemplate and their lists; 30 ordered pairs), 5
// for ResourceSlice, 3 for PodSchedulingContext and DeviceTaintRule, and 1
// for the kinds of one version (of 720, 120, 6 and 1 orders). Each
// chain converts iterations() objects from its first version and as many
// hub objects: 300 each quick (30 with -short), 10,000 with
// DRAKIT_FUZZ_FULL=1.
func TestRoundTripChains(t *testing.T) {
	t.Parallel() // with the other round trips: their subtests share the cores
	var cov coverage
	kinds := kindsUnderTest(t)
	for _, hubKind := range kinds[runtime.APIVersionInternal] {
		var versions []string
		for _, gv := range Versions {
			if _, err := KindIn(hubKind, gv.Version); err == nil {
				versions = append(versions, gv.Version)
			}
		}
		orders := chainOrders(versions, seed(t))
		n := iterations()
		for _, order := range orders {
			name := hubKind
			for _, v := range order {
				name += "/" + v
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				f := filler(seed(t) + nameSeed(name))
				startKind, _ := KindIn(hubKind, order[0])
				startGVK := schema.GroupVersion{Group: hub.GroupName, Version: order[0]}.WithKind(startKind)
				for i := 0; i < n; i++ {
					// From the first version through the others and back.
					in := newObject(t, startGVK)
					f.Fill(in)
					defaultedAs(i, in)
					original := in.DeepCopyObject()
					obj := in
					path := append(append([]string{}, order[1:]...), order[0])
					for _, v := range path {
						next, err := Convert(obj, schema.GroupVersion{Group: hub.GroupName, Version: v})
						if err != nil {
							t.Fatalf("iteration %d: to %s: %v", i, v, err)
						}
						obj = next
					}
					clearTypeMeta(obj)
					if d := diff(original, obj); d != "" {
						t.Fatalf("iteration %d: %v changed the object (-in +out):\n%s", i, append([]string{order[0]}, path...), d)
					}

					// A hub object through all of them.
					h := newObject(t, hub.SchemeGroupVersion.WithKind(hubKind))
					f.Fill(h)
					defaulted(h)
					originalHub := h.DeepCopyObject()
					cur := hubThrough(t, i, h, order)
					clearTypeMeta(cur)
					if d := diff(originalHub, cur); d != "" {
						t.Fatalf("iteration %d: hub through %v changed the object (-in +out):\n%s", i, order, d)
					}
				}
				cov.add("chain "+hubKind, n)
				cov.add("start "+hubKind+" "+order[0], n)
				for j := range order {
					cov.add("pair "+hubKind+" "+order[j]+">"+order[(j+1)%len(order)], n)
				}
			})
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			return
		}
		for _, k := range kinds[runtime.APIVersionInternal] {
			if cov.seen["chain "+k] < iterations() {
				t.Errorf("chains of hub kind %s converted %d objects, want at least %d", k, cov.seen["chain "+k], iterations())
			}
			var versions []string
			for _, gv := range Versions {
				if _, err := KindIn(k, gv.Version); err == nil {
					versions = append(versions, gv.Version)
				}
			}
			for _, a := range versions {
				if cov.seen["start "+k+" "+a] == 0 {
					t.Errorf("no chain of %s started in %s", k, a)
				}
				for _, b := range versions {
					if a != b && cov.seen["pair "+k+" "+a+">"+b] == 0 {
						t.Errorf("no chain of %s went from %s to %s", k, a, b)
					}
				}
			}
		}
	})
}

// nameSeed is a number from a subtest's name, to seed its filler: chains
// of the same kind differ in their order only.
func nameSeed(name string) int64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return int64(h.Sum64() >> 1)
}

// TestRoundTripUndefaulted: an object without its defaults converts too,
// and comes back as it was up to its defaults: each field that a version
// defaults comes back as it was or with its default (where the trip went
// through a version without the field, the stash did not keep the empty
// value, and the default filled it in). Defaulted, what comes back is the
// input defaulted. This holds for a hub object through each version and
// through all of them, and for an object of each version through the hub
// and through all the other versions.
func TestRoundTripUndefaulted(t *testing.T) {
	t.Parallel() // with the other round trips: their subtests share the cores
	kinds := kindsUnderTest(t)
	for _, hubKind := range kinds[runtime.APIVersionInternal] {
		var versions []string
		for _, gv := range Versions {
			if _, err := KindIn(hubKind, gv.Version); err == nil {
				versions = append(versions, gv.Version)
			}
		}
		t.Run(hubKind, func(t *testing.T) {
			t.Parallel()
			f := filler(seed(t) + 7 + int64(len(hubKind)))
			changed := 0
			check := func(i int, trip string, in, original, out runtime.Object) {
				t.Helper()
				clearTypeMeta(out)
				if d := diff(original, in); d != "" {
					t.Fatalf("iteration %d: %s modified its input (-before +after):\n%s", i, trip, d)
				}
				if d := diff(defaulted(original.DeepCopyObject()), defaulted(out.DeepCopyObject())); d != "" {
					t.Fatalf("iteration %d: %s changed more than defaults (-in +out, both defaulted):\n%s", i, trip, d)
				}
				if !same(original, out) {
					changed++
				}
			}
			convert := func(i int, obj runtime.Object, path []string) runtime.Object {
				t.Helper()
				for _, v := range path {
					next, err := Convert(obj, gv(v))
					if err != nil {
						t.Fatalf("iteration %d: to %s: %v", i, v, err)
					}
					obj = next
				}
				return obj
			}
			// Each iteration makes three trips per version and one through
			// all of them: 2,500 iterations are 25,000 trips of a claim.
			for i := range fuzzer.Iterations(2500, 100) {
				for _, v := range versions {
					h := newObject(t, hub.SchemeGroupVersion.WithKind(hubKind))
					f.Fill(h)
					original := h.DeepCopyObject()
					check(i, "hub -> "+v+" -> hub", h, original, hubThrough(t, i, h, []string{v}))

					kind, _ := KindIn(hubKind, v)
					in := newObject(t, gv(v).WithKind(kind))
					f.Fill(in)
					original = in.DeepCopyObject()
					h2, err := ToHub(in)
					if err != nil {
						t.Fatalf("iteration %d: %s to hub: %v", i, v, err)
					}
					out, err := FromHub(h2, v)
					if err != nil {
						t.Fatalf("iteration %d: hub to %s: %v", i, v, err)
					}
					check(i, v+" -> hub -> "+v, in, original, out)

					var others []string
					for _, o := range versions {
						if o != v {
							others = append(others, o)
						}
					}
					if len(others) > 0 {
						in = newObject(t, gv(v).WithKind(kind))
						f.Fill(in)
						original = in.DeepCopyObject()
						path := append(others, v)
						check(i, fmt.Sprint(append([]string{v}, path...)), in, original, convert(i, in, path))
					}
				}
				h := newObject(t, hub.SchemeGroupVersion.WithKind(hubKind))
				f.Fill(h)
				original := h.DeepCopyObject()
				check(i, fmt.Sprint("hub through ", versions), h, original, hubThrough(t, i, h, versions))
			}
			// The claims' defaults must have had something to do.
			if hasDefaults[hubKind] && changed == 0 {
				t.Errorf("no trip of a %s changed anything: the test never left a default out", hubKind)
			}
		})
	}
}

// hubThrough converts a hub object to each of versions and back to the
// hub in turn, and returns the last hub object.
func hubThrough(t *testing.T, i int, h runtime.Object, versions []string) runtime.Object {
	t.Helper()
	for _, v := range versions {
		next, err := FromHub(h, v)
		if err != nil {
			t.Fatalf("iteration %d: hub to %s: %v", i, v, err)
		}
		if h, err = ToHub(next); err != nil {
			t.Fatalf("iteration %d: %s to hub: %v", i, v, err)
		}
	}
	return h
}

// hasDefaults are the kinds that have defaults in some version.
var hasDefaults = map[string]bool{
	"ResourceClaim": true, "ResourceClaimList": true, "ResourceClaimTemplate": true, "ResourceClaimTemplateList": true,
}

// chainOrders picks the orders TestRoundTripChains sends a kind through,
// from seed alone: chain k starts in versions[k mod n], so that every
// version starts one, and goes on through the others in the one of 64
// random orders that adds the most ordered pairs (a, b) of versions not yet
// following one another in a chosen chain (cyclically: a chain ends where it
// started). It stops when every version has started a chain and every
// ordered pair has been chosen.
func chainOrders(versions []string, seed int64) [][]string {
	n := len(versions)
	var orders [][]string
	covered := map[[2]string]bool{}
	newPairs := func(order []string) int {
		k := 0
		for i := range order {
			if p := [2]string{order[i], order[(i+1)%n]}; p[0] != p[1] && !covered[p] {
				k++
			}
		}
		return k
	}
	rng := rand.New(rand.NewPCG(uint64(seed), uint64(n)))
	for k := 0; k < n || len(covered) < n*(n-1); k++ {
		start := versions[k%n]
		var best []string
		for range 64 {
			order := []string{start}
			for _, v := range versions {
				if v != start {
					order = append(order, v)
				}
			}
			rng.Shuffle(n-1, func(i, j int) { order[i+1], order[j+1] = order[j+1], order[i+1] })
			if best == nil || newPairs(order) > newPairs(best) {
				best = order
			}
		}
		orders = append(orders, best)
		for i := range best {
			if p := [2]string{best[i], best[(i+1)%n]}; p[0] != p[1] {
				covered[p] = true
			}
		}
	}
	return orders
}

// requireCoverage fails when a versioned kind of the scheme was not
// exercised, or exercised fewer times than asked.
func requireCoverage(t *testing.T, cov *coverage, kinds map[string][]string, direction string) {
	if t.Failed() {
		return
	}
	want := 0
	for _, gv := range Versions {
		for _, kind := range kinds[gv.Version] {
			want++
			key := direction + " " + gv.WithKind(kind).String()
			if got := cov.seen[key]; got < iterations() {
				t.Errorf("%s: %s ran %d iterations, want %d", direction, gv.WithKind(kind), got, iterations())
			}
		}
	}
	if want == 0 || len(cov.seen) != want {
		t.Errorf("%s: exercised %d kinds, the scheme has %d", direction, len(cov.seen), want)
	}
}
