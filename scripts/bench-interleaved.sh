#!/usr/bin/env bash
# Usage: go test -c -o /tmp/insurance-bench.test . && scripts/bench-interleaved.sh out.txt 15 [filter]
# Interleaved rounds: each round runs every benchmark once for the SDK and once for the
# hand-written client, alternating which goes first, so drift hits both alike. Then it
# prints, per benchmark, the median and range of the per-round SDK/hand time ratios and
# the medians of ns/op, allocs/op and B/op (scripts/bench-summary.awk).
# filter, optional: an extended regexp; only the benchmarks it matches are run.
# FIRST_ROUND (default 1) numbers the rounds, for runs split across invocations.
set -u
out=${1:-bench-interleaved.txt}; rounds=${2:-15}; filter=${3:-.}
bin=${BENCH_BIN:-/tmp/insurance-bench.test}
# benchmark path with IMPL standing for sdk or hand, and iterations per run
benchmarks="
QuoteTravel/IMPL/serial 4000
QuoteTravel/IMPL/parallel 4000
PurchaseTuition/IMPL/serial 4000
PurchaseTuition/IMPL/parallel 4000
ListProducts/IMPL/serial 4000
ListProducts/IMPL/parallel 4000
ClientOverhead/IMPL 20000
ProductsBody/200B/length/IMPL 4000
ProductsBody/200B/chunked/IMPL 4000
ProductsBody/10KB/length/IMPL 2000
ProductsBody/10KB/chunked/IMPL 2000
ProductsBody/1MB/length/IMPL 60
ProductsBody/1MB/chunked/IMPL 60
QuoteTravelTLS/IMPL 4000
ColdBurstTLS/QuoteTravel/1x1/IMPL 200
ColdBurstTLS/QuoteTravel/64x10/IMPL 20
ColdBurstTLS/PurchaseTuition/1x1/IMPL 200
ColdBurstTLS/PurchaseTuition/64x10/IMPL 20
"
: > "$out"
first=${FIRST_ROUND:-1}
for r in $(seq "$first" $((first + rounds - 1))); do
  echo "$benchmarks" | grep -E -- "$filter" | while read -r path n; do
    [ -z "$path" ] && continue
    order="sdk hand"; [ $((r % 2)) -eq 0 ] && order="hand sdk"
    for impl in $order; do
      pattern="^Benchmark${path/IMPL/$impl}\$"
      pattern=${pattern//\//\$\/^}
      "$bin" -test.run '^$' -test.bench "$pattern" -test.benchmem -test.benchtime "${n}x" | grep '^Benchmark' >> "$out"
    done
  done
done
awk -f "$(dirname "$0")/bench-summary.awk" "$out"
