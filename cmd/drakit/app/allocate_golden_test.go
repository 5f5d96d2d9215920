package app

import (
	"regexp"
	"testing"
)

// gates131 are the gates that give allocate the semantics of a 1.31
// scheduler, as its help says.
const gates131 = "DRAPartitionableDevices=false,DRADeviceTaints=false,DRADeviceTaintRules=false,DRAConsumableCapacity=false,DRADeviceBindingConditions=false"

// Golden cases of allocate with the 1.37 allocator: examples/v1 with its
// shared NIC, partitions on counters, taints, a DeviceTaintRule and
// firstAvailable; the same with a 1.31 scheduler's gates; the taint rules
// on and off on one node; a DeviceTaintRule of v1alpha3 that leaves claims
// without devices. They run with TestGolden's harness
// (go test ./cmd/drakit/app -run TestGolden -update rewrites them too).
var allocateFeatureCases = []goldenCase{
	{name: "allocate-v1-wide", args: []string{"allocate", "-f", "examples/v1", "-o", "wide"}},
	{name: "allocate-v1", args: []string{"allocate", "-f", "examples/v1"}},
	{name: "allocate-gates-off", args: []string{"allocate", "-f", "examples/v1", "-o", "wide", "--feature-gates", gates131}},
	{name: "allocate-taint-rule-node-a", args: []string{"allocate", "-f", "examples/v1", "--node", "node-a", "-o", "wide"}},
	{name: "allocate-taint-rules-off", args: []string{"allocate", "-f", "examples/v1", "--node", "node-a", "-o", "wide", "--feature-gates", "DRADeviceTaintRules=false"}},
	{name: "allocate-taint-rule-v1alpha3", args: []string{"allocate", "-f", "examples/v1", "-f", inputFile("taint-rule-v1alpha3.yaml"), "-o", "wide"}},
	{name: "help-allocate", args: []string{"allocate", "--help"}},
	{name: "usage-allocate-feature-gates", args: []string{"allocate", "-f", "examples/v1", "--feature-gates", "DRAPrioritizedList=false"}},
}

// shareIDPattern matches the share IDs the allocator derives for each
// allocation of a shared device (the same on every run, so the goldens
// show them).
var shareIDPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

func TestGoldenAllocateFeatures(t *testing.T) { testGoldenCases(t, allocateFeatureCases) }
