package plan_test

import (
	"testing"

	"github.com/drakit/drakit/cmd/drakit/internal/cmdtesting"
)

func TestMain(m *testing.M) { cmdtesting.Main(m) }

// Golden cases of plan on examples/planning: the plan (table, YAML,
// JSON), nodes added (--add), headroom of a PodTemplate and of a Pod,
// and the mistakes a command line can make.
var goldenCases = []cmdtesting.Case{
	{Name: "plan", Args: []string{"plan", "-f", "examples/planning"}},
	{Name: "plan-json", Args: []string{"plan", "-f", "examples/planning", "-o", "json"}},
	{Name: "plan-add", Args: []string{"plan", "-f", "examples/planning", "--add", "gpu-l4=2", "--add", "cpu-large=1"}},
	{Name: "plan-add-yaml", Args: []string{"plan", "-f", "examples/planning", "--add", "gpu-h100=1", "-o", "yaml"}},
	{Name: "plan-headroom", Args: []string{"plan", "-f", "examples/planning", "--headroom", "ml/server"}},
	{Name: "plan-headroom-pod", Args: []string{"plan", "-f", "examples/planning", "--headroom", "ml/infer-b", "-o", "json"}},
	{Name: "plan-add-unknown-group", Args: []string{"plan", "-f", "examples/planning", "--add", "gpu-b200=1"}},
	{Name: "plan-add-over-max", Args: []string{"plan", "-f", "examples/planning", "--add", "gpu-h100=11"}},
	{Name: "usage-plan-add", Args: []string{"plan", "-f", "examples/planning", "--add", "gpu-h100"}},
	{Name: "usage-plan-both", Args: []string{"plan", "-f", "examples/planning", "--add", "gpu-h100=1", "--headroom", "ml/server"}},
	{Name: "plan-no-groups", Args: []string{"plan", "-f", "examples/planning/cluster.yaml", "-f", "examples/planning/workloads.yaml"}},
	{Name: "plan-bad-group", Args: []string{"plan", "-f", "examples/planning/cluster.yaml", "-f", cmdtesting.InputFile("nodegroup-bad.yaml")}},
	{Name: "help-plan", Args: []string{"plan", "--help"}},
}

func TestGolden(t *testing.T) { cmdtesting.Golden(t, cmdtesting.NewFactory(), goldenCases) }

// With --from-cluster the fake cluster's nodes, slices and claims are
// the background and the node groups come from a file.
var liveCases = []cmdtesting.Case{
	{Name: "live-plan", Args: []string{"plan", "--from-cluster", "-f", "examples/planning/nodegroups.yaml"}},
	{Name: "live-plan-add", Args: []string{"plan", "--from-cluster", "-f", "examples/planning/nodegroups.yaml", "--add", "gpu-l4=1"}},
	{Name: "live-plan-other-scheduler", Args: []string{"plan", "--from-cluster", "-f", "examples/planning/nodegroups.yaml", "--scheduler-name", "other"}},
	{Name: "live-plan-headroom", Args: []string{"plan", "--from-cluster", "--headroom", "default/inference"}},
}

func TestLiveGolden(t *testing.T) {
	cmdtesting.Golden(t, cmdtesting.NewFakeClusterFactory(t, "v1"), liveCases)
}
