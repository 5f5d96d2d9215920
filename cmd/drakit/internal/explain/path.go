package explain

import (
	"fmt"
	"strings"
)

// ParsePath reads the argument of drakit explain, RESOURCE[.FIELD...]:
// a kind or resource name, then field names, separated by dots. Every part
// must be non-empty ("resourceclaim..spec" and "resourceclaim." are
// mistakes, not the kind itself).
func ParsePath(arg string) (resource string, fields []string, err error) {
	parts := strings.Split(arg, ".")
	for _, p := range parts {
		if p == "" {
			return "", nil, fmt.Errorf("%q is not RESOURCE[.FIELD...]: it has an empty field name", arg)
		}
	}
	return parts[0], parts[1:], nil
}
