#!/usr/bin/env bash
# Runs every native fuzz target (func FuzzXxx(f *testing.F)) of the main
# module for a fixed budget each, one target at a time: DRAKIT_FUZZTIME
# (default 20s; any -fuzztime value, "500x" too). The seed corpora under
# testdata/fuzz/ run in every "go test"; this goes past them. The targets
# are found in the sources, so new ones are picked up without a change
# here. It fails if any target finds a failing input, and says where Go
# wrote it: add that file to the change that fixes the failure, so that
# the input stays in the seed corpus.
#
#   hack/fuzz.sh                        # every target, 20s each
#   DRAKIT_FUZZTIME=2m hack/fuzz.sh     # longer
#   hack/fuzz.sh FuzzReader             # only the targets whose name matches
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

fuzztime="${DRAKIT_FUZZTIME:-20s}"
only="${1:-}"

# Package directories and import paths of the main module (the modules
# under hack/ have their own go.mod and are not part of ./...).
targets=()
while read -r dir pkg; do
  shopt -s nullglob
  files=("$dir"/*_test.go)
  shopt -u nullglob
  [ ${#files[@]} -gt 0 ] || continue
  for name in $(sed -nE 's/^func (Fuzz[A-Za-z0-9_]*)\([A-Za-z_][A-Za-z0-9_]* \*testing\.F\).*/\1/p' "${files[@]}" | sort -u); do
    if [ -n "$only" ] && ! [[ "$name" =~ $only ]]; then
      continue
    fi
    targets+=("$pkg $name $dir")
  done
done < <(go list -f '{{.Dir}} {{.ImportPath}}' ./...)

if [ ${#targets[@]} -eq 0 ]; then
  echo "hack/fuzz.sh: no fuzz target found${only:+ matching $only}" >&2
  exit 1
fi

echo "hack/fuzz.sh: ${#targets[@]} fuzz targets, $fuzztime each"
failed=()
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
log="$work/log"
start=$SECONDS

# Each package's test binary is built once, with the fuzzing
# instrumentation "go test -fuzz" adds (go test -c -fuzz), two at a time:
# linking is mostly one core's work, and "go test -fuzz" would link anew for
# every target. The targets then run from the binaries, in their package's
# directory (where testdata/fuzz is), with the flags "go test -fuzz" passes
# them, among them the corpus Go keeps in its cache for the package.
fuzzcache="$(go env GOCACHE)/fuzz"
binary() { printf '%s/%s.test' "$work" "$(printf '%s' "$1" | tr '/.' '__')"; }
packages=()
for t in "${targets[@]}"; do
  read -r pkg _ _ <<<"$t"
  case " ${packages[*]} " in *" $pkg "*) ;; *) packages+=("$pkg") ;; esac
done
export -f binary
export work
if ! printf '%s\n' "${packages[@]}" |
  xargs -P 2 -I{} bash -c 'go test -c -fuzz=. -o "$(binary "$1")" "$1" >"$(binary "$1").log" 2>&1 || { cat "$(binary "$1").log"; exit 1; }' _ {}; then
  echo "hack/fuzz.sh: building the fuzzing test binaries failed (see above)" >&2
  exit 1
fi
echo "hack/fuzz.sh: built ${#packages[@]} test binaries in $((SECONDS - start))s"

# fuzz_one fuzzes $name of $pkg into $log and prints its last progress line.
# A slow target's counter can stand still for many seconds while a worker
# minimizes a new input (up to -fuzzminimizetime); that is not a hang.
fuzz_one() {
  if (cd "$dir" && "$(binary "$pkg")" -test.paniconexit0 -test.timeout=10m -test.run='^$' -test.fuzz="^${name}\$" \
    -test.fuzztime="$fuzztime" -test.fuzzcachedir="$fuzzcache/$pkg") >"$log" 2>&1; then
    { grep -E '^fuzz: elapsed' "$log" | tail -n 1; grep -E '^(ok|PASS)' "$log"; } || true
    return 0
  fi
  return 1
}
for t in "${targets[@]}"; do
  read -r pkg name dir <<<"$t"
  printf -- '-- %s %s\n' "$name" "${pkg#github.com/drakit/drakit/}"
  if fuzz_one; then
    continue
  fi
  # Go before 1.27 can fail a target with a bare "context deadline
  # exceeded" when -fuzztime ends (golang/go#75804: the coordinator
  # compares its deadline's error with a child context not yet
  # cancelled). No input failed then, and none was written; the target
  # runs once more, and a second failure counts.
  if grep -qx '    context deadline exceeded' "$log" && ! grep -q 'Failing input written' "$log"; then
    echo "   (go's fuzzing coordinator stopped with \"context deadline exceeded\" and no failing input, golang/go#75804; running $name once more)"
    if fuzz_one; then
      continue
    fi
  fi
  cat "$log"
  # "Failing input written to testdata/fuzz/FuzzXxx/<hash>", relative to
  # the package directory.
  entry="$(sed -nE 's/.*Failing input written to (testdata\/fuzz\/[^ ]*).*/\1/p' "$log" | head -n 1)"
  if [ -n "$entry" ]; then
    failed+=("$name ($pkg): new corpus entry ${dir#"$PWD"/}/$entry")
  else
    failed+=("$name ($pkg): failed without a corpus entry (build error or seed failure; see above)")
  fi
done

echo
echo "hack/fuzz.sh: ${#targets[@]} targets in $((SECONDS - start))s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED:" >&2
  printf '  %s\n' "${failed[@]}" >&2
  echo "Reproduce with: go test -run '<Target>/<entry name>' <package>; keep the entry with the fix." >&2
  exit 1
fi
