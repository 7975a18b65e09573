#!/usr/bin/env bash
# Usage: scripts/bench-builds.sh OUTDIR ROUNDS NAME=BINARY[:BENCHMARK] ...
#   e.g. git worktree add /tmp/old 76d3eed && (cd /tmp/old && go test -c -o /tmp/old.test .)
#        scripts/bench-builds.sh /tmp/builds 10 before=/tmp/old.test after=/tmp/new.test
# Compares builds (test binaries of the root package, each from its own commit) in
# interleaved rounds: each round runs every build's BenchmarkPaired travel quote and
# tuition purchase (serial and 64 goroutines, 2000 pairs) and 200 B product list (with
# a length and chunked, 3000 pairs), rotating which build goes first, so drift hits
# all alike. BENCHMARK (default BenchmarkPaired) names a benchmark of the same shape
# under another name; its lines are recorded as BenchmarkPaired's. It writes
# OUTDIR/NAME.txt and prints each build's summary (scripts/bench-summary.awk): the
# median and range of sdk/hand over the rounds, and the medians of each side's ns/call;
# then each later build against the first, round by round: the median and range of
# the ratio of their SDK ns/call, and of their sdk/hand ratios.
set -u
outdir=$1; rounds=$2; shift 2
builds=("$@")
mkdir -p "$outdir"
for b in "${builds[@]}"; do : > "$outdir/${b%%=*}.txt"; done
for r in $(seq 1 "$rounds"); do
  for k in "${!builds[@]}"; do
    b=${builds[$(((k + r) % ${#builds[@]}))]}
    name=${b%%=*}; spec=${b#*=}; bin=${spec%%:*}; bench=BenchmarkPaired
    [ "$spec" != "$bin" ] && bench=${spec#*:}
    for run in "^(QuoteTravel|PurchaseTuition)\$ 2000" "^ListProducts\$/^200B\$ 3000"; do
      set -- $run
      "$bin" -test.run '^$' -test.bench "^$bench\$/$1" -test.benchtime "${2}x" |
        grep '^Benchmark' | sed "s/^$bench\\//BenchmarkPaired\\//" >> "$outdir/$name.txt"
    done
  done
  echo "round $r of $rounds done" >&2
done
for b in "${builds[@]}"; do
  echo "== ${b%%=*}"
  awk -f "$(dirname "$0")/bench-summary.awk" "$outdir/${b%%=*}.txt"
done
first=${builds[0]%%=*}
for b in "${builds[@]:1}"; do
  echo "== ${b%%=*} against $first, per round: sdk ns/call ratio, sdk/hand ratio"
  awk -f "$(dirname "$0")/bench-summary.awk" -v against=1 "$outdir/$first.txt" "$outdir/${b%%=*}.txt"
done
