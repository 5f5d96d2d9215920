// Package allocbench compares drakit's allocator with upstream's
// structured allocator, k8s.io/dynamic-resource-allocation v0.37.2 on
// k8s.io/api/resource/v1, and drakit's pool utilization with upstream's
// pool status controller (k8s.io/kubernetes v1.37.2).
//
// Every scenario states the allocator features it uses (an
// allocator.Features: upstream's eleven switches plus DeviceTaintRules);
// the 1.31-era scenarios use LegacyFeatures (AdminAccess only). Both
// allocators run with the same features (upstream_features.go):
// upstream's Features field by field, its CEL environment with
// allowMultipleAllocations and list attributes as the features say, and
// DeviceTaintRules merged into the devices of upstream's slices by the
// harness (translate.go), since upstream's allocator does not read them:
// the scheduler's slice tracker patches the slices before its allocator
// sees them, and so does this harness. Upstream has three implementations;
// a 1.37 scheduler runs the first of stable, incubating and experimental
// that supports the features (SchedulerImplementation).
//
//   - BenchmarkAllocate/<scenario>/{cold,warm}/{drakit,stable,incubating,experimental}
//     times each scenario with drakit and every upstream implementation
//     that supports its features: cold builds a fresh allocator for the
//     scenario's first claims, warm keeps one and allocates claim after
//     claim. Each operation checks its answer (devices, alternatives,
//     shares, tolerations, counters), so a fast wrong answer fails, and so
//     does a fast failure where success was expected.
//   - TestDifferential allocates random scenarios, with the 1.32+ features
//     layered on three in four (enrich_test.go), with drakit and the
//     implementation the scheduler picks (ALLOCBENCH_DIFF_IMPLS=all: every
//     supporting one), verifies both results with allocator/verify, and
//     requires them to agree on whether the claims can be allocated and,
//     where upstream's choice is deterministic, on the devices; every
//     disagreement must be a listed known difference, and each listed
//     difference must still show in its example.
//   - TestDifferentialLists and TestDifferentialCompat do the same with
//     upstream's experimental implementation on scenarios of one pool, so
//     that every allocation is compared device by device: constraints over
//     list-typed and derived attributes (ListTypeAttributes,
//     DerivedAttributes), and compatibility groups (CompatibilityGroups).
//   - TestPoolStatusDifferential compares drakit's pool utilization
//     (allocator/poolstatus, Pool.Status) with the computation of
//     kube-controller-manager's resourcepoolstatusrequest controller
//     (k8s.io/kubernetes v1.37.2, called through go:linkname, as the
//     controller does not export it) on random clusters: generations,
//     incomplete pools, partitionable devices on shared counters,
//     consumable capacity, adminAccess, taints and DeviceTaintRules.
//     Every field must agree (poolstatus_diff_test.go).
//   - BenchmarkPods/<shape>/<nodes>x8/{drakit,upstream} times the whole
//     scheduling of a synthetic cluster (5,000 nodes x 8 GPUs and 10,000
//     pending pods by default): the drakit binary's `drakit allocate`
//     (wall and CPU time, peak RSS) and upstream's allocator in the
//     scheduler's loop, sampled. Shapes: one-model (SyntheticCluster: one
//     GPU model per node, six templates, zone selectors, priorities) and
//     two-models (TwoModelCluster: two models per node, one per NUMA node,
//     three across the cluster, twelve templates of 1, 2, 4 and 8 GPUs
//     interleaved, every pod placeable).
//
// drakit always runs with the scenario's features (drakit_features.go, the
// one place that builds drakit's allocator options), so every scenario,
// benchmark and differential alike, compares drakit's 1.37 semantics with
// upstream's; nothing is skipped for drakit.
//
// Each benchmark scenario says what its operations must do: allocate their
// claims, or, in the impossible scenarios (BenchScenario.Impossible), fail.
// The harness (runOp) holds every operation of every allocator to that, in
// the benchmarks and in TestBenchScenarios alike: an operation that asks
// for an allocation and gets none on any node, or gets one in an
// impossible scenario, fails the run with the scenario, the claim, the
// node and the allocator's error. Only an operation that makes no
// allocation call at all, which is how a scenario asks for a fresh runner
// (exhausted), is exempt.
//
// The scenarios are written once as hub objects, which have v1's shape,
// and translated to v1 by a near field-by-field copy (translate.go;
// upstream's results come back by translate_back.go). It is a module of
// its own so that drakit never depends on upstream's allocator. Run it
// with hack/allocbench.sh (vet and tests), hack/allocbench.sh bench or
// hack/allocbench.sh pods.
package allocbench
