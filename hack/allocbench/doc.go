// Package allocbench compares drakit's allocator with upstream's
// structured allocator, k8s.io/dynamic-resource-allocation v0.37.2 on
// k8s.io/api/resource/v1.
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
//     shares, tolerations, counters), so a fast wrong answer fails.
//   - TestDifferential allocates random scenarios, with the 1.32+ features
//     layered on three in four (generate137_test.go), with drakit and the
//     implementation the scheduler picks (ALLOCBENCH_DIFF_IMPLS=all: every
//     supporting one), verifies both results with allocator/verify, and
//     requires them to agree on whether the claims can be allocated and,
//     where upstream's choice is deterministic, on the devices; every
//     disagreement must be a listed known difference, and each listed
//     difference must still show in its example.
//
// drakit_features.go is the one place that meets drakit's 1.37 allocator
// API; until drakitSemantics137 is switched on there, drakit runs with its
// 1.31 rules and the scenarios that use a 1.32+ feature count as pending
// for drakit (upstream's side still runs and is verified).
//
// The scenarios are written once as hub objects, which have v1's shape,
// and translated to v1 by a near field-by-field copy (translate.go;
// upstream's results come back by translate_back.go). It is a module of
// its own so that drakit never depends on upstream's allocator. Run it
// with hack/allocbench.sh (vet and tests) or hack/allocbench.sh bench.
package allocbench
