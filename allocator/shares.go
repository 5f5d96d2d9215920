package allocator

import (
	apiresource "k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"

	"github.com/drakit/drakit/apis/resource"
)

// deviceShares are the allocated shares of one multi-allocation device:
// their shareIDs and the capacity they consume together.
type deviceShares struct {
	ids      map[types.UID]bool
	consumed map[resource.QualifiedName]apiresource.Quantity
	// unholds counts the shares given back (unhold). shareID's hint: the
	// attempts of the name hintOf before hintNext were in use when it
	// last made an ID for the device, with unholds at hintUnholds.
	unholds     int
	hintOf      *shareNames
	hintNext    int
	hintUnholds int
}

// holdKind says how an allocation result holds its device.
type holdKind int

const (
	holdsNothing holdKind = iota // an adminAccess result
	holdsShare                   // a share of a multi-allocation device
	holdsDevice                  // the whole device
)

func (a *Allocator) holdOf(r *resource.DeviceRequestAllocationResult) holdKind {
	switch {
	case r.AdminAccess != nil && *r.AdminAccess:
		return holdsNothing
	case r.ShareID != nil:
		return holdsShare
	}
	return holdsDevice
}

// hold records what one result holds; it reports whether anything changed
// (a share already recorded is not recorded twice).
func (a *Allocator) hold(r *resource.DeviceRequestAllocationResult) bool {
	id := DeviceID{r.Driver, r.Pool, r.Device}
	switch a.holdOf(r) {
	case holdsShare:
		s := a.shares[id]
		if s == nil {
			s = &deviceShares{ids: map[types.UID]bool{}, consumed: map[resource.QualifiedName]apiresource.Quantity{}}
			if a.shares == nil {
				a.shares = map[DeviceID]*deviceShares{}
			}
			a.shares[id] = s
			a.sharesGen++
		}
		if s.ids[*r.ShareID] {
			return false
		}
		s.ids[*r.ShareID] = true
		addQuantities(s.consumed, r.ConsumedCapacity, +1)
		return true
	case holdsDevice:
		// One look at the pool's record for both the check and the mark.
		if !a.allocated.add(id) {
			return false
		}
		a.setInUse(id, true)
		return true
	}
	return false
}

// unhold undoes hold.
func (a *Allocator) unhold(r *resource.DeviceRequestAllocationResult) {
	id := DeviceID{r.Driver, r.Pool, r.Device}
	switch a.holdOf(r) {
	case holdsShare:
		s := a.shares[id]
		if s == nil || !s.ids[*r.ShareID] {
			return
		}
		delete(s.ids, *r.ShareID)
		s.unholds++
		addQuantities(s.consumed, r.ConsumedCapacity, -1)
		if len(s.ids) == 0 {
			delete(a.shares, id)
			a.sharesGen++
		}
	case holdsDevice:
		a.MarkFree(id)
	}
}

// Commit records what successful results hold, so that later calls do not
// hand it out again: whole devices, and the shares of multi-allocation
// devices (which consume only their capacity). Results of adminAccess
// requests hold nothing. Failed results and claims that came
// allocated are skipped.
func (a *Allocator) Commit(results []Result) {
	for _, r := range results {
		if r.Err != nil || r.Allocation == nil || r.AlreadyAllocated {
			continue
		}
		for i := range r.Allocation.Devices.Results {
			a.hold(&r.Allocation.Devices.Results[i])
		}
	}
}

// Uncommit undoes Commit exactly: the devices of the results are
// free again and their shares give back the capacity they consumed (other
// shares of the same device stay). Use it when a committed claim is
// deallocated; MarkFree frees whole devices.
func (a *Allocator) Uncommit(results []Result) {
	for _, r := range results {
		if r.Err != nil || r.Allocation == nil || r.AlreadyAllocated {
			continue
		}
		for i := range r.Allocation.Devices.Results {
			a.unhold(&r.Allocation.Devices.Results[i])
		}
	}
}

// shareIDs are the shareIDs in use on a device before the call.
func (a *Allocator) sharesOf(id DeviceID) *deviceShares { return a.shares[id] }
