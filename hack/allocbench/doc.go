// Package allocbench compares drakit's allocator (Kubernetes 1.31
// semantics, on drakit's hub types) with upstream's structured allocator,
// k8s.io/dynamic-resource-allocation v0.37.2 on k8s.io/api/resource/v1.
// Upstream has three implementations, chosen by the features the scheduler
// enables; all three are run, each on its own (structured.EnableAllocators):
// stable, incubating and experimental, with UpstreamFeatures, which enable
// only AdminAccess (gate DRAAdminAccess) so that upstream keeps to what 1.31
// had, and a CEL cache with every CEL feature off.
//
//   - BenchmarkAllocate/<scenario>/{cold,warm}/{drakit,stable,incubating,experimental}
//     times the same scenarios with each allocator: cold builds a fresh
//     allocator for the scenario's first claims, warm keeps one and
//     allocates claim after claim.
//   - TestDifferential allocates random scenarios with drakit and each
//     implementation and requires them to agree on whether the claims can
//     be allocated and, where upstream's choice is deterministic, on the
//     devices; every disagreement must be a listed known difference (rules
//     that changed after 1.31, and upstream's own ways), and each listed
//     difference must still show in its example.
//
// The scenarios are written once as hub objects, which have v1's shape,
// and translated to v1 by a near field-by-field copy (translate.go). It is a module of its own so that drakit never depends on
// upstream's allocator. Run it with hack/allocbench.sh (vet and tests) or
// hack/allocbench.sh bench.
package allocbench
