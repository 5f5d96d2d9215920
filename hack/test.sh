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

# drakit has no C code, but kustomize (which cli-runtime's resource builder
# imports) imports the plugin package, whose cgo makes Go hand every link of
# a command or test binary that imports cli-runtime to the system's C
# linker, about twice as slow as Go's own (20 of the unit test binaries,
# the commands, and the e2e and fuzzing binaries). With cgo off, Go links
# them itself, as Kubernetes builds kubectl and its servers. A CGO_ENABLED
# set by the caller wins.
export CGO_ENABLED="${CGO_ENABLED:-0}"
# Every build of the suite uses -trimpath, as the builds of the API servers
# (hack/e2e/build-apiserver.sh) and of the driver module that vendors
# drakit (hack/consumer.sh) must: the build cache then keys a dependency by
# its module and version, not by its directory, and compiles each one once
# for all of them (about 900 packages are common to drakit's tests and the
# 1.37 servers), and a fresh clone in another directory finds drakit's own
# packages in the cache. No test depends on the paths in its binary.
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath"

# step starts a step and prints how long the one before took, in time
# and in CPU (user and system, of the processes that ended in it: the CPU
# of a job run beside the steps, such as hack/e2e.sh, counts in the step
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
# time_line is a line of the step times: WALL and CPU seconds, and NAME.
time_line() { printf '%5ss %6s CPU-s  %s\n' "$1" "$2" "$3"; }
step_cpu=0
end_step() {
  if [ -n "$step_name" ]; then
    cpu_now
    local wall=$((SECONDS - step_start)) used=$((cpu - step_cpu))
    times+=("$(time_line "$wall" "$used" "$step_name")")
    printf '== %s took %ss (%s CPU-s)\n' "$step_name" "$wall" "$used"
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
# Jobs that run beside the steps (background): their pids, and files with
# their output, printed when they are waited for (finish_job).
jobs_pids=()
beside_times=() # the times of the suites beside the fuzzing
tmpdir="$(mktemp -d)"
summary() {
  local status=$? pid
  for pid in "${jobs_pids[@]}"; do
    # A step failed while a job ran beside it: stop it (each job stops its
    # own child on TERM, and hack/e2e.sh its servers).
    kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "${jobs_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "${#jobs_pids[@]}" -gt 0 ]; then
    for f in "$tmpdir"/*.log; do
      [ -f "$f" ] || continue
      printf '\n== last lines of %s, stopped\n' "$(basename "$f" .log)"
      tail -n 30 "$f"
    done
  fi
  rm -rf "$tmpdir"
  end_step
  step_name=""
  printf '\n== step times (exit status %s)\n' "$status"
  printf '%s\n' "${times[@]}" "${beside_times[@]}"
  cpu_now
  rm -f "$cpu_file"
  time_line "$((SECONDS - suite_start))" "$cpu" "in all"
}
trap summary EXIT

# run_beside NAME COMMAND...: runs the command (a function too) in the
# background, its output into $tmpdir/NAME.log, and sets job_pid. The
# command runs its programs with as_child, so that TERM (the summary's, when
# a step fails) stops the one running and waits for it.
run_beside() {
  local name=$1
  shift
  (
    child=""
    cpu_file="$tmpdir/$name.cpu" # this shell's own, for cpu_now
    trap '[ -z "$child" ] || { kill -TERM -- "-$child" 2>/dev/null; wait "$child"; }; exit 143' TERM
    "$@"
  ) >"$tmpdir/$name.log" 2>&1 &
  job_pid=$!
  jobs_pids+=("$job_pid")
}

# as_child COMMAND...: runs the command as a child of a job of run_beside
# and returns its status; a TERM to the job meanwhile stops it. The command
# runs in a process group of its own (setsid), which the TERM goes to: a
# script that waits for a long build (hack/e2e.sh building a server) would
# otherwise stop only once the build ended.
as_child() {
  local status=0
  setsid "$@" &
  child=$!
  wait "$child" || status=$?
  child=""
  return "$status"
}

# finish_job NAME PID: waits for a job of run_beside, prints its output and
# fails when it failed.
finish_job() {
  local name=$1 pid=$2 status=0 p keep=()
  wait "$pid" || status=$?
  for p in "${jobs_pids[@]}"; do [ "$p" = "$pid" ] || keep+=("$p"); done
  jobs_pids=("${keep[@]}")
  printf '\n== %s (beside the steps above)\n' "$name"
  cat "$tmpdir/$name.log"
  rm -f "$tmpdir/$name.log"
  if [ "$status" -ne 0 ]; then
    echo "$name failed (exit status $status); its output is above" >&2
    exit "$status"
  fi
}

# suites runs the suites that live in modules of their own, each with its
# runner, one after the other, and writes each one's times into
# $tmpdir/suites.times for the summary.
suites() {
  local runner start cpu_start
  for runner in hack/consumer.sh hack/upstream-compat.sh hack/allocbench.sh hack/kubeconform-test.sh; do
    printf '\n== %s\n' "$runner"
    start=$SECONDS
    cpu_now
    cpu_start=$cpu
    as_child "$runner"
    cpu_now
    time_line "$((SECONDS - start))" "$((cpu - cpu_start))" "  $runner (beside the fuzzing)" >>"$tmpdir/suites.times"
  done
}

# The end-to-end suite (hack/e2e.sh: real API servers, kube-scheduler and
# controllers, in a module of its own) in two parts:
# - its build (hack/e2e.sh --build) starts first, beside everything: on a
#   machine without its cache, building the servers is about half of the
#   run's CPU and must not wait for the other steps;
# - its run waits for the unit tests (below) and runs beside the fuzzing:
#   it spends most of its time waiting for servers to start and act (about
#   0.8 of a core), and the fuzzing leaves about half a core idle (its
#   workers wait on their coordinator), where the unit tests use both.
# Its servers listen on loopback ports below the ephemeral range, which the
# tests' own servers (port 0) never get.
# Both parts build the test binaries and drakit into one directory
# (DRAKIT_E2E_OUT), so that the run does not link them again.
e2e_gate="$tmpdir/e2e.go"
e2e_job() {
  export DRAKIT_E2E_OUT="$tmpdir/e2e-out"
  as_child hack/e2e.sh --build
  while [ ! -e "$e2e_gate" ]; do sleep 1; done
  as_child hack/e2e.sh
}
run_beside e2e e2e_job
e2e_pid=$job_pid

# The static checks (hack/verify.sh) run beside the build and the unit
# tests: gofmt, the import restrictions and the generated code beside the
# build; go vet, which needs the packages compiled, after it, beside the
# unit tests (beside the build, on a machine without a build cache, both
# would compile every dependency at the same time).
step "build, with gofmt, the import restrictions and generated code beside it (go build ./...; hack/verify.sh gofmt imports codegen)"
run_beside verify as_child hack/verify.sh gofmt imports codegen
verify_pid=$job_pid
go build ./...
finish_job verify "$verify_pid"

step "unit tests, with go vet beside them (hack/verify.sh vet)"
run_beside vet as_child hack/verify.sh vet
vet_pid=$job_pid
# The full fuzz counts take the conversion package a few minutes on 2 cores
# (six versions, 10,000 objects per kind and direction); the limit leaves
# room for a slower machine. go test's own vet is off: its checks are a
# subset of those of the go vet beside it.
DRAKIT_FUZZ_FULL=1 go test -vet=off -timeout 30m ./...
finish_job vet "$vet_pid"

step "native fuzzing (hack/fuzz.sh, ${DRAKIT_FUZZTIME:-20s} per target), with hack/e2e.sh and the suites of their own modules beside it"
touch "$e2e_gate"
run_beside suites suites
suites_pid=$job_pid
hack/fuzz.sh
finish_job suites "$suites_pid"
if [ -f "$tmpdir/suites.times" ]; then
  while IFS= read -r line; do beside_times+=("$line"); done <"$tmpdir/suites.times"
fi
finish_job e2e "$e2e_pid"
