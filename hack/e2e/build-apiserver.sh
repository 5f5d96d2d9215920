#!/usr/bin/env bash
# Builds a command of one Kubernetes release from its builder module
# (hack/e2e/apiserver-1.<minor>, see update-apiserver-modules.sh) and prints
# the path of the binary: kube-apiserver (the module's own main package),
# or a component whose main package is in the module's directory of that
# name (kube-scheduler, kube-controller-manager: see components in
# update-apiserver-modules.sh). The components share the module, so that
# the Go build cache holds the k8s.io/kubernetes packages they share with
# the API server once: a component built after kube-apiserver compiles only
# its own packages.
# Binaries are cached under $DRAKIT_E2E_CACHE (default
# $XDG_CACHE_HOME/drakit-e2e, else ~/.cache/drakit-e2e: outside the clone,
# so that the fresh clones CI makes on the same machine reuse them), keyed
# by the command, the release and a hash of the builder module's go.mod and
# go.sum, the command's main package and the Go version: a warm run reuses
# them, a changed builder module or toolchain rebuilds.
#
# Usage: hack/e2e/build-apiserver.sh v1.30.14 [COMPONENT]
#        COMPONENT: kube-apiserver (default), or a directory of the builder
#        module, e.g. kube-scheduler
set -o errexit -o nounset -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
version="${1:?usage: build-apiserver.sh v1.X.Y [COMPONENT]}"
component="${2:-kube-apiserver}"
if ! [[ "$version" =~ ^v1\.([0-9]+)\.([0-9]+)$ ]]; then
  echo "build-apiserver: '$version' is not a Kubernetes release like v1.30.14" >&2
  exit 2
fi
minor="${BASH_REMATCH[1]}"
module_dir="$here/apiserver-1.${minor}"
if [ ! -f "$module_dir/go.mod" ]; then
  echo "build-apiserver: no builder module $module_dir; run hack/e2e/update-apiserver-modules.sh $version" >&2
  exit 2
fi
if ! grep -q "k8s.io/kubernetes ${version}\$" "$module_dir/go.mod"; then
  echo "build-apiserver: $module_dir/go.mod does not require k8s.io/kubernetes ${version}; run hack/e2e/update-apiserver-modules.sh $version" >&2
  exit 2
fi

# The main package: the module's root for kube-apiserver, else the
# component's directory.
main_dir="$module_dir"
if [ "$component" != kube-apiserver ]; then
  if ! [[ "$component" =~ ^[a-z][a-z0-9-]*$ ]] || [ ! -d "$module_dir/$component" ]; then
    echo "build-apiserver: the builder module $module_dir has no command '$component' (a directory with its main package); add it to components in hack/e2e/update-apiserver-modules.sh and run it for $version" >&2
    exit 2
  fi
  main_dir="$module_dir/$component"
fi
if ! ls "$main_dir"/*.go >/dev/null 2>&1; then
  echo "build-apiserver: no Go files in $main_dir; run hack/e2e/update-apiserver-modules.sh $version" >&2
  exit 2
fi

cache="${DRAKIT_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/drakit-e2e}"
# The binaries are built as Kubernetes builds these commands for a
# release: without cgo (static). They leave out the in-tree cloud providers
# (build tag providerless): the e2e suites configure none, and that of
# 1.30, the last release with one (GCE), brings Google's generated Compute
# API clients, a large part of a cold build.
build_tags=providerless
# Releases before the one drakit follows are compiled without inlining
# (-gcflags=all=-l), which takes a quarter less CPU (measured on client-go
# and apiserver: 107 against 140 CPU-seconds) for servers that run a little
# slower, and serve the same. The release drakit follows is compiled as
# drakit's own builds are (hack/test.sh, -trimpath): with the same modules
# at the same versions, the Go build cache then holds the packages they
# share (about 900) once.
# The release drakit follows is catalogue.Release; the script reads it
# from the k8s.io modules in go.mod, which TestFollowedReleaseAgrees keeps
# of that release.
followed="$(awk '$1 == "k8s.io/api" { split($2, v, "."); print v[2]; exit }' "$repo/go.mod")"
gcflags=()
if [ -n "$followed" ] && [ "$minor" -lt "$followed" ]; then
  gcflags=(-gcflags=all=-l)
fi
# The key: go.mod, go.sum, the main package, the Go version and the build
# settings.
settings="CGO_ENABLED=0 tags=$build_tags${gcflags[*]:+ ${gcflags[*]}}"
key="$(cat "$module_dir/go.mod" "$module_dir/go.sum" "$main_dir"/*.go <(go version) <(echo "$settings") | sha256sum | cut -c1-12)"
out="$cache/${component}-${version}-${key}"
if [ -x "$out" ]; then
  echo "$out"
  exit 0
fi
mkdir -p "$cache"

# The version the binary reports (/version, the emulation version of 1.31+
# servers, feature gate defaults by version). Release builds stamp it with
# these ldflags; a plain "go build" would report v0.0.0.
build_date="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X ${pkg}.gitVersion=${version}"
  ldflags+=" -X ${pkg}.gitMajor=1 -X ${pkg}.gitMinor=${minor}"
  ldflags+=" -X ${pkg}.gitTreeState=clean -X ${pkg}.buildDate=${build_date}"
done

start=$(date +%s)
echo "build-apiserver: building ${component} ${version} (takes several minutes on a cold cache)" >&2
tmp="$(mktemp "$cache/.${component}-${version}.XXXXXX")"
trap 'rm -f "$tmp"' EXIT
# -mod=readonly: go.sum is checked in; a missing entry is an error, not a
# silent re-resolution against the proxy.
(cd "$main_dir" && CGO_ENABLED=0 GOFLAGS="-mod=readonly ${GOFLAGS:-}" go build -trimpath -tags "$build_tags" "${gcflags[@]}" -ldflags "$ldflags" -o "$tmp" .)
mv -f "$tmp" "$out"
trap - EXIT
echo "build-apiserver: built ${component} ${version} in $(( $(date +%s) - start ))s" >&2
echo "$out"
