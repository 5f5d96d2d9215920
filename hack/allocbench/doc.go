// Package allocbench runs drakit's allocator and upstream's structured
// allocator (k8s.io/dynamic-resource-allocation v0.33.13, on
// k8s.io/api/resource/v1beta1) side by side: benchmarks named
// BenchmarkAllocate/<scenario>/{drakit,upstream}, and a randomized
// differential test that checks both agree on which claims can be
// allocated and that every drakit result is valid. It is a module of its
// own so that drakit never depends on upstream's allocator.
//
// Run it with hack/allocbench.sh (tests) or hack/allocbench.sh bench.
package allocbench
