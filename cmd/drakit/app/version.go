package app

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/cmd/drakit/internal/cmdutil"
)

// VersionInfo is what `drakit version` prints.
type VersionInfo struct {
	Version     string       `json:"version"`
	GitCommit   string       `json:"gitCommit,omitempty"`
	GitTreeDirt bool         `json:"gitTreeDirty,omitempty"`
	GoVersion   string       `json:"goVersion"`
	Platform    string       `json:"platform"`
	APIVersions []APIVersion `json:"apiVersions"`
}

// APIVersion is a version of resource.k8s.io drakit knows, with the
// Kubernetes releases that served it.
type APIVersion struct {
	GroupVersion string `json:"groupVersion"`
	Kubernetes   string `json:"kubernetes"`
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

// versionInfo is what f says of the build, with the API versions.
func versionInfo(f cmdutil.Factory) VersionInfo {
	b := f.Build()
	return VersionInfo{Version: b.Version, GitCommit: b.GitCommit, GitTreeDirt: b.GitTreeDirty, GoVersion: b.GoVersion, Platform: b.Platform, APIVersions: apiVersions()}
}

func newVersionCommand(f cmdutil.Factory, s genericiooptions.IOStreams) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the drakit version and the API versions it knows",
		Example: `  drakit version
  drakit version -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			info := versionInfo(f)
			switch output {
			case "":
				fmt.Fprintf(s.Out, "drakit version: %s\n", info.Version)
				if info.GitCommit != "" {
					dirty := ""
					if info.GitTreeDirt {
						dirty = " (modified)"
					}
					fmt.Fprintf(s.Out, "Git commit: %s%s\n", info.GitCommit, dirty)
				}
				fmt.Fprintf(s.Out, "Go version: %s\nPlatform: %s\nAPI versions:\n", info.GoVersion, info.Platform)
				for _, v := range info.APIVersions {
					fmt.Fprintf(s.Out, "  %-26s Kubernetes %s\n", v.GroupVersion, v.Kubernetes)
				}
			case "json":
				data, err := json.MarshalIndent(info, "", "    ")
				if err != nil {
					return err
				}
				fmt.Fprintf(s.Out, "%s\n", data)
			case "yaml":
				data, err := yaml.Marshal(info)
				if err != nil {
					return err
				}
				s.Out.Write(data)
			default:
				return cmdutil.UsageErrorf("unknown output format %q: leave -o out, or use json or yaml", output)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "output format: empty for text, json or yaml")
	_ = cmd.RegisterFlagCompletionFunc("output", cmdutil.FixedCompletion("json", "yaml"))
	return cmd
}
