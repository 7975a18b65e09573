#!/usr/bin/env bash
# Usage: go test -c -o /tmp/insurance-bench.test . && scripts/bench-interleaved.sh out.txt 15
# Interleaved rounds: each round runs every benchmark once for the SDK and once for the
# hand-written client, alternating which goes first, so drift hits both alike.
set -u
out=${1:-bench-interleaved.txt}; rounds=${2:-15}
: > "$out"
for r in $(seq 1 "$rounds"); do
  for b in QuoteTravel PurchaseTuition ListProducts ClientOverhead; do
    for mode in serial parallel; do
      [ "$b" = ClientOverhead ] && [ "$mode" = parallel ] && continue
      order="sdk hand"; [ $((r % 2)) -eq 0 ] && order="hand sdk"
      for impl in $order; do
        pattern="^Benchmark${b}\$/^${impl}\$/^${mode}\$"
        [ "$b" = ClientOverhead ] && pattern="^Benchmark${b}\$/^${impl}\$"
        "${BENCH_BIN:-/tmp/insurance-bench.test}" -test.run '^$' -test.bench "$pattern" -test.benchmem -test.benchtime 4000x | grep '^Benchmark' >> "$out"
      done
    done
  done
done
