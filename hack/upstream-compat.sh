#!/usr/bin/env bash
# Checks drakit's resource.k8s.io types against the upstream k8s.io/api
# releases (fixtures and type declarations). The check is a separate Go
# module, so that old k8s.io/api versions never enter drakit's go.mod.
set -o errexit -o nounset -o pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/upstream-compat"
GOFLAGS="-mod=mod ${GOFLAGS:-}" go test -count=1 ./... "$@"
