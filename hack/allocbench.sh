#!/usr/bin/env bash
# Runs the allocator comparison module hack/allocbench (its own go.mod, so
# drakit never depends on upstream's allocator):
#
#   hack/allocbench.sh            vet + tests, including the differential test
#                                 (3,000 random scenarios against upstream)
#   hack/allocbench.sh bench [re] the side-by-side benchmarks
#                                 BenchmarkAllocate/<scenario>/{drakit,upstream},
#                                 optionally only those matching the regexp re
#
# Environment: ALLOCBENCH_UPSTREAM_CAP (default 10s) caps upstream in the
# impossible scenarios; ALLOCBENCH_DIFF_SCENARIOS / ALLOCBENCH_DIFF_SEED size
# and seed the differential test; BENCHTIME is passed to -benchtime.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/allocbench"

if [ "${1:-}" = "bench" ]; then
  filter="${2:-.}"
  exec go test -run '^$' -bench "BenchmarkAllocate/${filter}" -benchmem -benchtime "${BENCHTIME:-1s}" .
fi

go vet ./...
go test -count=1 ./...
