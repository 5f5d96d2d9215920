#!/usr/bin/env bash
# The static checks of drakit: gofmt, go vet, the import restrictions and
# up-to-date generated code.
#
# Usage: hack/verify.sh [CHECK...]   CHECK: gofmt, vet, imports, codegen;
#                                    all of them, in that order, by default
# (hack/test.sh runs go vet apart: beside the unit tests, once the build
# has compiled what it needs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

all_checks=(gofmt vet imports codegen)
checks=("$@")
[ ${#checks[@]} -gt 0 ] || checks=("${all_checks[@]}")
for check in "${checks[@]}"; do
  case " ${all_checks[*]} " in
    *" $check "*) ;;
    *) echo "hack/verify.sh: unknown check '$check' (${all_checks[*]})" >&2; exit 2 ;;
  esac
done

check_gofmt() {
  echo "== gofmt"
  unformatted=$(gofmt -l $(git ls-files --cached --others --exclude-standard '*.go'))
  if [ -n "$unformatted" ]; then
    echo "gofmt would change these files; run gofmt -w on them:" >&2
    echo "$unformatted" >&2
    exit 1
  fi
}

check_vet() {
  echo "== go vet"
  # With the tag of the stash's check generator, whose files build only
  # with it (hack/update-codegen.sh), so that vet reads them too.
  go vet -tags checkgen ./...
}

check_imports() {
  echo "== import restrictions"
  # The main module must not depend on Kubernetes itself (k8s.io/kubernetes is
  # not meant to be imported as a library) or on upstream's allocator
  # (k8s.io/dynamic-resource-allocation/structured; drakit has its own), not
  # even through a dependency or a test. The suites under hack/ that compare
  # drakit with them are modules of their own. For every forbidden package
  # that enters the build, one chain of imports from a drakit package to it is
  # printed.
  forbidden='^(k8s[.]io/kubernetes|k8s[.]io/dynamic-resource-allocation/structured)(/|$)'
  chains=$(go list -deps -test -f '{{.ImportPath}}|{{join .Imports ","}}' ./... |
    awk -F'|' -v forbidden="$forbidden" '
      # Test variants are listed as "path [pkg.test]"; one node per path.
      function strip(p) { sub(/ \[.*$/, "", p); return p }
      {
        p = strip($1)
        n = split($2, a, ",")
        for (i = 1; i <= n; i++) imports[p] = imports[p] " " strip(a[i])
        if (p ~ /^github[.]com\/drakit\/drakit([\/._]|$)/) queue[tail++] = p
      }
      END {
        for (i = 0; i < tail; i++) seen[queue[i]] = 1
        while (head < tail) {
          p = queue[head++]
          n = split(imports[p], a, " ")
          for (i = 1; i <= n; i++)
            if (!(a[i] in seen)) { seen[a[i]] = 1; parent[a[i]] = p; queue[tail++] = a[i] }
        }
        for (q in parent) {
          if (q !~ forbidden || parent[q] ~ forbidden) continue
          chain = q
          for (x = q; x in parent; x = parent[x]) chain = parent[x] " -> " chain
          print chain
        }
      }' | sort)
  if [ -n "$chains" ]; then
    echo "the main module must not import k8s.io/kubernetes/... or k8s.io/dynamic-resource-allocation/structured/...; it does through:" >&2
    echo "$chains" | sed 's/^/  /' >&2
    exit 1
  fi
}

check_codegen() {
  echo "== codegen"
  hack/verify-codegen.sh
}

for check in "${checks[@]}"; do
  "check_$check"
done
