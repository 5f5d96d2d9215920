package allocator

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/drakit/drakit/apis/resource"
)

// A share ID is a version 5 UUID as RFC 4122 defines it: the same name
// gives the UUID Python's uuid.uuid5(uuid.NAMESPACE_URL, "x") gives.
func TestNameUUID(t *testing.T) {
	if got, want := string(nameUUID(urlNamespace, []byte("x"))), "4cd605e7-afa2-5360-b5b9-c5e9fb5c76f4"; got != want {
		t.Errorf("nameUUID = %s, want %s", got, want)
	}
}

// uuidV5 is the normalized form of a version 5 RFC 4122 UUID, the only
// form validation accepts for a shareID (lowercase, 8-4-4-4-12).
var uuidV5 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// Share IDs come from the input alone: allocating the same claims twice,
// with fresh allocators, gives the same IDs; two claims sharing a device,
// and two claims of the same name that one call allocates, get different
// IDs; IDs committed before are not handed out again.
func TestShareIDsAreDeterministic(t *testing.T) {
	shares := func(claims ...*resource.ResourceClaim) []string {
		t.Helper()
		a := newNICAllocator(t, Sequential)
		results, err := a.Allocate(context.Background(), claims)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for i, r := range results {
			if r.Err != nil {
				t.Fatalf("claim %d: %v", i, r.Err)
			}
			for _, d := range r.Allocation.Devices.Results {
				if d.ShareID == nil {
					t.Fatalf("claim %d: result without shareID: %+v", i, d)
				}
				if !uuidV5.MatchString(string(*d.ShareID)) {
					t.Errorf("claim %d: shareID %q is not a lowercase version 5 UUID", i, *d.ShareID)
				}
				ids = append(ids, string(*d.ShareID))
			}
		}
		return ids
	}
	a := claim("a", exact("r", "gpu", bandwidth("2")))
	b := claim("b", exact("r", "gpu", bandwidth("2")))
	first, second := shares(a, b), shares(a, b)
	if len(first) != 2 || first[0] != second[0] || first[1] != second[1] {
		t.Errorf("the same input gave shareIDs %v, then %v", first, second)
	}
	if first[0] == first[1] {
		t.Errorf("claims a and b got the same shareID %s", first[0])
	}
	// The UID, when set, is the claim's identity instead of its name.
	withUID := a.DeepCopy()
	withUID.UID = "0b0e0f4e-5d5c-4a4b-8c8d-9e9f00010203"
	if got := shares(withUID); got[0] == first[0] {
		t.Errorf("claim a with a UID got the shareID %s of claim a without", got[0])
	}
	// Two claims of one identity in one call still get different IDs.
	if twins := shares(a, a.DeepCopy()); twins[0] == twins[1] {
		t.Errorf("two claims named a in one call got the same shareID %s", twins[0])
	}
}

// A shareID that a committed allocation uses is not handed out again,
// even to a claim of the same identity.
func TestShareIDNotReused(t *testing.T) {
	a := newNICAllocator(t, Joint)
	c := claim("a", exact("r", "gpu", bandwidth("2")))
	first, err := a.Allocate(context.Background(), []*resource.ResourceClaim{c})
	if err != nil || first[0].Err != nil {
		t.Fatal(err, first[0].Err)
	}
	a.Commit(first)
	second, err := a.Allocate(context.Background(), []*resource.ResourceClaim{c})
	if err != nil || second[0].Err != nil {
		t.Fatal(err, second[0].Err)
	}
	x, y := *first[0].Allocation.Devices.Results[0].ShareID, *second[0].Allocation.Devices.Results[0].ShareID
	if x == y {
		t.Errorf("shareID %s handed out twice", x)
	}
	a.Uncommit(first)
	third, _ := a.Allocate(context.Background(), []*resource.ResourceClaim{c})
	if z := *third[0].Allocation.Devices.Results[0].ShareID; z != x {
		t.Errorf("after Uncommit the claim got shareID %s, want %s again", z, x)
	}
}

// The IDs shareID remembers are the ones it derives: an Allocator that
// hands out shares of one claim again (from its memo) and one that derives
// them afresh (memo dropped, or full) give the same IDs in the same order.
func TestShareIDMemo(t *testing.T) {
	newAllocator := func() *Allocator { return newNICAllocator(t, Joint) }
	c := claim("a", exact("r", "gpu", bandwidth("2")))
	// three commits the same claim three times and returns the IDs; forget
	// runs before each allocation.
	three := func(a *Allocator, forget func()) []string {
		t.Helper()
		var ids []string
		var all [][]Result
		for range 3 {
			forget()
			results, err := a.Allocate(context.Background(), []*resource.ResourceClaim{c})
			if err != nil || results[0].Err != nil {
				t.Fatal(err, results[0].Err)
			}
			a.Commit(results)
			all = append(all, results)
			ids = append(ids, string(*results[0].Allocation.Devices.Results[0].ShareID))
		}
		for _, results := range all {
			a.Uncommit(results)
		}
		return ids
	}
	a := newAllocator()
	want := three(a, func() {})
	if want[0] == want[1] || want[1] == want[2] || want[0] == want[2] {
		t.Fatalf("three committed shares of one claim got IDs %v; they must differ", want)
	}
	if len(a.shareMemo) == 0 {
		t.Errorf("shareID remembered no names")
	}
	if got := three(a, func() {}); !slices.Equal(got, want) {
		t.Errorf("from the memo: IDs %v, derived: %v", got, want)
	}
	if got := three(newAllocator(), func() {}); !slices.Equal(got, want) {
		t.Errorf("fresh Allocator: IDs %v, want %v", got, want)
	}
	b := newAllocator()
	if got := three(b, func() { b.shareMemo = nil }); !slices.Equal(got, want) {
		t.Errorf("memo dropped before each call: IDs %v, want %v", got, want)
	}
	full := newAllocator()
	if got := three(full, func() {
		full.shareMemo = make(map[string]*shareNames, maxShareMemo)
		for i := range maxShareMemo {
			full.shareMemo[strconv.Itoa(i)] = nil
		}
	}); !slices.Equal(got, want) {
		t.Errorf("memo full before each call: IDs %v, want %v", got, want)
	}
	if len(full.shareMemo) >= maxShareMemo {
		t.Errorf("memo holds %d names, more than its bound %d", len(full.shareMemo), maxShareMemo)
	}
}

// newNICAllocator allocates for node n1 from one slice with one shared
// NIC, nic0, whose bandwidth claims consume.
func newNICAllocator(t *testing.T, mode Mode) *Allocator {
	t.Helper()
	a, err := New(Options{
		Classes: []*resource.DeviceClass{gpuClass},
		Slices:  []*resource.ResourceSlice{slice("s", drv, "n1", onNode("n1"), nic("nic0"))},
		Node:    node("n1"),
		Mode:    mode,
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestShareIDAfterUncommit: a share given back on the device makes its ID the
// first free one again, whatever shareID remembered of the device.
func TestShareIDAfterUncommit(t *testing.T) {
	a := newNICAllocator(t, Joint)
	c := claim("c", exact("r", "gpu", bandwidth("1")))
	allocate := func() Result {
		t.Helper()
		res, err := a.Allocate(context.Background(), []*resource.ResourceClaim{c})
		if err != nil || res[0].Err != nil {
			t.Fatal(err, res[0].Err)
		}
		return res[0]
	}
	idOf := func(r Result) string { return string(*r.Allocation.Devices.Results[0].ShareID) }
	var committed []Result
	for range 3 {
		r := allocate()
		a.Commit([]Result{r})
		committed = append(committed, r)
	}
	a.Uncommit(committed[1:2])
	again := allocate()
	if got, want := idOf(again), idOf(committed[1]); got != want {
		t.Fatalf("after uncommitting the second share: ID %s, want the second's %s", got, want)
	}
	a.Commit([]Result{again})
	next := allocate()
	for _, r := range committed {
		if idOf(next) == idOf(r) {
			t.Fatalf("fourth share got ID %s, which is in use", idOf(next))
		}
	}
}
