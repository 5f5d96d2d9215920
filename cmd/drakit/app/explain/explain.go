// Package explain is "drakit explain": the documentation of a kind of
// resource.k8s.io or of one of its fields, from the OpenAPI schema of a
// version, as kubectl explain writes it.
package explain

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	explaindoc "github.com/drakit/drakit/cmd/drakit/internal/explain"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/openapi"
)

var (
	explainLong = `Show the documentation of a resource.k8s.io kind or of one of its fields,
from the OpenAPI schema of the version, as kubectl explain does.

The resource is a kind or its resource name, in any case ("resourceclaim",
"ResourceClaims"). Fields are separated by dots; lists and maps are walked
through ("resourceclaim.spec.devices.requests.selectors"). Without
--api-version the newest version that has the kind is used.`

	explainExample = `  # The devices of a 1.31 claim
  drakit explain resourceclaim.spec.devices --api-version resource.k8s.io/v1alpha3

  # A 1.26 class, all fields at once
  drakit explain resourceclass --api-version resource.k8s.io/v1alpha1 --recursive

  # The named resources of a 1.30 ResourceSlice
  drakit explain resourceslice.namedResources.instances --api-version resource.k8s.io/v1alpha2`
)

// Options are the options of "drakit explain".
type Options struct {
	// APIVersion is --api-version; empty for the newest version that has
	// the kind.
	APIVersion string
	// Recursive lists the fields of the fields, all the way down.
	Recursive bool

	gv           *schema.GroupVersion
	resourceName string
	fields       []string

	genericiooptions.IOStreams
}

// NewOptions are the options with their defaults.
func NewOptions(streams genericiooptions.IOStreams) *Options {
	return &Options{IOStreams: streams}
}

// NewCmdExplain is "drakit explain".
func NewCmdExplain(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewOptions(streams)
	cmd := &cobra.Command{
		Use:     "explain RESOURCE[.FIELD...]",
		Short:   "Show the documentation of a kind or field",
		Long:    explainLong,
		Example: explainExample,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cmdutil.UsageErrorf("explain takes exactly one argument, RESOURCE[.FIELD...], got %d", len(args))
			}
			return nil
		},
		ValidArgsFunction: completeExplain,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.Complete(f, cmd, args); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run()
		},
	}
	cmd.Flags().StringVar(&o.APIVersion, "api-version", "", "the version to explain: "+strings.Join(cmdutil.GroupVersions(), ", ")+" (default: the newest that has the kind)")
	cmd.Flags().BoolVar(&o.Recursive, "recursive", false, "list the fields of the fields, all the way down")
	_ = cmd.RegisterFlagCompletionFunc("api-version", cmdutil.CompleteGroupVersions)
	return cmd
}

// Complete reads --api-version and the path to explain (args[0]).
func (o *Options) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	if o.APIVersion != "" {
		gv, err := cmdutil.ParseGroupVersion("--api-version", o.APIVersion)
		if err != nil {
			return err
		}
		o.gv = &gv
	}
	resourceName, fields, err := explaindoc.ParsePath(args[0])
	if err != nil {
		return &cmdutil.UsageError{Err: err}
	}
	o.resourceName, o.fields = resourceName, fields
	return nil
}

// Validate has nothing to check that Complete has not.
func (o *Options) Validate() error { return nil }

// Run finds the kind and writes its documentation.
func (o *Options) Run() error {
	gvk, err := findKind(o.resourceName, o.gv)
	if err != nil {
		return err
	}
	root, defs, err := openapi.Schema(gvk.GroupVersion().String(), gvk.Kind)
	if err != nil {
		return fmt.Errorf("no schema for %s %s: %w", gvk.GroupVersion(), gvk.Kind, err)
	}
	return explaindoc.Render(o.Out, explaindoc.Request{GVK: gvk, Root: root, Definitions: defs, Path: o.fields, Recursive: o.Recursive})
}

// completeExplain completes kinds, then field names.
func completeExplain(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	version := conversion.Versions[len(conversion.Versions)-1]
	if v, err := cmd.Flags().GetString("api-version"); err == nil && v != "" {
		if gv, err := schema.ParseGroupVersion(v); err == nil {
			version = gv
		}
	}
	if !strings.Contains(toComplete, ".") {
		var out []string
		for _, kind := range kindsIn(version.Version) {
			out = append(out, strings.ToLower(kind))
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
	parts := strings.Split(toComplete, ".")
	gvk, err := findKind(parts[0], &version)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	root, defs, err := openapi.Schema(gvk.GroupVersion().String(), gvk.Kind)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	names := explaindoc.FieldNames(root, defs, parts[1:len(parts)-1])
	prefix := strings.Join(parts[:len(parts)-1], ".") + "."
	var out []string
	for _, n := range names {
		out = append(out, prefix+n)
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
