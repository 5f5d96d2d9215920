#!/usr/bin/env bash
# Checks the published schemas with the tools that consume them: kubeconform
# validates the manifests of hack/kubeconform-test/testdata (and examples/)
# against openapi/jsonschema, and the OpenAPI documents of openapi/spec are
# compared with those of the real Kubernetes releases. It is a separate Go
# module, so that kubeconform and the Kubernetes modules never enter
# drakit's go.mod; the first run downloads them (k8s.io/kubernetes is large).
#
# Usage: hack/kubeconform-test.sh [go test flags]
set -o errexit -o nounset -o pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/kubeconform-test"
GOFLAGS="-mod=mod ${GOFLAGS:-}" go test -count=1 ./... "$@"
