#!/usr/bin/env bash
# Runs the allocator comparison module hack/allocbench (its own go.mod, so
# drakit never depends on upstream's allocator). It compares drakit's
# allocator with upstream's structured allocator in
# k8s.io/dynamic-resource-allocation v0.37.2, each scenario with the
# allocator features it uses (the 1.31-era ones: AdminAccess only), upstream
# with the implementation (stable, incubating, experimental) a 1.37
# scheduler picks for them:
#
#   hack/allocbench.sh            vet + tests: the differential test (3,000
#                                 random scenarios, three in four with 1.32+
#                                 features, against the implementation the
#                                 scheduler picks; both results verified by
#                                 allocator/verify; disagreements must be
#                                 listed known differences), the known
#                                 differences' examples, one run of each
#                                 benchmark scenario, and the pool status
#                                 differential (1,000 random clusters against
#                                 kube-controller-manager's pool status
#                                 computation, k8s.io/kubernetes v1.37.2)
#   hack/allocbench.sh pods [re]  BenchmarkPods: synthetic clusters of 5,000
#                                 nodes x 8 GPUs and 10,000 pending pods in
#                                 two shapes (one-model: one GPU model per
#                                 node, six templates; two-models: two
#                                 models per node, one per NUMA node, twelve
#                                 templates interleaved), the drakit binary
#                                 (`drakit allocate`, YAML included; wall
#                                 and CPU time, peak RSS) beside upstream's
#                                 allocator in the scheduler's loop
#                                 (sampled, scaled to all pods); re selects
#                                 shapes and sides (two-models/.*/drakit)
#   hack/allocbench.sh bench [re] the side-by-side benchmarks
#                                 BenchmarkAllocate/<scenario>/{cold,warm}/
#                                 {drakit,stable,incubating,experimental}
#                                 (the implementations that support the
#                                 scenario's features), optionally only
#                                 those matching the regexp re
#
# Environment: ALLOCBENCH_UPSTREAM_CAP (default 10s) caps each benchmark
# operation (upstream's search is exponential in the impossible scenarios);
# ALLOCBENCH_DIFF_SCENARIOS / ALLOCBENCH_DIFF_SEED size and seed the
# differential test (scenario i has seed ALLOCBENCH_DIFF_SEED+i);
# ALLOCBENCH_PODS_NODES / ALLOCBENCH_PODS_PODS / ALLOCBENCH_PODS_SAMPLE size
# BenchmarkPods; ALLOCBENCH_PODS_DIFF the clusters of TestPodsDifferential;
# ALLOCBENCH_DIFF_IMPLS=all runs every implementation that supports a
# scenario's features, not only the scheduler's; BENCHTIME is passed to
# -benchtime.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/allocbench"

if [ "${1:-}" = "pods" ]; then
  exec go test -run '^$' -bench "BenchmarkPods/${2:-.}" -benchtime 1x -timeout 60m .
fi

if [ "${1:-}" = "bench" ]; then
  filter="${2:-.}"
  exec go test -run '^$' -bench "BenchmarkAllocate/${filter}" -benchmem -benchtime "${BENCHTIME:-1s}" .
fi

go vet ./...
go test -count=1 ./...
