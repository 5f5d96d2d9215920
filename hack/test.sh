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
  if [ -n "${e2e_pid:-}" ] && kill -0 "$e2e_pid" 2>/dev/null; then
    # A step failed while hack/e2e.sh ran beside it: stop it (it stops its
    # servers on TERM) and show how far it got.
    kill -TERM "$e2e_pid" 2>/dev/null || true
    wait "$e2e_pid" 2>/dev/null || true
    tail -n 30 "$e2e_log" || true
    rm -f "$e2e_log"
  fi
  end_step
  step_name=""
  printf '\n== step times (exit status %s)\n' "$status"
  printf '%s\n' "${times[@]}"
  printf '%5ss  in all\n' "$((SECONDS - suite_start))"
}
trap summary EXIT

# hack/e2e.sh (real API servers, kube-scheduler and controllers, in a
# module of its own) runs beside the steps up to the unit tests: it spends
# much of its time waiting for servers to start and for them to act, and,
# on a machine without its cache, building the servers (about half of a
# cold run), which must not wait for the other steps. The steps beside it
# have no time budget (the fuzzing, which has, comes after it), so they
# only take longer. Its output goes to a file, printed when it is done
# (step "hack/e2e.sh"). Its servers listen on loopback ports below the
# ephemeral range, which the tests' own servers (port 0) never get.
e2e_log="$(mktemp)"
hack/e2e.sh >"$e2e_log" 2>&1 &
e2e_pid=$!

step "build (hack/e2e.sh beside it)"
go build ./...

step "static checks and generated code (hack/verify.sh; hack/e2e.sh still beside them)"
hack/verify.sh

step "unit tests (hack/e2e.sh still beside them)"
# The full fuzz counts take the conversion package a few minutes on 2 cores
# (six versions, 10,000 objects per kind and direction); the limit leaves
# room for a slower machine. go test's own vet is off: its checks are a
# subset of the go vet that hack/verify.sh has just run on the same code.
DRAKIT_FUZZ_FULL=1 go test -vet=off -timeout 30m ./...

step "hack/e2e.sh (what is left of it after the unit tests)"
e2e_status=0
wait "$e2e_pid" || e2e_status=$?
e2e_pid=""
cat "$e2e_log"
rm -f "$e2e_log"
if [ "$e2e_status" -ne 0 ]; then
  echo "hack/e2e.sh failed (exit status $e2e_status); its output is above" >&2
  exit "$e2e_status"
fi

step "native fuzzing (hack/fuzz.sh, ${DRAKIT_FUZZTIME:-20s} per target)"
hack/fuzz.sh

# Suites in separate modules, each with its own runner.
for runner in hack/consumer.sh hack/upstream-compat.sh hack/allocbench.sh hack/kubeconform-test.sh; do
  step "$runner"
  "$runner"
done
