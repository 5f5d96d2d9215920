package app

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/spf13/cobra"
	"sigs.k8s.io/yaml"
)

// version is set at build time:
//
//	go build -ldflags "-X github.com/drakit/drakit/cmd/drakit/app.version=v0.1.0" ./cmd/drakit
//
// Otherwise the module version from the build information is used
// (go install ...@v0.1.0), or "devel".
var version = ""

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

// buildInfo is replaced in tests, whose output must not depend on the
// toolchain.
var buildInfo = func() VersionInfo {
	info := VersionInfo{Version: version, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, APIVersions: apiVersions()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if info.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			info.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.GitCommit = s.Value
			case "vcs.modified":
				info.GitTreeDirt = s.Value == "true"
			}
		}
	}
	if info.Version == "" {
		info.Version = "devel"
	}
	return info
}

func newVersionCommand(s Streams) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the drakit version and the API versions it knows",
		Example: `  drakit version
  drakit version -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			info := buildInfo()
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
				return usageErrorf("unknown output format %q: leave -o out, or use json or yaml", output)
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "", "output format: empty for text, json or yaml")
	_ = cmd.RegisterFlagCompletionFunc("output", fixedCompletion("json", "yaml"))
	return cmd
}
