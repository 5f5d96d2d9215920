#!/usr/bin/env bash
# Runs the allocator comparison module hack/allocbench (its own go.mod, so
# drakit never depends on upstream's allocator). It compares drakit's
# allocator (Kubernetes 1.31 semantics) with each of the three
# implementations of upstream's structured allocator in
# k8s.io/dynamic-resource-allocation v0.37.2 (stable, incubating,
# experimental), run with only the AdminAccess feature on:
#
#   hack/allocbench.sh            vet + tests: the differential test (3,000
#                                 random scenarios, each against the three
#                                 implementations; disagreements must be
#                                 listed known differences), the known
#                                 differences' examples, and one run of each
#                                 benchmark scenario
#   hack/allocbench.sh bench [re] the side-by-side benchmarks
#                                 BenchmarkAllocate/<scenario>/{cold,warm}/
#                                 {drakit,stable,incubating,experimental},
#                                 optionally only those matching the regexp re
#
# Environment: ALLOCBENCH_UPSTREAM_CAP (default 10s) caps each benchmark
# operation (upstream's search is exponential in the impossible scenarios);
# ALLOCBENCH_DIFF_SCENARIOS / ALLOCBENCH_DIFF_SEED size and seed the
# differential test (scenario i has seed ALLOCBENCH_DIFF_SEED+i); BENCHTIME
# is passed to -benchtime.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/allocbench"

if [ "${1:-}" = "bench" ]; then
  filter="${2:-.}"
  exec go test -run '^$' -bench "BenchmarkAllocate/${filter}" -benchmem -benchtime "${BENCHTIME:-1s}" .
fi

go vet ./...
go test -count=1 ./...
