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

# step starts a step and prints how long the one before took, in time
# and in CPU (user and system, of the processes that ended in it: the CPU
# of hack/e2e.sh, which runs beside the first steps, counts in the step
# that waits for it); at the end every step's times are printed again, so
# that a slow step is easy to find.
suite_start=$SECONDS
step_name=""
step_start=$SECONDS
times=()
# cpu_now sets cpu to the CPU time of this shell's finished children, in
# whole seconds, from the builtin times' second line ("1m2.345s 0m6.789s").
# It runs in this shell, not in a subshell: a subshell's children are not
# this shell's.
cpu_file="$(mktemp)"
cpu=0
cpu_now() {
  local line user sys
  times >"$cpu_file"
  { read -r line; read -r user sys; } <"$cpu_file"
  cpu=$(awk -v u="$user" -v s="$sys" 'function sec(t,  m) { m = t; sub(/m.*/, "", m); sub(/^[0-9]+m/, "", t); sub(/s$/, "", t); return m * 60 + t }
    BEGIN { printf "%d\n", sec(u) + sec(s) }')
}
step_cpu=0
end_step() {
  if [ -n "$step_name" ]; then
    cpu_now
    times+=("$(printf '%5ss %6s CPU-s  %s' "$((SECONDS - step_start))" "$((cpu - step_cpu))" "$step_name")")
    printf '== %s took %ss (%s CPU-s)\n' "$step_name" "$((SECONDS - step_start))" "$((cpu - step_cpu))"
  fi
}
step() {
  end_step
  step_name="$*"
  step_start=$SECONDS
  cpu_now
  step_cpu=$cpu
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
  cpu_now
  rm -f "$cpu_file"
  printf '%5ss %6s CPU-s  in all\n' "$((SECONDS - suite_start))" "$cpu"
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
