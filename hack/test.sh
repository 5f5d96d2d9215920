#!/usr/bin/env bash
# The whole drakit test suite, as CI runs it (.ci/run) and as the README
# tells developers to run it: static checks and up-to-date generated code,
# every unit test, then the suites that live in their own modules under
# hack/: a driver module that vendors drakit (consumer), and the ones that
# compare with upstream Kubernetes modules and real API servers, which the
# main module must not depend on. It needs only Go; each step installs what
# it needs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() { printf '\n== %s\n' "$*"; }

step "build"
go build ./...

step "static checks and generated code (hack/verify.sh)"
hack/verify.sh

step "unit tests"
# The full fuzz counts take the conversion package about 6 to 10 minutes on
# 2 cores (six versions, 10,000 objects per kind and direction), past go
# test's default limit of 10 minutes per package.
DRAKIT_FUZZ_FULL=1 go test -timeout 30m ./...

step "native fuzzing (hack/fuzz.sh, ${DRAKIT_FUZZTIME:-20s} per target)"
hack/fuzz.sh

# Suites in separate modules, each with its own runner.
for runner in hack/consumer.sh hack/upstream-compat.sh hack/allocbench.sh hack/kubeconform-test.sh hack/e2e.sh; do
  step "$runner"
  "$runner"
done
