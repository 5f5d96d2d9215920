#!/usr/bin/env bash
# drakit's end-to-end suite against real API servers (hack/e2e/README.md).
#
# It builds (or reuses from its cache) kube-apiserver v1.30.14, which
# serves resource.k8s.io/v1alpha2, v1.33.13, which serves
# resource.k8s.io/v1alpha3, and v1.37.2, which serves v1, v1beta2, v1beta1
# and v1alpha3 (served_versions); starts each on loopback with its own etcd
# (Debian's etcd-server package, installed when missing) and a fresh data
# dir; and runs the Go tests of the hack/e2e module once per server, with
# the server's address, token and kubeconfig in DRAKIT_E2E_* variables.
# A 1.33 server is also started twice more, with only v1beta1 and with only
# v1beta2 enabled (variant_versions), on the 1.33 server's etcd under
# prefixes of their own; only the drop-in v1 interface's tests
# (hack/e2e/resourcev1) and the drivers' webhooks (hack/e2e/webhook) run
# against those.
# Against the 1.37 server it then starts kube-scheduler and
# kube-controller-manager (its resourceclaim and resourcepoolstatusrequest
# controllers only) of the same release, built from the same builder
# module, runs the packages that compare drakit's predictions with what the
# scheduler does (hack/e2e/scheduler) and drakit's pool utilization with
# the controller's ResourcePoolStatusRequest status (hack/e2e/poolstatus),
# and stops them (scheduler_release).
# Then, when both a 1.30 and a 1.37 server are among them, it runs the
# migration recipe of docs/migration.md (package hack/e2e/migration) from
# the 1.30 server to the 1.37 one and back to a fresh 1.30 server, started
# for that phase only.
# Everything it starts is stopped when it exits, whether the tests passed,
# failed or the script was interrupted.
#
# Usage: hack/e2e.sh [go test flags, e.g. -run TestV1alpha2 -v]
#        hack/e2e.sh --build   only build what a run needs (the binaries
#                              into their cache, the tests and drakit into
#                              Go's), start nothing: hack/test.sh builds
#                              early and runs later
#        hack/e2e.sh --serve   start the servers (and the fresh 1.30 one of
#                              the migration phase), print how to reach them
#                              and keep them running until interrupted (for
#                              running single tests while developing)
# Environment:
#   DRAKIT_E2E_CACHE     where the built binaries are kept (default
#                        $XDG_CACHE_HOME/drakit-e2e, else ~/.cache/drakit-e2e)
#   DRAKIT_E2E_SERVERS   which servers to run, default "v1.30.14 v1.33.13 v1.37.2"
#   DRAKIT_E2E_MIGRATION=0  leave out the migration phase
#   DRAKIT_E2E_VARIANTS=0   leave out the extra 1.33 servers (variant_versions)
#   DRAKIT_E2E_SCHEDULER=0  leave out kube-scheduler, kube-controller-manager
#                        and the package hack/e2e/scheduler
#   DRAKIT_E2E_KEEP=1    keep the temporary directory (logs, certificates)
#   DRAKIT_E2E_OUT       where the test binaries and drakit are built
#                        (default: the temporary directory); the same
#                        directory for --build and the run spares linking
#                        them twice
set -o errexit -o nounset -o pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
e2e="$repo/hack/e2e"
script_start=$(date +%s)
servers=(${DRAKIT_E2E_SERVERS:-v1.30.14 v1.33.13 v1.37.2})

log() { printf '[e2e %4ss] %s\n' "$(( $(date +%s) - script_start ))" "$*" >&2; }
die() { log "FAIL: $*"; exit 1; }

# served_versions maps a Kubernetes release to the resource.k8s.io
# versions the suite enables and tests on it, preferred (newest) first.
served_versions() {
  case "$1" in
    v1.30.*) echo v1alpha2 ;;
    v1.33.*) echo v1alpha3 ;;
    v1.37.*) echo v1 v1beta2 v1beta1 v1alpha3 ;;
    *) die "no resource.k8s.io version known for kube-apiserver $1; add it to served_versions in hack/e2e.sh" ;;
  esac
}

# variant_versions maps a release to the resource.k8s.io versions its
# server is started with once more each, that version alone, for the
# drop-in v1 interface's test (package resourcev1) only. 1.33 serves
# v1alpha3, v1beta1 and v1beta2, all off by default; the main 1.33 server
# is the v1alpha3 one.
variant_versions() {
  case "$1" in
    v1.33.*) echo v1beta1 v1beta2 ;;
  esac
}

# variant_packages (directories under hack/e2e) run against a variant
# server, with variant_flags (go test flags).
variant_packages=(resourcev1 webhook)
variant_flags=(-run '^(TestResourceV1Interface|TestResourceSliceController|TestWebhooks)$')

# scheduler_release reports whether kube-scheduler and
# kube-controller-manager run against a server of the release, for the
# package hack/e2e/scheduler only (scheduler_tests): its builder module
# builds them (components in hack/e2e/update-apiserver-modules.sh).
scheduler_release() {
  case "$1" in
    v1.37.*) return 0 ;;
  esac
  return 1
}

# scheduler_tests are the test packages (directories under hack/e2e) run
# while they run: the scheduler comparison, and hack/e2e/poolstatus, which
# compares drakit's pool utilization with the status
# kube-controller-manager's ResourcePoolStatusRequest controller writes.
# The other packages run before they start and leave the scheduler's profile alone
# (scheduler_name), but the resourceclaim controller acts on every pod: it
# would make the claims of the live package's pending pods and drop the
# reservations of its claims.
scheduler_tests=(scheduler poolstatus)
scheduler_name=drakit-e2e-scheduler

# server_gates maps a release to its --feature-gates. 1.37 turns on every
# DRA gate that keeps a field drakit writes (the alpha ones are off by
# default; README.md lists which field each keeps).
server_gates() {
  case "$1" in
    v1.37.*) echo "DRAListTypeAttributes=true,DRANodeAllocatableResources=true,DRAResourcePoolStatus=true,DRADerivedAttributes=true,DRADeviceCompatibilityGroups=true,DRAPartitionableDevicesType=true,DRAFractionalCapacityRange=true,NodeDeclaredFeatures=true,DRAOptionalNodeOperations=true" ;;
    *) echo "DynamicResourceAllocation=true" ;;
  esac
}

# --- tools --------------------------------------------------------------

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    die "need root (or sudo) to run: $*"
  fi
}

ensure_packages() {
  local missing=()
  command -v etcd >/dev/null || missing+=(etcd-server)
  command -v curl >/dev/null || missing+=(curl)
  command -v openssl >/dev/null || missing+=(openssl)
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]} from Debian"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
  command -v etcd >/dev/null || die "etcd is still missing after installing etcd-server"
}

# --- processes ------------------------------------------------------------

pids=()
workdir=""
scratch=() # etcd data dirs on tmpfs, outside $workdir
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    # Up to 10 seconds for a clean exit, then SIGKILL.
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  for d in "${scratch[@]}"; do rm -rf "$d"; done
  # Whatever else this script left in the background (the --serve sleep).
  kill $(jobs -p) 2>/dev/null || true
  if [ -n "$workdir" ]; then
    if [ $status -ne 0 ]; then
      for f in "$workdir"/*/*.log; do
        [ -f "$f" ] || continue
        printf '\n--- last lines of %s\n' "$f" >&2
        tail -n 30 "$f" >&2
      done
    fi
    if [ "${DRAKIT_E2E_KEEP:-}" = 1 ]; then
      log "kept $workdir"
    else
      rm -rf "$workdir"
    fi
  fi
  log "total wall time $(( $(date +%s) - script_start ))s (exit $status)"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# pick_port VAR sets VAR to a loopback TCP port nothing listens on and no
# earlier call picked. Ports come from below the kernel's ephemeral range:
# a server's own outgoing connections (kube-apiserver dials etcd before it
# binds its port) take ephemeral ports, and one of them once took the port
# picked for that server ("bind: address already in use"). Another process
# could still take a port before it is bound; the readiness waits below
# then fail with the log naming the port.
used_ports=" "
ephemeral_low=32768
if [ -r /proc/sys/net/ipv4/ip_local_port_range ]; then
  read -r ephemeral_low _ </proc/sys/net/ipv4/ip_local_port_range
fi
port_low=10000
[ "$ephemeral_low" -gt $(( port_low + 2000 )) ] || port_low=1024
pick_port() {
  local port
  for _ in $(seq 1 200); do
    port=$(( port_low + RANDOM % (ephemeral_low - port_low) ))
    case "$used_ports" in *" $port "*) continue ;; esac
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      used_ports+="$port "
      printf -v "$1" '%s' "$port"
      return
    fi
  done
  die "found no free loopback port"
}

# wait_for URL SECONDS DESCRIPTION PID [curl args]: polls until URL answers
# with a body of "ok" or {"health":"true"}, the process died, or time is up.
wait_for() {
  local url=$1 seconds=$2 what=$3 pid=$4
  shift 4
  local deadline=$(( $(date +%s) + seconds )) body
  while :; do
    body="$(curl -s --max-time 2 "$@" "$url" 2>/dev/null || true)"
    case "$body" in
      ok|*'"health":"true"'*) return 0 ;;
    esac
    kill -0 "$pid" 2>/dev/null || die "$what exited before it was ready"
    [ "$(date +%s)" -lt "$deadline" ] || die "$what was not ready at $url after ${seconds}s (last answer: ${body:0:200})"
    sleep 0.5
  done
}

# start_etcd DIR VERSION: starts an etcd for the server of DIR, waits until
# it is healthy and writes its client URL to DIR/etcd-url.
start_etcd() {
  local dir=$1 version=$2 etcd_port peer_port
  pick_port etcd_port
  pick_port peer_port
  # etcd's data lives on tmpfs when there is one: fsync on overlay disks
  # makes every write slow, and the data is thrown away anyway.
  local data
  if [ -d /dev/shm ] && [ -w /dev/shm ]; then
    data="$(mktemp -d /dev/shm/drakit-e2e-etcd.XXXXXX)"
    scratch+=("$data")
    ln -s "$data" "$dir/etcd-data"
  else
    data="$dir/etcd-data"
    mkdir -p "$data"
  fi
  etcd --name e2e --data-dir "$data/member-data" \
    --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-cluster "e2e=http://127.0.0.1:$peer_port" \
    >"$dir/etcd.log" 2>&1 &
  pids+=($!)
  local etcd_pid=$!
  wait_for "http://127.0.0.1:$etcd_port/health" 60 "etcd for $version" "$etcd_pid"
  echo "http://127.0.0.1:$etcd_port" >"$dir/etcd-url"
}

# start_server VERSION BINARY [NAME [VERSIONS ETCD]]: starts etcd and
# kube-apiserver for one release under $workdir/NAME (default VERSION) and
# writes env.sh there for the tests. VERSIONS overrides the
# resource.k8s.io versions of served_versions; with ETCD, the name of a
# server started before, the new one shares that server's etcd under an
# etcd prefix of its own instead of starting one.
start_server() {
  local version=$1 binary=$2 name=${3:-$1} dir="$workdir/${3:-$1}"
  local served versions api_port token etcd_url etcd_prefix=/registry
  versions="${4:-$(served_versions "$version")}"
  served="${versions%% *}"
  mkdir -p "$dir/certs"
  pick_port api_port
  if [ -n "${5:-}" ]; then
    etcd_url="$(cat "$workdir/$5/etcd-url")"
    etcd_prefix="/registry-$name"
  else
    start_etcd "$dir" "$version"
    etcd_url="$(cat "$dir/etcd-url")"
  fi

  # A static token of a member of system:masters: RBAC is on, and the
  # tests act as the cluster administrator.
  token="$(openssl rand -hex 24)"
  printf '%s,drakit-e2e,drakit-e2e-uid,"system:masters"\n' "$token" >"$dir/tokens.csv"
  openssl genrsa -out "$dir/sa.key" 2048 2>/dev/null

  local runtime_config="" feature_gates v
  feature_gates="$(server_gates "$version")"
  for v in $versions; do runtime_config+="${runtime_config:+,}resource.k8s.io/${v}=true"; done

  "$binary" \
    --bind-address=127.0.0.1 --secure-port="$api_port" --advertise-address=127.0.0.1 \
    --cert-dir="$dir/certs" \
    --etcd-servers="$etcd_url" --etcd-prefix="$etcd_prefix" \
    --token-auth-file="$dir/tokens.csv" \
    --authorization-mode=RBAC \
    --service-account-issuer=https://kubernetes.default.svc \
    --service-account-key-file="$dir/sa.key" \
    --service-account-signing-key-file="$dir/sa.key" \
    --service-cluster-ip-range=10.96.0.0/16 \
    --endpoint-reconciler-type=none \
    --feature-gates="$feature_gates" \
    --runtime-config="$runtime_config" \
    --profiling=false \
    >"$dir/kube-apiserver.log" 2>&1 &
  pids+=($!)
  local api_pid=$!

  local host="https://127.0.0.1:$api_port"
  cat >"$dir/kubeconfig" <<KUBECONFIG
apiVersion: v1
kind: Config
clusters:
- name: e2e
  cluster:
    server: $host
    insecure-skip-tls-verify: true
users:
- name: e2e
  user:
    token: $token
contexts:
- name: e2e
  context: {cluster: e2e, user: e2e}
current-context: e2e
KUBECONFIG
  cat >"$dir/env.sh" <<ENV
export DRAKIT_E2E_HOST=$host
export DRAKIT_E2E_TOKEN=$token
export DRAKIT_E2E_KUBECONFIG=$dir/kubeconfig
export DRAKIT_E2E_KUBE_VERSION=$version
export DRAKIT_E2E_RESOURCE_VERSION=$served
export DRAKIT_E2E_RESOURCE_VERSIONS="$versions"
export DRAKIT_E2E_APISERVER_PID=$api_pid
ENV
  echo "$api_pid" >"$dir/apiserver.pid"
  log "started kube-apiserver $version as $name (resource.k8s.io: $versions) at $host, etcd at $etcd_url$etcd_prefix"
}

# start_components VERSION: starts kube-scheduler and kube-controller-manager
# (its resourceclaim controller only) for the server of VERSION, with
# the server's kubeconfig and feature gates, leader election off, serving
# on loopback; waits until they are ready; and writes scheduler-env.sh for
# the package hack/e2e/scheduler.
component_pids=()
start_components() {
  local version=$1 dir="$workdir/$1" scheduler_port kcm_port gates
  gates="$(server_gates "$version")"
  pick_port scheduler_port
  pick_port kcm_port
  # One profile under a name of its own: the scheduler schedules only the
  # pods that ask for it. A backoff of a second at most: a pod the
  # scheduler retries (after its DRA PostFilter deallocated a claim) is
  # tried again soon, as the tests wait for it.
  cat >"$dir/kube-scheduler.yaml" <<CONFIG
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: $dir/kubeconfig
leaderElection:
  leaderElect: false
podInitialBackoffSeconds: 1
podMaxBackoffSeconds: 1
profiles:
- schedulerName: $scheduler_name
CONFIG
  "${schedulers[$version]}" \
    --config="$dir/kube-scheduler.yaml" \
    --bind-address=127.0.0.1 --secure-port="$scheduler_port" \
    --feature-gates="$gates" \
    >"$dir/kube-scheduler.log" 2>&1 &
  pids+=($!)
  component_pids+=($!)
  local scheduler_pid=$!
  "${controller_managers[$version]}" \
    --kubeconfig="$dir/kubeconfig" \
    --controllers=resourceclaim-controller,resourcepoolstatusrequest-controller \
    --leader-elect=false \
    --bind-address=127.0.0.1 --secure-port="$kcm_port" \
    --feature-gates="$gates" \
    >"$dir/kube-controller-manager.log" 2>&1 &
  pids+=($!)
  component_pids+=($!)
  local kcm_pid=$!
  # The scheduler is ready once its informers have synced
  # (sched-handler-sync); the controller manager once it serves.
  wait_for "https://127.0.0.1:$scheduler_port/readyz" 60 "kube-scheduler $version" "$scheduler_pid" -k
  wait_for "https://127.0.0.1:$kcm_port/healthz" 60 "kube-controller-manager $version" "$kcm_pid" -k
  cat >"$dir/scheduler-env.sh" <<ENV
export DRAKIT_E2E_SCHEDULER_NAME=$scheduler_name
export DRAKIT_E2E_SCHEDULER_GATES=$gates
export DRAKIT_E2E_CLAIM_CONTROLLER=1
export DRAKIT_E2E_POOLSTATUS_CONTROLLER=1
export DRAKIT_E2E_DRAKIT=$outdir/bin/drakit
ENV
  log "kube-scheduler and kube-controller-manager $version are ready (profile $scheduler_name)"
}

# stop_components stops what start_components started, as cleanup would.
stop_components() {
  local pid
  for pid in "${component_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${component_pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  component_pids=()
}

# wait_server NAME: waits until the server started as NAME is ready.
wait_server() {
  local version=$1 dir="$workdir/$1"
  # shellcheck disable=SC1091
  . "$dir/env.sh"
  wait_for "$DRAKIT_E2E_HOST/readyz" 180 "kube-apiserver $version" "$DRAKIT_E2E_APISERVER_PID" \
    -k -H "Authorization: Bearer $DRAKIT_E2E_TOKEN"
  log "kube-apiserver $version is ready"
}

# --- main -----------------------------------------------------------------

ensure_packages
command -v go >/dev/null || die "Go is not on PATH"

# The migration phase (docs/migration.md) needs a 1.30 server to export
# from, a 1.37 server to import into and a fresh 1.30 server for the way
# back; the fresh one, named "<1.30 release>-fresh", is started with the
# others but used by that phase only.
migrate_from="" migrate_to="" migrate_back=""
if [ "${DRAKIT_E2E_MIGRATION:-1}" != 0 ]; then
  for version in "${servers[@]}"; do
    case "$version" in
      v1.30.*) migrate_from=$version ;;
      v1.37.*) migrate_to=$version ;;
    esac
  done
  if [ -n "$migrate_from" ] && [ -n "$migrate_to" ]; then
    migrate_back="$migrate_from-fresh"
  else
    log "no migration phase: it needs a v1.30 and a v1.37 server among: ${servers[*]}"
  fi
fi

declare -A binaries schedulers controller_managers
for version in "${servers[@]}"; do
  t=$(date +%s)
  binaries[$version]="$("$e2e/build-apiserver.sh" "$version")"
  log "kube-apiserver $version: ${binaries[$version]} ($(( $(date +%s) - t ))s)"
done
# kube-scheduler and kube-controller-manager after the API servers: their
# builder module is the API server's, so the Go build cache already holds
# most of what they need.
with_scheduler=()
if [ "${DRAKIT_E2E_SCHEDULER:-1}" != 0 ]; then
  for version in "${servers[@]}"; do
    scheduler_release "$version" || continue
    with_scheduler+=("$version")
    t=$(date +%s)
    schedulers[$version]="$("$e2e/build-apiserver.sh" "$version" kube-scheduler)"
    log "kube-scheduler $version: ${schedulers[$version]} ($(( $(date +%s) - t ))s)"
    t=$(date +%s)
    controller_managers[$version]="$("$e2e/build-apiserver.sh" "$version" kube-controller-manager)"
    log "kube-controller-manager $version: ${controller_managers[$version]} ($(( $(date +%s) - t ))s)"
  done
fi

workdir="$(mktemp -d "${TMPDIR:-/tmp}/drakit-e2e.XXXXXX")"
# The test binaries (tests/) and drakit (bin/drakit) go to DRAKIT_E2E_OUT
# when it is set, else into the temporary directory: a run after --build
# with the same DRAKIT_E2E_OUT finds them up to date there, and go test -c
# and go build do not link them again.
outdir="${DRAKIT_E2E_OUT:-$workdir}"

# compile_tests compiles the test binaries into $outdir/tests/.
compile_tests() {
  (cd "$e2e" && GOFLAGS="-mod=mod ${GOFLAGS:-}" go test -c -o "$outdir/tests/" ./...)
}
# build_drakit builds drakit as an operator builds it into $outdir/bin; the
# migration, scheduler and webhook tests run this binary.
build_drakit() {
  (cd "$repo" && go build -o "$outdir/bin/drakit" ./cmd/drakit) || die "cannot build drakit (go build ./cmd/drakit)"
}

if [ "${1:-}" = "--build" ]; then
  # What a run would build, so that the run that follows finds it built:
  # the binaries above, the test binaries and drakit. Nothing is started.
  t=$(date +%s)
  compile_tests || die "the e2e tests do not compile (cd hack/e2e && go vet ./...)"
  build_drakit
  log "tests and drakit compiled ($(( $(date +%s) - t ))s); --build: nothing started"
  exit 0
fi

# Compile the test binaries once, while the servers start: each package's
# binary then runs against every server (run_tests). With "go test" each
# run linked all of them again, which took most of a suite's time.
t=$(date +%s)
compile_tests >"$workdir/compile.log" 2>&1 &
compile_pid=$!
names=("${servers[@]}")
for version in "${servers[@]}"; do
  start_server "$version" "${binaries[$version]}"
done
if [ -n "$migrate_back" ]; then
  start_server "$migrate_from" "${binaries[$migrate_from]}" "$migrate_back"
  names+=("$migrate_back")
fi
# The variants: NAME is "<release>-only-<version>"; each shares the
# release's etcd.
variants=()
if [ "${DRAKIT_E2E_VARIANTS:-1}" != 0 ]; then
  for version in "${servers[@]}"; do
    for v in $(variant_versions "$version"); do
      start_server "$version" "${binaries[$version]}" "$version-only-$v" "$v" "$version"
      variants+=("$version-only-$v")
    done
  done
fi
names+=("${variants[@]}")
for name in "${names[@]}"; do
  wait_server "$name"
done
build_drakit
if ! wait "$compile_pid"; then
  cat "$workdir/compile.log" >&2
  # With --serve, single tests can still run while a package is mid-edit.
  [ "${1:-}" = "--serve" ] || die "the e2e tests do not compile (cd hack/e2e && go vet ./...)"
  log "warning: the e2e tests do not compile (cd hack/e2e && go vet ./...)"
fi
log "servers ready and tests compiled ($(( $(date +%s) - t ))s)"

# migration_env prints the variables of the migration phase.
migration_env() {
  printf 'DRAKIT_E2E_MIGRATE_FROM=%s DRAKIT_E2E_MIGRATE_TO=%s DRAKIT_E2E_MIGRATE_BACK=%s DRAKIT_E2E_DRAKIT=%s' \
    "$workdir/$migrate_from/env.sh" "$workdir/$migrate_to/env.sh" "$workdir/$migrate_back/env.sh" "$outdir/bin/drakit"
}

if [ "${1:-}" = "--serve" ]; then
  for version in "${servers[@]}"; do
    log "kube-apiserver $version: . $workdir/$version/env.sh && (cd hack/e2e && DRAKIT_E2E_DRAKIT=$outdir/bin/drakit go test ./...)"
  done
  # The scheduler and the resourceclaim controller run all along here: the
  # live package's answers differ while they do (DRAKIT_E2E_SCHEDULER=0
  # leaves them out).
  for version in "${with_scheduler[@]}"; do
    start_components "$version"
    log "kube-scheduler $version: . $workdir/$version/env.sh && . $workdir/$version/scheduler-env.sh && (cd hack/e2e && go test $(printf './%s/ ' "${scheduler_tests[@]}"))"
  done
  for name in "${variants[@]}"; do
    log "kube-apiserver $name: . $workdir/$name/env.sh && (cd hack/e2e && go test $(printf './%s/ ' "${variant_packages[@]}")${variant_flags[0]} '${variant_flags[1]}')"
  done
  if [ -n "$migrate_back" ]; then
    log "migration: (cd hack/e2e && $(migration_env) go test ./migration/)"
  fi
  log "serving until interrupted"
  # wait, unlike a foreground sleep, returns at once on a trapped signal.
  while :; do sleep 3600 & wait $!; done
fi

# run_tests runs the test packages named (directories under hack/e2e) one
# after another from the binaries compiled above, each in its directory as
# go test runs it, and prints go test's line for each, and the output of a
# package that fails. The arguments after
# "--" are go test flags (-run X, -v), each passed as the binary's -test.X,
# after the defaults (-count=1, -timeout 15m), so that they win. It fails
# when a package fails.
run_tests() {
  local packages=() flags=() arg pkg bin start rc=0
  while [ $# -gt 0 ] && [ "$1" != -- ]; do packages+=("$1"); shift; done
  [ $# -eq 0 ] || shift
  for arg in "$@"; do
    case "$arg" in
      -test.*) flags+=("$arg") ;;
      --*) flags+=("-test.${arg#--}") ;;
      -*) flags+=("-test.${arg#-}") ;;
      *) flags+=("$arg") ;;
    esac
  done
  for pkg in "${packages[@]}"; do
    bin="$outdir/tests/${pkg##*/}.test"
    if [ ! -x "$bin" ]; then
      printf '?   \t%s\t[no test files]\n' "github.com/drakit/drakit/hack/e2e/$pkg"
      continue
    fi
    start=$SECONDS
    if (cd "$e2e/$pkg" && "$bin" -test.paniconexit0 -test.count=1 -test.timeout=15m "${flags[@]}") >"$workdir/test.out" 2>&1; then
      # As go test with a list of packages: a passing package's output
      # only with -v.
      case " ${flags[*]} " in *" -test.v "* | *" -test.v=true "*) grep -vx PASS "$workdir/test.out" || true ;; esac
      printf 'ok  \t%s\t%ss\n' "github.com/drakit/drakit/hack/e2e/$pkg" "$((SECONDS - start))"
    else
      cat "$workdir/test.out"
      printf 'FAIL\t%s\t%ss\n' "github.com/drakit/drakit/hack/e2e/$pkg" "$((SECONDS - start))"
      rc=1
    fi
  done
  return $rc
}

# test_packages are the directories under hack/e2e of every package.
mapfile -t test_packages < <(cd "$e2e" && GOFLAGS="-mod=mod ${GOFLAGS:-}" go list -f '{{.Dir}}' ./... | sed "s|^$e2e/||")

failed=()
for version in "${servers[@]}"; do
  t=$(date +%s)
  log "running the e2e tests against kube-apiserver $version"
  if ! (
    # shellcheck disable=SC1091
    . "$workdir/$version/env.sh"
    export DRAKIT_E2E_REQUIRED=1
    # The webhook package runs drakit webhook serve and config.
    export DRAKIT_E2E_DRAKIT="$outdir/bin/drakit"
    cd "$e2e"
    # The live package first, alone: its golden answers count the
    # cluster's nodes and list its claims, which the other packages add to.
    rc=0
    run_tests live -- "$@" || rc=1
    run_tests $(printf '%s\n' "${test_packages[@]}" | grep -vx -e live -e scheduler) -- "$@" || rc=1
    exit "$rc"
  ); then
    failed+=("$version")
  fi
  log "tests against $version took $(( $(date +%s) - t ))s"
  case " ${with_scheduler[*]} " in *" $version "*) ;; *) continue ;; esac
  t=$(date +%s)
  start_components "$version"
  log "running ${scheduler_tests[*]} against kube-apiserver $version with kube-scheduler"
  if ! (
    # shellcheck disable=SC1091
    . "$workdir/$version/env.sh"
    # shellcheck disable=SC1091
    . "$workdir/$version/scheduler-env.sh"
    export DRAKIT_E2E_REQUIRED=1
    run_tests "${scheduler_tests[@]}" -- "$@"
  ); then
    failed+=("$version with kube-scheduler")
  fi
  stop_components
  log "the scheduler tests against $version took $(( $(date +%s) - t ))s"
done
for name in "${variants[@]}"; do
  t=$(date +%s)
  log "running ${variant_packages[*]} against kube-apiserver $name"
  # The caller's flags come last: a -run of theirs replaces the variant's.
  if ! (
    # shellcheck disable=SC1091
    . "$workdir/$name/env.sh"
    export DRAKIT_E2E_REQUIRED=1
    export DRAKIT_E2E_DRAKIT="$outdir/bin/drakit"
    run_tests "${variant_packages[@]}" -- "${variant_flags[@]}" "$@"
  ); then
    failed+=("$name")
  fi
  log "tests against $name took $(( $(date +%s) - t ))s"
done
if [ -n "$migrate_back" ]; then
  t=$(date +%s)
  log "running the migration $migrate_from -> $migrate_to -> $migrate_back"
  # No DRAKIT_E2E_HOST: the migration tests take their three servers from
  # the env files, and every other package skips.
  if ! (
    export DRAKIT_E2E_REQUIRED=1
    eval "export $(migration_env)"
    run_tests migration -- "$@"
  ); then
    failed+=("migration $migrate_from -> $migrate_to -> $migrate_back")
  fi
  log "the migration took $(( $(date +%s) - t ))s"
fi
if [ ${#failed[@]} -gt 0 ]; then
  die "e2e tests failed against: ${failed[*]}"
fi
log "e2e passed against: ${servers[*]}${variants[*]:+, the variants ${variants[*]}}${migrate_back:+, and the migration}"
