#!/usr/bin/env bash
# The static checks of drakit: gofmt, go vet and up-to-date generated code.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "== gofmt"
unformatted=$(gofmt -l $(git ls-files --cached --others --exclude-standard '*.go'))
if [ -n "$unformatted" ]; then
  echo "gofmt would change these files; run gofmt -w on them:" >&2
  echo "$unformatted" >&2
  exit 1
fi

echo "== go vet"
go vet ./...

echo "== codegen"
hack/verify-codegen.sh
