#!/usr/bin/env bash
# Usage: bench/run.sh [rounds]    (default 15; from any directory; about 2 minutes)
#
# Compares the SDK with a hand-written net/http client, go-retryablehttp and resty
# (docs/performance.md, "Against other client libraries") and
# prints the Markdown tables. It is the source of truth for those figures.
#
# Interleaved rounds: each round runs BenchmarkPeers/<impl>/<mode> once for every
# implementation and mode, each in a process of its own, rotating which implementation
# goes first and alternating serial and parallel, so drift hits all alike. Then
# cmd/peerbench turns the rounds into per-round ratios against the hand-written client
# and measures the connections and the per-call latency of many goroutines.
#
# Environment: BENCHTIME (default 4000x, calls per benchmark run), ROUNDS_FILE (where
# the raw rounds go; default a new file under $TMPDIR).
set -euo pipefail
cd "$(dirname "$0")"
rounds=${1:-15}
benchtime=${BENCHTIME:-4000x}
work=$(mktemp -d)
out=${ROUNDS_FILE:-$work/peers-rounds.txt}

go test -c -o "$work/peers.test" .
go build -o "$work/peerbench" ./cmd/peerbench

load() { [ -r /proc/loadavg ] && cut -d' ' -f1-3 /proc/loadavg || echo unknown; }
load_start=$(load)

impls=(hand retryablehttp resty sdk)
: > "$out"
for r in $(seq 1 "$rounds"); do
  modes="serial parallel"; [ $((r % 2)) -eq 0 ] && modes="parallel serial"
  for mode in $modes; do
    for k in "${!impls[@]}"; do
      impl=${impls[$(((k + r) % ${#impls[@]}))]}
      "$work/peers.test" -test.run '^$' -test.bench "^BenchmarkPeers\$/^${impl}\$/^${mode}\$" \
        -test.benchmem -test.benchtime "$benchtime" | grep -E '^(Benchmark|cpu:)' | sed "s/^/$r /" >> "$out"
    done
  done
  echo "round $r of $rounds done" >&2
done
echo "rounds recorded in $out" >&2

"$work/peerbench" -rounds "$out"
echo "Load average (1, 5, 15 min) at the start: $load_start; at the end: $(load)."
