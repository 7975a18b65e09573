# Summarises go test -bench lines of interleaved SDK/hand runs (bench-interleaved.sh):
# per benchmark, the median and range of the per-round SDK/hand time ratios, and the
# medians of ns/op, allocs/op and B/op (and conns, the connections a server accepted,
# or handshakes/op, the TLS connections a cold burst opened).
function median(a, n,    i, j, t, b) {
  for (i = 1; i <= n; i++) b[i] = a[i]
  for (i = 2; i <= n; i++) for (j = i; j > 1 && b[j-1] > b[j]; j--) { t = b[j]; b[j] = b[j-1]; b[j-1] = t }
  return n % 2 ? b[(n+1)/2] : (b[n/2] + b[n/2+1]) / 2
}
function minmax(a, n,    i) {
  lo = a[1]; hi = a[1]
  for (i = 2; i <= n; i++) { if (a[i] < lo) lo = a[i]; if (a[i] > hi) hi = a[i] }
}
# -v against=1 with two files of BenchmarkPaired lines from the same interleaved rounds
# (bench-builds.sh): per benchmark, round by round, the second file's SDK ns/call over
# the first's, and its sdk/hand over the first's; median and range.
against && /^BenchmarkPaired/ {
  name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
  f = (FNR == NR) ? 1 : 2
  if (f == 1 && !(name in aseen)) { aseen[name] = 1; akeys[++nakeys] = name }
  k = ++acount[f, name]
  for (i = 3; i < NF; i += 2) {
    if ($(i+1) == "sdk/hand") ar[f, name, k] = $i
    if ($(i+1) == "sdk-ns/op") as[f, name, k] = $i
  }
  next
}
# BenchmarkPaired lines carry sdk-ns/op, hand-ns/op and sdk/hand themselves; other
# paired benchmarks a ratio A/B with A-ns/op and B-ns/op (BenchmarkPairedAttemptBound:
# bound/none).
/^BenchmarkPaired/ {
  name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
  if (!(name in pseen)) { pseen[name] = 1; pkeys[++npkeys] = name }
  k = ++pcount[name]
  a = "sdk"; b = "hand"
  for (i = 3; i < NF; i += 2) if ($(i+1) ~ /^[a-z]+\/[a-z]+$/ && $(i+1) !~ /\/op$/) { a = $(i+1); sub(/\/.*/, "", a); b = $(i+1); sub(/.*\//, "", b) }
  for (i = 3; i < NF; i += 2) {
    if ($(i+1) == a "/" b) pr[name, k] = $i
    if ($(i+1) == a "-ns/op") ps[name, k] = $i
    if ($(i+1) == b "-ns/op") ph[name, k] = $i
  }
  next
}
/^Benchmark/ {
  name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
  impl = ""
  if (name ~ /\/sdk(\/|$)/) impl = "sdk"; else if (name ~ /\/hand(\/|$)/) impl = "hand"; else next
  key = name; sub("/" impl, "/IMPL", key)
  if (!(key in seen)) { seen[key] = 1; keys[++nkeys] = key }
  k = ++count[key, impl]
  for (i = 3; i < NF; i += 2) {
    if ($(i+1) == "ns/op") ns[key, impl, k] = $i
    if ($(i+1) == "allocs/op") al[key, impl, k] = $i
    if ($(i+1) == "B/op") by[key, impl, k] = $i
    if ($(i+1) == "conns" || $(i+1) == "handshakes/op") cn[key, impl, k] = $i
  }
}
END {
  if (against) {
    printf "%-40s %6s %-24s %-24s\n", "paired benchmark", "rounds", "sdk ns ratio med (min-max)", "sdk/hand ratio med (min-max)"
    for (q = 1; q <= nakeys; q++) {
      name = akeys[q]; n = acount[1, name]; if (acount[2, name] < n) n = acount[2, name]
      if (n == 0) continue
      delete r; delete t
      for (k = 1; k <= n; k++) { r[k] = as[2, name, k] / as[1, name, k]; t[k] = ar[2, name, k] / ar[1, name, k] }
      minmax(r, n); line = sprintf("%5.3f (%5.3f-%5.3f)", median(r, n), lo, hi)
      minmax(t, n)
      printf "%-40s %6d %-24s   %5.3f (%5.3f-%5.3f)\n", name, n, line, median(t, n), lo, hi
    }
  }
}
END {
  if (nkeys > 0) printf "%-32s %6s %-22s %10s %10s %8s %8s %6s %10s %10s %6s %s\n", "benchmark", "rounds", "time ratio med (min-max)", "sdk ns", "hand ns", "sdk al", "hand al", "al x", "sdk B", "hand B", "B x", "conns sdk/hand"
  for (q = 1; q <= nkeys; q++) {
    key = keys[q]; n = count[key, "sdk"]; if (count[key, "hand"] < n) n = count[key, "hand"]
    if (n == 0) continue
    hasconns = ((key, "sdk", 1) in cn)
    delete r; delete s; delete h; delete sa; delete ha; delete sb; delete hb; delete sc; delete hc
    for (k = 1; k <= n; k++) {
      r[k] = ns[key, "sdk", k] / ns[key, "hand", k]
      s[k] = ns[key, "sdk", k]; h[k] = ns[key, "hand", k]
      sa[k] = al[key, "sdk", k]; ha[k] = al[key, "hand", k]
      sb[k] = by[key, "sdk", k]; hb[k] = by[key, "hand", k]
      if (hasconns) { sc[k] = cn[key, "sdk", k]; hc[k] = cn[key, "hand", k] }
    }
    minmax(r, n)
    conns = ""
    if (hasconns) { minmax(sc, n); c1 = lo "-" hi; minmax(hc, n); conns = c1 " / " lo "-" hi; minmax(r, n) }
    printf "%-32s %6d %5.3f (%5.3f-%5.3f)    %10.0f %10.0f %8.0f %8.0f %6.3f %10.0f %10.0f %6.3f %s\n", key, n, median(r, n), lo, hi,
      median(s, n), median(h, n), median(sa, n), median(ha, n), median(sa, n) / median(ha, n),
      median(sb, n), median(hb, n), median(sb, n) / median(hb, n), conns
  }
}
END {
  if (npkeys == 0) exit
  printf "\n%-40s %6s %-22s %12s %12s\n", "paired benchmark", "runs", "ratio med (min-max)", "sdk|A ns/call", "hand|B ns/call"
  for (q = 1; q <= npkeys; q++) {
    name = pkeys[q]; n = pcount[name]
    delete r; delete s; delete h
    for (k = 1; k <= n; k++) { r[k] = pr[name, k]; s[k] = ps[name, k]; h[k] = ph[name, k] }
    minmax(r, n)
    printf "%-40s %6d %5.3f (%5.3f-%5.3f)    %12.0f %12.0f\n", name, n, median(r, n), lo, hi, median(s, n), median(h, n)
  }
}
