package validate

import (
	"fmt"
	"sort"
	"strings"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/validation"
)

// rulesTable lists, one line per catalogue version, the release whose
// validation rules drakit applies to its objects, with the kinds that
// follow another release's rules.
func rulesTable() string {
	var b strings.Builder
	for _, v := range catalogue.Versions {
		line := fmt.Sprintf("  %-26s Kubernetes 1.%d", v.GroupVersion().String(), v.Rules)
		byRelease := map[int][]string{}
		for _, k := range v.Kinds {
			if r := v.RulesOf(k); r != v.Rules {
				byRelease[r] = append(byRelease[r], k.Name)
			}
		}
		var releases []int
		for r := range byRelease {
			releases = append(releases, r)
		}
		sort.Ints(releases)
		for _, r := range releases {
			line += fmt.Sprintf("; %s: 1.%d", strings.Join(byRelease[r], ", "), r)
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// droppedMessage says, for a user, why a field would be dropped:
// "would be dropped: feature gate DRADeviceTaints is off".
func droppedMessage(w validation.DropWarning) string {
	switch len(w.Gates) {
	case 0:
		return "would be dropped: " + w.Reason
	case 1:
		return fmt.Sprintf("would be dropped: feature gate %s is off", w.Gates[0])
	}
	names := make([]string, len(w.Gates))
	for i, g := range w.Gates {
		names[i] = string(g)
	}
	return fmt.Sprintf("would be dropped: feature gates %s are off", strings.Join(names, " and "))
}
