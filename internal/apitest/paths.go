package apitest

import (
	"encoding/json"
	"sort"
	"strings"
)

// Paths returns the sorted JSON field paths of the leaves of doc. Object
// keys are joined with ".", and "[]" is added for each array level, for
// example "spec.devices.requests[].name". A leaf is a scalar, null, an
// empty object or array, or a value at one of the paths in stopAt, whose
// inside is not listed.
func Paths(doc []byte, stopAt ...string) ([]string, error) {
	var v interface{}
	if err := json.Unmarshal(doc, &v); err != nil {
		return nil, err
	}
	stop := make(map[string]bool, len(stopAt))
	for _, s := range stopAt {
		stop[s] = true
	}
	set := map[string]bool{}
	collect(v, "", stop, set)
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

func collect(v interface{}, path string, stop, set map[string]bool) {
	if path != "" && stop[path] {
		set[path] = true
		return
	}
	switch x := v.(type) {
	case map[string]interface{}:
		if len(x) == 0 && path != "" {
			set[path] = true
		}
		for k, e := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			collect(e, p, stop, set)
		}
	case []interface{}:
		if len(x) == 0 {
			set[path] = true
		}
		for _, e := range x {
			collect(e, path+"[]", stop, set)
		}
	default:
		set[path] = true
	}
}

// DiffPaths compares two lists of names (such as paths) as sets. It
// returns "" if they hold the same names, and otherwise a message that
// lists the names only in want (missing) and only in got (unexpected).
func DiffPaths(got, want []string) string {
	inGot := map[string]bool{}
	for _, p := range got {
		inGot[p] = true
	}
	inWant := map[string]bool{}
	for _, p := range want {
		inWant[p] = true
	}
	var missing, extra []string
	for p := range inWant {
		if !inGot[p] {
			missing = append(missing, p)
		}
	}
	for p := range inGot {
		if !inWant[p] {
			extra = append(extra, p)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return ""
	}
	sort.Strings(missing)
	sort.Strings(extra)
	var b strings.Builder
	if len(missing) > 0 {
		b.WriteString("missing (expected, not found):\n\t" + strings.Join(missing, "\n\t") + "\n")
	}
	if len(extra) > 0 {
		b.WriteString("unexpected (found, not expected):\n\t" + strings.Join(extra, "\n\t") + "\n")
	}
	return b.String()
}
