// Package version is "drakit version": the version of drakit and the API
// versions it knows.
package version

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

var versionExample = `  drakit version

  # For programs: also what every release from 1.26 on serves, deprecates,
  # removes and stores, per kind and version, with the source of each fact
  drakit version -o json | jq '.releases[] | select(.release == "1.38")'`

// Info is what "drakit version" prints.
type Info struct {
	Version     string       `json:"version"`
	GitCommit   string       `json:"gitCommit,omitempty"`
	GitTreeDirt bool         `json:"gitTreeDirty,omitempty"`
	GoVersion   string       `json:"goVersion"`
	Platform    string       `json:"platform"`
	APIVersions []APIVersion `json:"apiVersions"`
	// Releases are, for every Kubernetes release from 1.26 to the one
	// after the release drakit follows, the versions that serve each
	// kind (enabled by default or not, with their prerelease lifecycle)
	// and its storage version, each fact with its source: the catalogue's
	// deprecation data, for programs (-o json, -o yaml; the text output
	// leaves it out).
	Releases []catalogue.ReleaseFacts `json:"releases"`
}

// APIVersion is a version of resource.k8s.io drakit knows, with the
// Kubernetes releases that served it.
type APIVersion struct {
	GroupVersion string `json:"groupVersion"`
	Kubernetes   string `json:"kubernetes"`
}

// Options are the options of "drakit version".
type Options struct {
	// Output is -o: empty for text, json or yaml.
	Output string

	info Info

	genericiooptions.IOStreams
}

// NewOptions are the options with their defaults.
func NewOptions(streams genericiooptions.IOStreams) *Options {
	return &Options{IOStreams: streams}
}

// NewCmdVersion is "drakit version".
func NewCmdVersion(f cmdutil.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	o := NewOptions(streams)
	cmd := &cobra.Command{
		Use:     "version",
		Short:   "Print the drakit version and the API versions it knows",
		Example: versionExample,
		Args:    cobra.NoArgs,
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
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "output format: empty for text, json or yaml")
	_ = cmd.RegisterFlagCompletionFunc("output", cmdutil.FixedCompletion("json", "yaml"))
	return cmd
}

// Complete reads the build from f.
func (o *Options) Complete(f cmdutil.Factory, cmd *cobra.Command, args []string) error {
	b := f.Build()
	o.info = Info{Version: b.Version, GitCommit: b.GitCommit, GitTreeDirt: b.GitTreeDirty, GoVersion: b.GoVersion, Platform: b.Platform, APIVersions: apiVersions(), Releases: catalogue.Facts()}
	return nil
}

// Validate checks -o.
func (o *Options) Validate() error {
	switch o.Output {
	case "", "json", "yaml":
		return nil
	}
	return cmdutil.UsageErrorf("unknown output format %q: leave -o out, or use json or yaml", o.Output)
}

// Run prints the version.
func (o *Options) Run() error {
	info := o.info
	switch o.Output {
	case "json":
		data, err := json.MarshalIndent(info, "", "    ")
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(o.Out, "%s\n", data)
		return err
	case "yaml":
		data, err := yaml.Marshal(info)
		if err != nil {
			return err
		}
		_, err = o.Out.Write(data)
		return err
	}
	fmt.Fprintf(o.Out, "drakit version: %s\n", info.Version)
	if info.GitCommit != "" {
		dirty := ""
		if info.GitTreeDirt {
			dirty = " (modified)"
		}
		fmt.Fprintf(o.Out, "Git commit: %s%s\n", info.GitCommit, dirty)
	}
	fmt.Fprintf(o.Out, "Go version: %s\nPlatform: %s\nAPI versions:\n", info.GoVersion, info.Platform)
	for _, v := range info.APIVersions {
		fmt.Fprintf(o.Out, "  %-26s Kubernetes %s\n", v.GroupVersion, v.Kubernetes)
	}
	return nil
}

// apiVersions are the versions the catalogue lists, with the releases that
// served each.
func apiVersions() []APIVersion {
	out := make([]APIVersion, 0, len(catalogue.Versions))
	for _, v := range catalogue.Versions {
		out = append(out, APIVersion{GroupVersion: v.GroupVersion().String(), Kubernetes: v.Served.String()})
	}
	return out
}
