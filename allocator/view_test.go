package allocator

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/drakit/drakit/apis/resource"
)

// Masks handed out in one call are zeroed, never overlap (writing one,
// even appending to it, leaves the others alone), and their memory serves
// the next call once reset.
func TestMaskMemory(t *testing.T) {
	var m maskMemory
	var got [][]uint64
	for i := range 40 {
		w := m.words(i%5 + 1)
		for k := range w {
			if w[k] != 0 {
				t.Fatalf("mask %d word %d is %x, want 0", i, k, w[k])
			}
			w[k] = uint64(i + 1)
		}
		_ = append(w, 99)
		got = append(got, w)
	}
	for i, w := range got {
		for k := range w {
			if w[k] != uint64(i+1) {
				t.Errorf("mask %d word %d is %d, want %d: masks overlap", i, k, w[k], i+1)
			}
		}
	}
	rows := m.rows(3)
	rows[0] = got[0]
	if other := m.rows(2); other[0] != nil || len(rows) != 3 || len(other) != 2 {
		t.Errorf("rows(2) after rows(3) = %v (rows(3) = %d long), want 2 nil masks", other, len(rows))
	}
	m.reset()
	if w := m.words(5); w[0] != 0 || w[4] != 0 {
		t.Errorf("after reset words(5) = %v, want zeros", w)
	}
	if r := m.rows(3); r[0] != nil {
		t.Errorf("after reset rows(3)[0] = %v, want nil", r[0])
	}
	if cap(m.buf) > 256 {
		t.Errorf("40 masks of at most 5 words took a buffer of %d words", cap(m.buf))
	}
}

// masksFor keeps one string per key across calls, and drops them all
// when it has maxMaskKeys.
func TestMaskKeysBounded(t *testing.T) {
	a := newNICAllocator(t, Joint)
	c := claim("a", exact("r", "gpu", bandwidth("2")))
	allocate := func() {
		t.Helper()
		results, err := a.Allocate(context.Background(), []*resource.ResourceClaim{c})
		if err != nil || results[0].Err != nil {
			t.Fatal(err, results[0].Err)
		}
	}
	allocate()
	keys := len(a.maskKeys)
	if keys == 0 {
		t.Fatalf("a call asked masksFor for no key")
	}
	allocate()
	if len(a.maskKeys) != keys {
		t.Errorf("the same call again: %d keys, want %d", len(a.maskKeys), keys)
	}
	// Full of other keys: they are dropped for the call's.
	a.maskKeys = make(map[string]string, maxMaskKeys)
	for i := range maxMaskKeys {
		a.maskKeys[strconv.Itoa(i)+"x"] = ""
	}
	allocate()
	if len(a.maskKeys) != keys {
		t.Errorf("after a call that found the keys full: %d keys, want the call's %d", len(a.maskKeys), keys)
	}
}

// A call reuses the memory of the call before (plans, candidate lists, the
// search's lists, masks): a sequence of different claims on one Allocator
// gets what each gets from a fresh one.
func TestCallsReuseMemory(t *testing.T) {
	opts := Options{
		Classes: []*resource.DeviceClass{gpuClass},
		Slices:  []*resource.ResourceSlice{slice("s1", drv, "n1", onNode("n1"), gpus(8, numaHalf4)...)},
		Node:    node("n1"),
	}
	claims := []*resource.ResourceClaim{
		claim("three", req("r", "gpu", count(3))),
		claim("numa1", req("r", "gpu", count(2), sel(`device.attributes["gpu.example.com"].numa == 1`))),
		withConstraint(claim("pair", req("a", "gpu"), req("b", "gpu", count(2))), "gpu.example.com/numa"),
		claim("one", req("r", "gpu")),
		claim("eight", req("r", "gpu", count(8))),
		claim("three", req("r", "gpu", count(3))),
	}
	devices := func(a *Allocator, c *resource.ResourceClaim) string {
		t.Helper()
		results, err := a.Allocate(context.Background(), []*resource.ResourceClaim{c})
		if err != nil {
			t.Fatal(err)
		}
		if results[0].Err != nil {
			return results[0].Err.Error()
		}
		var out []string
		for _, d := range results[0].Allocation.Devices.Results {
			out = append(out, d.Request+"="+d.Device)
		}
		return strings.Join(out, ",")
	}
	reused, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range claims {
		fresh, err := New(opts)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := devices(reused, c), devices(fresh, c); got != want {
			t.Errorf("claim %s on a used Allocator: %s; on a fresh one: %s", c.Name, got, want)
		}
	}
}
