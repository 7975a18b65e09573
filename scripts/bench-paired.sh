#!/usr/bin/env bash
# Usage: go test -c -o /tmp/insurance-bench.test . && scripts/bench-paired.sh out.txt 10
# Runs BenchmarkPaired (the SDK and the hand-written client timed call by call in turn)
# count times and prints the median and range of the sdk/hand ratios.
set -u
out=${1:-bench-paired.txt}; count=${2:-10}
bin=${BENCH_BIN:-/tmp/insurance-bench.test}
: > "$out"
for r in $(seq 1 "$count"); do
  "$bin" -test.run '^$' -test.bench '^BenchmarkPaired$/^(QuoteTravel|PurchaseTuition)$' -test.benchtime 2000x | grep '^Benchmark' >> "$out"
  "$bin" -test.run '^$' -test.bench '^BenchmarkPaired$/^ListProducts$/^(200B|10KB)$' -test.benchtime 1000x | grep '^Benchmark' >> "$out"
  "$bin" -test.run '^$' -test.bench '^BenchmarkPaired$/^ListProducts$/^1MB$' -test.benchtime 40x | grep '^Benchmark' >> "$out"
done
awk -f "$(dirname "$0")/bench-summary.awk" "$out"
