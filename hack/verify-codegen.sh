#!/usr/bin/env bash
# Fails when any generated file is out of date: regenerates into a copy of the
# tree and compares the two. Nothing in the working tree is touched.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
copy=$(mktemp -d)
trap 'rm -rf "$copy"' EXIT

# The copy holds what git sees: tracked files plus untracked ones that are
# not ignored, as they are in the working tree.
files() { git -C "$1" ls-files --cached --others --exclude-standard 2>/dev/null || (cd "$1" && find . -type f ! -path './.git/*' | sed 's|^\./||'); }
files "$repo" | while IFS= read -r f; do
  [ -f "$repo/$f" ] || continue
  mkdir -p "$copy/$(dirname "$f")"
  cp -p "$repo/$f" "$copy/$f"
done

"$copy/hack/update-codegen.sh" "$copy" >/dev/null

stale=$(diff -rq "$repo" "$copy" -x .git 2>&1 | grep -vE "^Only in $repo" || true)
# A file only in the working tree matters only when git sees it (else it is
# ignored build output) and the generators removed it.
gone=$(diff -rq "$repo" "$copy" -x .git 2>&1 | sed -n "s|^Only in $repo/\{0,1\}\(.*\): \(.*\)$|\1/\2|p" |
  while IFS= read -r f; do f=${f#/}; files "$repo" | grep -qxF "$f" && echo "removed: $f"; done || true)
if [ -n "$stale$gone" ]; then
  echo "generated files are out of date; run hack/update-codegen.sh:" >&2
  printf '%s\n' "$stale" "$gone" | sed "s|$copy|<regenerated>|g; /^$/d; s/^/  /" >&2
  exit 1
fi
echo "generated files are up to date"
