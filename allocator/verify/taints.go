package verify

import (
	"reflect"

	"github.com/drakit/drakit/apis/resource"
)

// taintsOf are a device's own taints followed by those of the
// DeviceTaintRules that select it (driver, pool, device name; a rule
// without selector selects nothing).
func (inv *Inventory) taintsOf(driver, pool string, d *resource.Device) []resource.DeviceTaint {
	out := append([]resource.DeviceTaint(nil), d.Taints...)
	for _, r := range inv.TaintRules {
		sel := r.Spec.DeviceSelector
		if sel == nil || sel.Driver != nil && *sel.Driver != driver || sel.Pool != nil && *sel.Pool != pool || sel.Device != nil && *sel.Device != d.Name {
			continue
		}
		out = append(out, r.Spec.Taint)
	}
	return out
}

// blocking reports whether a taint keeps a device from a request that does
// not tolerate it: only the effects NoSchedule and NoExecute do.
func blocking(t resource.DeviceTaint) bool {
	return t.Effect == resource.DeviceTaintEffectNoSchedule || t.Effect == resource.DeviceTaintEffectNoExecute
}

// tolerates is the toleration rule: an empty effect or key matches any,
// Exists matches every value, Equal (or no operator) the same value.
func tolerates(tol resource.DeviceToleration, t resource.DeviceTaint) bool {
	if tol.Effect != "" && tol.Effect != t.Effect || tol.Key != "" && tol.Key != t.Key {
		return false
	}
	switch tol.Operator {
	case "", resource.DeviceTolerationOpEqual:
		return tol.Value == t.Value
	case resource.DeviceTolerationOpExists:
		return true
	}
	return false
}

func tolerated(tols []resource.DeviceToleration, t resource.DeviceTaint) bool {
	for _, tol := range tols {
		if tolerates(tol, t) {
			return true
		}
	}
	return false
}

// sameList compares lists with nil and empty alike.
func sameList[T any](a, b []T) bool {
	return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b)
}
