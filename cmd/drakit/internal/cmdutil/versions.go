package cmdutil

import (
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/drakit/drakit/apis/resource"
	"github.com/drakit/drakit/conversion"
)

// ParseGroupVersion reads the value of a flag that names a version of
// resource.k8s.io (--output-version, --as-version, --api-version); a
// problem is a UsageError naming the flag.
func ParseGroupVersion(flag, value string) (schema.GroupVersion, error) {
	gv, err := schema.ParseGroupVersion(value)
	if err == nil && gv.Group == "" && strings.HasPrefix(value, "v") {
		return gv, UsageErrorf("%s %q: give the group as well, as in %s/%s", flag, value, resource.GroupName, value)
	}
	if err == nil {
		for _, known := range conversion.Versions {
			if gv == known {
				return gv, nil
			}
		}
	}
	return gv, UsageErrorf("%s %q is not a version drakit knows; use one of %s", flag, value, strings.Join(GroupVersions(), ", "))
}

// GroupVersions are the versions drakit knows, oldest first, as
// "resource.k8s.io/VERSION".
func GroupVersions() []string {
	var out []string
	for _, gv := range conversion.Versions {
		out = append(out, gv.String())
	}
	return out
}

// CompleteGroupVersions completes a flag that takes a version.
func CompleteGroupVersions(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return GroupVersions(), cobra.ShellCompDirectiveNoFileComp
}

// FixedCompletion completes a flag with the given values.
func FixedCompletion(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}
