#!/usr/bin/env bash
# benchcmp.sh compares a package's benchmarks at a base commit with the
# working tree, side by side in one run, the way a "no slower" target is
# checked:
#
#   hack/benchcmp.sh [-base REV] [-pkg PKG] [-bench PATTERN] [-rounds N] [-benchtime T] [-instructions]
#
# Both test binaries are built first (the base in a temporary worktree), so
# that the rounds measure nothing but the benchmarks.
#
# Time (the default): N rounds (6), each running both binaries once with the
# runtime's default garbage collection and once with it off (GOGC=off,
# GOMEMLIMIT=3GiB: the CPU the code itself costs), compared with benchstat
# when it is installed (go install golang.org/x/perf/cmd/benchstat@latest).
# On a shared machine a row varies by 10% or more from run to run; keep the
# machine otherwise idle, and use more rounds for a single-digit target.
#
# -instructions: each row's instructions per operation, counted by
# valgrind's cachegrind (not part of the suite; apt-get install valgrind)
# as the difference between two runs of -benchtime Nx, so that start-up and
# the benchmark's set-up cancel out. A count does not vary with the load on
# the machine (about 1% between runs), so it shows a difference of a few
# percent that time on a shared machine cannot; it is not time (a cache
# miss costs more than an instruction), so read the two together.
#
# Defaults: -base HEAD~1, -pkg ./conversion, -bench 'Conversion/ResourceClaim/./(to|from)-hub/^convert$'.
set -euo pipefail
cd "$(dirname "$0")/.."

base=HEAD~1 pkg=./conversion rounds=6 benchtime=300ms instructions=false
bench='Conversion/ResourceClaim/./(to|from)-hub/^convert$'
while [ $# -gt 0 ]; do
	case $1 in
	-base) base=$2; shift 2 ;;
	-pkg) pkg=$2; shift 2 ;;
	-bench) bench=$2; shift 2 ;;
	-rounds) rounds=$2; shift 2 ;;
	-benchtime) benchtime=$2; shift 2 ;;
	-instructions) instructions=true; shift ;;
	*) echo "benchcmp.sh: unknown argument $1 (see the comment at the top of hack/benchcmp.sh)" >&2; exit 2 ;;
	esac
done
if $instructions && ! command -v valgrind >/dev/null; then
	echo "benchcmp.sh: -instructions needs valgrind (apt-get install valgrind)" >&2
	exit 2
fi

out=$(mktemp -d) # keeps the results; the binaries and the worktree go at the end
tree="$out/base-tree"
cleanup() { git worktree remove --force "$tree" >/dev/null 2>&1 || true; }
trap 'cleanup; rm -f "$out"/*.test' EXIT
git worktree add --quiet --detach "$tree" "$base"
(cd "$tree" && go test -c -o "$out/base.test" "$pkg")
go test -c -o "$out/new.test" "$pkg"
cleanup
echo "benchcmp.sh: $base against the working tree, in $out" >&2

if ! $instructions; then
	for i in $(seq "$rounds"); do
		for b in base new; do
			"$out/$b.test" -test.run '^$' -test.bench "$bench" -test.benchmem -test.benchtime "$benchtime" >>"$out/$b.gc.txt"
			GOGC=off GOMEMLIMIT=3GiB "$out/$b.test" -test.run '^$' -test.bench "$bench" -test.benchmem -test.benchtime "$benchtime" >>"$out/$b.nogc.txt"
		done
		echo "benchcmp.sh: round $i of $rounds done" >&2
	done
	if command -v benchstat >/dev/null; then
		for gc in nogc gc; do
			echo "== $gc"
			(cd "$out" && benchstat "base=base.$gc.txt" "new=new.$gc.txt")
		done
	else
		echo "benchcmp.sh: benchstat is not installed; the results are in $out/*.txt" >&2
	fi
	exit 0
fi

# instructions runs a binary's row (an anchored pattern) N times
# (-benchtime Nx, the third argument) under cachegrind and prints the
# instructions the process ran.
instructions() {
	GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 GOGC=off valgrind --tool=cachegrind --cache-sim=no \
		--cachegrind-out-file=/dev/null "$1" -test.run '^$' -test.bench "$2" -test.benchtime "${3}x" 2>&1 |
		awk '/I +refs:/ { gsub(",", "", $NF); print $NF }'
}

# ops is how many operations of a row come to about 10^8 instructions,
# by a first count in the base binary.
ops() {
	local one
	one=$(( ($(instructions "$1" "$2" 1100) - $(instructions "$1" "$2" 100)) / 1000 ))
	echo $(( 100000000 / (one > 0 ? one : 1) + 1000 ))
}

# per_op is a binary's instructions per operation of a row: n operations
# less 1000.
per_op() {
	awk -v a="$(instructions "$1" "$2" 1000)" -v b="$(instructions "$1" "$2" "$3")" -v n="$3" 'BEGIN { printf "%.1f", (b - a) / (n - 1000) }'
}

# The rows: the names the pattern selects, each to be made an anchored
# pattern; a row the base has not is shown without a count.
list_rows() {
	"$1" -test.run '^$' -test.bench "$bench" -test.benchtime 1x |
		awk '/^Benchmark/ { sub(/-[0-9]+$/, "", $1); print $1 }'
}
mapfile -t rows < <(list_rows "$out/new.test")
base_rows=" $(list_rows "$out/base.test" | tr '\n' ' ')"
printf '%-70s %12s %12s %8s\n' row base new change
for row in "${rows[@]}"; do
	if [[ $base_rows != *" $row "* ]]; then
		printf '%-70s %12s\n' "$row" "(not in base)"
		continue
	fi
	pattern=$(awk -v r="$row" 'BEGIN { n = split(r, p, "/"); for (i = 1; i <= n; i++) { gsub(/[][.+*?()|{}^$\\]/, "\\\\&", p[i]); printf "%s^%s$", (i > 1 ? "/" : ""), p[i] } }')
	if ! "$out/new.test" -test.run '^$' -test.bench "$pattern" -test.benchtime 1x | grep -F "$row" >/dev/null; then
		echo "benchcmp.sh: the pattern $pattern made of $row runs no benchmark" >&2
		exit 1
	fi
	count=$(ops "$out/base.test" "$pattern")
	b=$(per_op "$out/base.test" "$pattern" "$count")
	n=$(per_op "$out/new.test" "$pattern" "$count")
	awk -v row="$row" -v b="$b" -v n="$n" 'BEGIN { printf "%-70s %12s %12s %+7.2f%%\n", row, b, n, 100 * (n - b) / b }'
done
