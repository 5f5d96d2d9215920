package app

import "testing"

// Golden cases of allocate with pods (examples/pods): templates, a shared
// claim, an extended resource, priorities, node selector and affinity,
// a taint, a cordoned node, a pod waiting for a missing template; in
// every output format, with and without --explain; and pods that cannot
// be read, named by file, document and field.
var allocatePodCases = []goldenCase{
	{name: "allocate-pods-wide", args: []string{"allocate", "-f", "examples/pods", "-o", "wide", "--explain"}},
	{name: "allocate-pods", args: []string{"allocate", "-f", "examples/pods"}},
	{name: "allocate-pods-json", args: []string{"allocate", "-f", "examples/pods", "-o", "json", "-v"}},
	{name: "allocate-pods-one-node", args: []string{"allocate", "-f", "examples/pods", "--node", "gpu-3", "-o", "wide"}},
	{name: "allocate-pods-bad-input", args: []string{"allocate", "-f", "examples/pods", "-f", inputFile("pods-bad.yaml")}},
	{name: "allocate-pods-extended", args: []string{"allocate", "-f", "examples/pods/deviceclasses.yaml", "-f", "examples/pods/resourceslices.yaml", "-f", inputFile("pods-extended.yaml"), "-o", "wide", "--explain"}},
}

func TestGoldenAllocatePods(t *testing.T) { testGoldenCases(t, allocatePodCases) }
