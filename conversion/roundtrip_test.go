package conversion

import (
	"fmt"
	"os"
	"reflect"
	"sort"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/randfill"

	hub "github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/apis/resource/v1alpha2"
	"github.com/drakit/drakit/apis/resource/v1alpha3"
)

// The round-trip tests fill objects of every registered kind with random
// values and require that conversion gives back exactly what went in
// (go-cmp, not semantic equality): version -> hub -> version,
// hub -> version -> hub, and chains through every version that has the kind.

// iterations per kind and direction; DRAKIT_ROUNDTRIP_ITERATIONS overrides
// it (for a quick local run), DRAKIT_ROUNDTRIP_SEED picks another seed.
func iterations(t *testing.T) int {
	if s := os.Getenv("DRAKIT_ROUNDTRIP_ITERATIONS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("DRAKIT_ROUNDTRIP_ITERATIONS=%q is not a positive number", s)
		}
		return n
	}
	if testing.Short() {
		return 500
	}
	return 10000
}

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

// filler fills objects with values that every version can carry on the wire:
// strings are valid UTF-8, raw extensions are compact JSON objects (the wire
// has no other form), quantities are valid, and a share of the values take
// the shapes conversion treats specially (driver selectors, legacy requests,
// empty lists where the wire keeps them apart from absent ones).
func filler(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.25).NumElements(1, 2).Funcs(
		func(tm *metav1.TypeMeta, c randfill.Continue) {
			*tm = metav1.TypeMeta{} // conversion never sets it; the caller does
		},
		func(re *runtime.RawExtension, c randfill.Continue) {
			*re = runtime.RawExtension{}
			if c.Bool() {
				re.Raw = []byte(fmt.Sprintf(`{"apiVersion":"gpu.example.com/v1","kind":"Config","n":%d}`, c.Int63n(1000)))
			}
		},
		func(q *apiresource.Quantity, c randfill.Continue) {
			*q = *apiresource.NewQuantity(c.Int63n(1<<40), apiresource.BinarySI)
		},
		func(s *hub.DeviceSelector, c randfill.Continue) {
			c.FillNoCustom(s)
			if c.Intn(3) == 0 {
				*s = hub.DriverSelector(randomName(c))
			}
		},
		func(s *v1alpha3.DeviceSelector, c randfill.Continue) {
			c.FillNoCustom(s)
			if c.Intn(3) == 0 {
				*s = v1alpha3.DeviceSelector{CEL: &v1alpha3.CELDeviceSelector{Expression: hub.DriverSelectorExpression(randomName(c))}}
			}
		},
		func(r *hub.DeviceRequest, c randfill.Continue) {
			c.FillNoCustom(r)
			if c.Intn(3) == 0 {
				*r = hub.DeviceRequest{Name: hub.LegacyRequestName, DeviceClassName: randomName(c), AllocationMode: hub.DeviceAllocationModeExactCount, Count: 1}
			}
		},
		func(r *[]hub.DeviceRequest, c randfill.Continue) {
			switch c.Intn(8) {
			case 0:
				*r = nil
			case 1:
				*r = []hub.DeviceRequest{} // v1alpha3 writes "requests": [] apart from null
			default:
				c.FillNoCustom(r)
			}
		},
		func(d *[]hub.Device, c randfill.Continue) {
			switch c.Intn(8) {
			case 0:
				*d = nil
			case 1:
				*d = []hub.Device{}
			default:
				c.FillNoCustom(d)
			}
		},
		func(d *[]v1alpha3.Device, c randfill.Continue) {
			switch c.Intn(8) {
			case 0:
				*d = nil
			case 1:
				*d = []v1alpha3.Device{}
			default:
				c.FillNoCustom(d)
			}
		},
		func(i *[]v1alpha2.NamedResourcesInstance, c randfill.Continue) {
			switch c.Intn(8) {
			case 0:
				*i = nil
			case 1:
				*i = []v1alpha2.NamedResourcesInstance{}
			default:
				c.FillNoCustom(i)
			}
		},
		func(h *hub.StructuredResourceHandle, c randfill.Continue) {
			c.FillNoCustom(h)
			if c.Intn(4) == 0 {
				h.Results = []hub.DriverAllocationResult{}
			}
		},
		func(a *hub.AllocationResult, c randfill.Continue) {
			c.FillNoCustom(a)
			// Allocations in each version's own shape, which render into
			// the others' (handles into results and back).
			switch c.Intn(4) {
			case 0:
				a.ResourceHandles = nil
			case 1:
				a.Devices.Results = nil
			}
		},
		func(p *hub.ResourcePool, c randfill.Continue) {
			c.FillNoCustom(p)
			if c.Bool() {
				*p = hub.ResourcePool{Name: randomName(c), ResourceSliceCount: 1}
			}
		},
	)
}

// randomName is a driver or class name, sometimes empty: an empty name is
// where the legacy and v1alpha3 shapes are easiest to confuse.
func randomName(c randfill.Continue) string {
	if c.Intn(4) == 0 {
		return ""
	}
	return fmt.Sprintf("driver-%d.example.com", c.Intn(3))
}

// kindsUnderTest lists every resource.k8s.io kind the scheme knows, per
// version, leaving out the meta kinds every version registers.
func kindsUnderTest(t *testing.T) map[string][]string {
	kinds := map[string][]string{}
	for gvk := range Scheme.AllKnownTypes() {
		if gvk.Group != hub.GroupName {
			continue
		}
		if gvk.Version != runtime.APIVersionInternal {
			if _, err := HubKind(gvk); err != nil {
				continue
			}
		} else if isMetaKind(gvk.Kind) {
			continue
		}
		kinds[gvk.Version] = append(kinds[gvk.Version], gvk.Kind)
	}
	for _, ks := range kinds {
		sort.Strings(ks)
	}
	if len(kinds) != 4 {
		t.Fatalf("the scheme has resource.k8s.io kinds in %d versions, want the hub and 3 versions: %v", len(kinds), kinds)
	}
	return kinds
}

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
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return cmp.Diff(want, got)
}

// TestRoundTripVersionHubVersion: any object of any version survives a
// trip through the hub unchanged.
func TestRoundTripVersionHubVersion(t *testing.T) {
	var cov coverage
	kinds := kindsUnderTest(t)
	for _, gv := range Versions {
		for _, kind := range kinds[gv.Version] {
			gvk := gv.WithKind(kind)
			t.Run(gv.Version+"/"+kind, func(t *testing.T) {
				t.Parallel()
				f := filler(seed(t) + int64(len(kind)))
				n := iterations(t)
				for i := 0; i < n; i++ {
					in := newObject(t, gvk)
					f.Fill(in)
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
				n := iterations(t)
				for i := 0; i < n; i++ {
					in := newObject(t, hubGVK)
					f.Fill(in)
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
// has its kind, in every order, and back to where it started is unchanged;
// so is a hub object sent through all of them.
func TestRoundTripChains(t *testing.T) {
	var cov coverage
	kinds := kindsUnderTest(t)
	for _, hubKind := range kinds[runtime.APIVersionInternal] {
		var versions []string
		for _, gv := range Versions {
			if _, err := KindIn(hubKind, gv.Version); err == nil {
				versions = append(versions, gv.Version)
			}
		}
		for _, order := range permutations(versions) {
			name := hubKind
			for _, v := range order {
				name += "/" + v
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				f := filler(seed(t) + int64(len(name)))
				n := iterations(t)
				startKind, _ := KindIn(hubKind, order[0])
				startGVK := schema.GroupVersion{Group: hub.GroupName, Version: order[0]}.WithKind(startKind)
				for i := 0; i < n; i++ {
					// From the first version through the others and back.
					in := newObject(t, startGVK)
					f.Fill(in)
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
					originalHub := h.DeepCopyObject()
					var cur runtime.Object = h
					for _, v := range order {
						next, err := FromHub(cur, v)
						if err != nil {
							t.Fatalf("iteration %d: hub to %s: %v", i, v, err)
						}
						if cur, err = ToHub(next); err != nil {
							t.Fatalf("iteration %d: %s to hub: %v", i, v, err)
						}
					}
					clearTypeMeta(cur)
					if d := diff(originalHub, cur); d != "" {
						t.Fatalf("iteration %d: hub through %v changed the object (-in +out):\n%s", i, order, d)
					}
				}
				cov.add("chain "+hubKind, n)
			})
		}
	}
	t.Cleanup(func() {
		for _, k := range kinds[runtime.APIVersionInternal] {
			if cov.seen["chain "+k] == 0 {
				t.Errorf("no chain exercised hub kind %s", k)
			}
		}
	})
}

func permutations(items []string) [][]string {
	if len(items) <= 1 {
		return [][]string{append([]string{}, items...)}
	}
	var out [][]string
	for i := range items {
		rest := append(append([]string{}, items[:i]...), items[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]string{items[i]}, p...))
		}
	}
	return out
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
			if got := cov.seen[key]; got < iterations(t) {
				t.Errorf("%s: %s ran %d iterations, want %d", direction, gv.WithKind(kind), got, iterations(t))
			}
		}
	}
	if want == 0 || len(cov.seen) != want {
		t.Errorf("%s: exercised %d kinds, the scheme has %d", direction, len(cov.seen), want)
	}
}
