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

# step starts a step and prints how long the one before took; at the end
# every step's time is printed again, so that a slow step is easy to find.
suite_start=$SECONDS
step_name=""
step_start=$SECONDS
times=()
end_step() {
  if [ -n "$step_name" ]; then
    times+=("$(printf '%5ss  %s' "$((SECONDS - step_start))" "$step_name")")
    printf '== %s took %ss\n' "$step_name" "$((SECONDS - step_start))"
  fi
}
step() {
  end_step
  step_name="$*"
  step_start=$SECONDS
  printf '\n== %s (at %ss)\n' "$*" "$((SECONDS - suite_start))"
}
summary() {
  local status=$?
  end_step
  step_name=""
  printf '\n== step times (exit status %s)\n' "$status"
  printf '%s\n' "${times[@]}"
  printf '%5ss  in all\n' "$((SECONDS - suite_start))"
}
trap summary EXIT

step "build"
go build ./...

step "static checks and generated code (hack/verify.sh)"
hack/verify.sh

step "unit tests"
# The full fuzz counts take the conversion package a few minutes on 2 cores
# (six versions, 10,000 objects per kind and direction); the limit leaves
# room for a slower machine. go test's own vet is off: its checks are a
# subset of the go vet that hack/verify.sh has just run on the same code.
DRAKIT_FUZZ_FULL=1 go test -vet=off -timeout 30m ./...

step "native fuzzing (hack/fuzz.sh, ${DRAKIT_FUZZTIME:-20s} per target)"
hack/fuzz.sh

# Suites in separate modules, each with its own runner.
for runner in hack/consumer.sh hack/upstream-compat.sh hack/allocbench.sh hack/kubeconform-test.sh hack/e2e.sh; do
  step "$runner"
  "$runner"
done
