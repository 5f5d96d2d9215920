package app

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
	"github.com/drakit/drakit/cmd/drakit/internal/explain"
	"github.com/drakit/drakit/conversion"
	"github.com/drakit/drakit/openapi"
)

type explainOptions struct {
	apiVersion string
	recursive  bool
}

func newExplainCommand(f cmdutil.Factory, s genericiooptions.IOStreams) *cobra.Command {
	o := &explainOptions{}
	cmd := &cobra.Command{
		Use:   "explain RESOURCE[.FIELD...]",
		Short: "Show the documentation of a kind or field",
		Long: `Show the documentation of a resource.k8s.io kind or of one of its fields,
from the OpenAPI schema of the version, as kubectl explain does.

The resource is a kind or its resource name, in any case ("resourceclaim",
"ResourceClaims"). Fields are separated by dots; lists and maps are walked
through ("resourceclaim.spec.devices.requests.selectors"). Without
--api-version the newest version that has the kind is used.`,
		Example: `  # The devices of a 1.31 claim
  drakit explain resourceclaim.spec.devices --api-version resource.k8s.io/v1alpha3

  # A 1.26 class, all fields at once
  drakit explain resourceclass --api-version resource.k8s.io/v1alpha1 --recursive

  # The named resources of a 1.30 ResourceSlice
  drakit explain resourceslice.namedResources.instances --api-version resource.k8s.io/v1alpha2`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cmdutil.UsageErrorf("explain takes exactly one argument, RESOURCE[.FIELD...], got %d", len(args))
			}
			return nil
		},
		ValidArgsFunction: completeExplain,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(s, args[0])
		},
	}
	cmd.Flags().StringVar(&o.apiVersion, "api-version", "", "the version to explain: "+strings.Join(cmdutil.GroupVersions(), ", ")+" (default: the newest that has the kind)")
	cmd.Flags().BoolVar(&o.recursive, "recursive", false, "list the fields of the fields, all the way down")
	_ = cmd.RegisterFlagCompletionFunc("api-version", cmdutil.CompleteGroupVersions)
	return cmd
}

func (o *explainOptions) run(s genericiooptions.IOStreams, arg string) error {
	var gv *schema.GroupVersion
	if o.apiVersion != "" {
		v, err := cmdutil.ParseGroupVersion("--api-version", o.apiVersion)
		if err != nil {
			return err
		}
		gv = &v
	}
	resourceName, fields, err := explain.ParsePath(arg)
	if err != nil {
		return &cmdutil.UsageError{Err: err}
	}
	gvk, err := findKind(resourceName, gv)
	if err != nil {
		return err
	}
	root, defs, err := openapi.Schema(gvk.GroupVersion().String(), gvk.Kind)
	if err != nil {
		return fmt.Errorf("no schema for %s %s: %w", gvk.GroupVersion(), gvk.Kind, err)
	}
	return explain.Render(s.Out, explain.Request{GVK: gvk, Root: root, Definitions: defs, Path: fields, Recursive: o.recursive})
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
	names := explain.FieldNames(root, defs, parts[1:len(parts)-1])
	prefix := strings.Join(parts[:len(parts)-1], ".") + "."
	var out []string
	for _, n := range names {
		out = append(out, prefix+n)
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
