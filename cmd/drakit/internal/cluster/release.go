package cluster

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/version"

	"github.com/drakit/drakit/apis/resource/catalogue"
	"github.com/drakit/drakit/apis/resource/features"
)

// ServerRelease is the Kubernetes release of the API server, as discovery
// reports it (GET /version): its gitVersion ("v1.33.13") and minor.
func (c *Cluster) ServerRelease() (gitVersion string, minor int, err error) {
	info, err := c.Kube.Discovery().ServerVersion()
	if err != nil {
		return "", 0, c.Explain(err, "reading the server's version")
	}
	v, err := version.ParseGeneric(info.GitVersion)
	if err != nil {
		return "", 0, &Error{Doing: "reading the server's version", Where: c.Where, Msg: fmt.Sprintf("gitVersion %q is not a version: %v", info.GitVersion, err)}
	}
	return info.GitVersion, int(v.Minor()), nil
}

// SchedulerGates are the feature gates of a kube-scheduler of the
// server's release: the release's defaults, with DynamicResourceAllocation
// on (off by default before 1.34, and on in every cluster that uses DRA),
// then flag (a --feature-gates value) over them. A release newer than the
// one drakit follows gets that one's defaults, an older one than drakit
// knows the oldest it knows. about says in one line which gates these
// are. A flag that does not parse is a *features.ParseError.
func (c *Cluster) SchedulerGates(flag string) (g features.Gates, about string, err error) {
	gitVersion, minor, err := c.ServerRelease()
	if err != nil {
		return g, "", err
	}
	used := min(max(minor, features.OldestRelease), catalogue.Release)
	base, err := features.ReleaseDefaults(used)
	if err != nil {
		return g, "", err
	}
	about = fmt.Sprintf("the defaults of Kubernetes 1.%d (the server is %s)", used, gitVersion)
	if used != minor {
		about = fmt.Sprintf("the defaults of Kubernetes 1.%d, the nearest release drakit knows (the server is %s)", used, gitVersion)
	}
	if !base.Enabled(features.DynamicResourceAllocation) {
		base = base.With(features.DynamicResourceAllocation, true)
		about += " and DynamicResourceAllocation=true"
	}
	if flag == "" {
		return base, about, nil
	}
	g, err = features.ParseOnto(base, flag)
	if err != nil {
		return g, "", err
	}
	return g, about + ", with --feature-gates " + flag, nil
}
