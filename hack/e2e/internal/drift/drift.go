// Package drift lists, with the reason for each, where the API servers the
// e2e suite runs against differ from the release drakit's version stands
// for. drakit's v1alpha2 is the 1.30 shape and runs against 1.30, so
// nothing drifts there. drakit's v1alpha3 is the 1.31 shape, but its server
// in the suite is 1.33, and 1.32 changed v1alpha3 in place when it removed
// classic DRA. Every test that compares drakit with the server takes its
// allowed differences from here (or, for the validation corpus and the
// OpenAPI documents, from a list next to the test), so each is stated once.
package drift

import "sort"

// Entry is one known difference.
type Entry struct {
	// Minor is the first release that differs (it holds for the releases
	// after it that the suite runs, up to Last).
	Minor int
	// Last, when not 0, is the last release that differs.
	Last int
	// Reason explains the difference.
	Reason string
}

const classicDRARemoved = "Kubernetes 1.32 removed classic DRA (control-plane controllers) and changed v1alpha3 in place: " +
	"spec.controller, status.allocation.controller, status.deallocationRequested and DeviceClass spec.suitableNodes " +
	"were deleted, and PodSchedulingContext is no longer served"

// unknownFields are the fields of drakit's types (by version/kind, as the
// server's strict decoder names them) that a server of that release and
// newer does not know.
var unknownFields = map[string]map[string]Entry{
	"v1alpha3/DeviceClass": {
		"spec.suitableNodes": {32, 0, classicDRARemoved},
	},
	"v1alpha3/ResourceClaim": {
		"spec.controller":              {32, 0, classicDRARemoved},
		"status.allocation.controller": {32, 0, classicDRARemoved},
		"status.deallocationRequested": {32, 0, classicDRARemoved},
	},
	"v1alpha3/ResourceClaimTemplate": {
		"spec.spec.controller": {32, 0, classicDRARemoved},
	},
	"v1alpha3/DeviceTaintRule": {
		"status": {33, 34, taintRuleStatusAdded},
	},
}

const taintRuleStatusAdded = "drakit's v1alpha3 DeviceTaintRule is the 1.37 one; its status (and the status subresource) came with 1.35"

// UnknownFields returns the sorted fields of version/kind that a server of
// the given minor release rejects as unknown under fieldValidation=Strict.
func UnknownFields(minor int, version, kind string) []string {
	var out []string
	for f, e := range unknownFields[version+"/"+kind] {
		if minor >= e.Minor && (e.Last == 0 || minor <= e.Last) {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}

// NotServed lists, by minor release, the version/kind pairs drakit has that
// the server does not serve, with the reason.
var NotServed = map[int]map[string]string{
	33: {
		"v1alpha3/PodSchedulingContext":      classicDRARemoved,
		"v1alpha3/ResourcePoolStatusRequest": "ResourcePoolStatusRequest came with 1.36",
	},
}

// SliceDeviceBasicAlwaysSet: 1.33 stores ResourceSlices in its internal
// shape, in which a device's attributes and capacity sit on the device
// itself; converting back to v1alpha3 always writes `basic`, so a device
// sent without `basic` comes back with `basic: {}`.
const SliceDeviceBasicAlwaysSet = "kube-apiserver 1.32+ converts every v1alpha3 device through its flat internal device and writes `basic` back even when it was absent"
