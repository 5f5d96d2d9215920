package cmdutil

import (
	"runtime"
	"runtime/debug"

	"github.com/drakit/drakit/cmd/drakit/internal/cluster"
)

// Factory gives the commands what comes from outside their command line:
// the cluster that kubectl's connection flags select, and what this build
// of drakit is. Every command gets one from its NewCmd function, as
// kubectl's commands get k8s.io/kubectl/pkg/cmd/util.Factory, so that
// tests give them a fake cluster and a fixed build.
type Factory interface {
	// Cluster connects, for reading, to the cluster that flags select.
	Cluster(flags *cluster.Flags) (*cluster.Cluster, error)
	// Build says which drakit this is.
	Build() BuildInfo
}

// BuildInfo is what a build of drakit says about itself.
type BuildInfo struct {
	// Version is drakit's version: set at build time, else the module's
	// version (go install ...@v0.1.0), else "devel".
	Version string
	// GitCommit and GitTreeDirty are the commit the binary was built from,
	// and whether the tree had changes, when the build recorded them.
	GitCommit    string
	GitTreeDirty bool
	GoVersion    string
	// Platform is GOOS/GOARCH.
	Platform string
}

// NewFactory is the Factory of the drakit binary: the cluster of the
// flags through client-go, and the build information Go records in the
// binary, with version (set with -ldflags -X, or empty) as the version.
func NewFactory(version string) Factory { return &factory{version: version} }

type factory struct{ version string }

func (f *factory) Cluster(flags *cluster.Flags) (*cluster.Cluster, error) { return flags.Connect() }

func (f *factory) Build() BuildInfo {
	info := BuildInfo{Version: f.version, GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if info.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			info.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.GitCommit = s.Value
			case "vcs.modified":
				info.GitTreeDirty = s.Value == "true"
			}
		}
	}
	if info.Version == "" {
		info.Version = "devel"
	}
	return info
}
