#!/usr/bin/env bash
# Builds kube-apiserver of one Kubernetes release from its builder module
# (hack/e2e/apiserver-1.<minor>, see update-apiserver-modules.sh) and prints
# the path of the binary. Binaries are cached under $DRAKIT_E2E_CACHE
# (default $XDG_CACHE_HOME/drakit-e2e, else ~/.cache/drakit-e2e: outside the
# clone, so that the fresh clones CI makes on the same machine reuse them),
# keyed by the release and by a hash of the builder module and the Go
# version: a warm run reuses them, a changed builder module or toolchain
# rebuilds.
#
# Usage: hack/e2e/build-apiserver.sh v1.30.14
set -o errexit -o nounset -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
version="${1:?usage: build-apiserver.sh v1.X.Y}"
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

cache="${DRAKIT_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/drakit-e2e}"
key="$(cat "$module_dir/go.mod" "$module_dir/go.sum" "$module_dir/main.go" <(go version) | sha256sum | cut -c1-12)"
out="$cache/kube-apiserver-${version}-${key}"
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
echo "build-apiserver: building kube-apiserver ${version} (takes several minutes on a cold cache)" >&2
tmp="$(mktemp "$cache/.kube-apiserver-${version}.XXXXXX")"
trap 'rm -f "$tmp"' EXIT
# -mod=readonly: go.sum is checked in; a missing entry is an error, not a
# silent re-resolution against the proxy.
(cd "$module_dir" && GOFLAGS=-mod=readonly go build -trimpath -ldflags "$ldflags" -o "$tmp" .)
mv -f "$tmp" "$out"
trap - EXIT
echo "build-apiserver: built kube-apiserver ${version} in $(( $(date +%s) - start ))s" >&2
echo "$out"
