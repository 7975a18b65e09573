#!/usr/bin/env bash
# Usage: scripts/bench-variants.sh TREE OUT
#   e.g. git worktree add /tmp/variants HEAD && scripts/bench-variants.sh /tmp/variants /tmp/variants.test
# Builds the root test binary of TREE (a scratch worktree: a file is written into it
# and removed after the build) with benchmarks that price variants no shipped client
# is built with, for docs/performance.md:
#   BenchmarkPairedNoBound            BenchmarkPaired with the SDK's clients given
#                                     WithAttemptTimeout(0) (no attempt bound)
#   BenchmarkNoBoundAllocs            the same calls' serial SDK side, for -benchmem
#   BenchmarkPairedBoundVsClientTimeout  the default bound (a per-attempt context
#                                     deadline) against the same 60 s as
#                                     http.Client.Timeout, the small list, loopback and TLS
#   BenchmarkPairedAttemptBoundAtRTT  BenchmarkPairedAttemptBound's TLS pair behind
#                                     delayingProxy, at a 20 ms round trip
#   BenchmarkPairedPurchaseAtRTT      BenchmarkPairedTLSAtRTT's pair for the tuition purchase
set -eu
tree=$1; out=$2
file=$tree/zz_variants_test.go
trap 'rm -f "$file"' EXIT
{
  cat <<'EOF'
package insurance_test

// Written by scripts/bench-variants.sh; never committed.

import (
	"context"
	"net/http"
	"strings"
	"sync"        // BenchmarkPaired's copy below uses it
	"sync/atomic" // and this
	"testing"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

func noBoundClient(b *testing.B, url string) *insurance.Client {
	return benchClientWith(b, url, insurance.WithAttemptTimeout(0))
}

func BenchmarkNoBoundAllocs(b *testing.B) {
	c := noBoundClient(b, benchServer(b).URL)
	quote, purchase := wiretest.FullTravelQuote(), wiretest.FullTuitionPurchase()
	lc := noBoundClient(b, productsServer(b, productsBody(200), false).URL)
	cc := noBoundClient(b, productsServer(b, productsBody(200), true).URL)
	ctx := context.Background()
	for _, v := range []struct {
		name string
		call func() error
	}{
		{"QuoteTravel", func() error { _, err := c.QuoteTravel(ctx, quote); return err }},
		{"PurchaseTuition", func() error { _, err := c.PurchaseTuition(ctx, purchase); return err }},
		{"200B/length", func() error { _, err := lc.ListProducts(ctx); return err }},
		{"200B/chunked", func() error { _, err := cc.ListProducts(ctx); return err }},
	} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := v.call(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// pairLists times the small list from a and b call by call in turn (a first on even
// iterations) and reports each one's mean time a call and their ratio, as aName/bName.
func pairLists(b *testing.B, a, other *insurance.Client, aName, bName string) {
	var aTotal, bTotal time.Duration
	for i := 0; b.Loop(); i++ {
		for turn := range 2 {
			c, total := other, &bTotal
			if (i+turn)%2 == 0 {
				c, total = a, &aTotal
			}
			start := time.Now()
			if _, err := c.ListProducts(context.Background()); err != nil {
				b.Fatal(err)
			}
			*total += time.Since(start)
		}
	}
	b.ReportMetric(float64(aTotal.Nanoseconds())/float64(b.N), aName+"-ns/op")
	b.ReportMetric(float64(bTotal.Nanoseconds())/float64(b.N), bName+"-ns/op")
	b.ReportMetric(float64(aTotal)/float64(bTotal), aName+"/"+bName)
}

func BenchmarkPairedBoundVsClientTimeout(b *testing.B) {
	for _, network := range []string{"loopback", "tls"} {
		url, transport := productsServer(b, productsBody(200), false).URL, insurance.NewTransport()
		if network == "tls" {
			srv, _ := tlsBenchServer(b)
			url, transport.TLSClientConfig = srv.URL, trusting(srv)
		}
		bound := benchClientWith(b, url, insurance.WithHTTPClient(&http.Client{Transport: transport}))
		timeout := benchClientWith(b, url, insurance.WithHTTPClient(&http.Client{Transport: transport, Timeout: 60 * time.Second}))
		b.Run(network, func(b *testing.B) { pairLists(b, bound, timeout, "bound", "timeout") })
	}
}

func BenchmarkPairedAttemptBoundAtRTT(b *testing.B) {
	srv, _ := tlsBenchServer(b)
	url, transport := "https://"+delayingProxy(b, strings.TrimPrefix(srv.URL, "https://"), 20*time.Millisecond), insurance.NewTransport()
	transport.TLSClientConfig = trusting(srv)
	hc := &http.Client{Transport: transport}
	bound, none := benchClientWith(b, url, insurance.WithHTTPClient(hc)), benchClientWith(b, url, insurance.WithHTTPClient(hc), insurance.WithAttemptTimeout(0))
	for _, c := range []*insurance.Client{bound, none} { // the handshake, untimed
		if _, err := c.ListProducts(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("tls/20ms", func(b *testing.B) { pairLists(b, bound, none, "bound", "none") })
}

func BenchmarkPairedPurchaseAtRTT(b *testing.B) {
	for _, rtt := range []time.Duration{2 * time.Millisecond, 20 * time.Millisecond} {
		b.Run(rtt.String(), func(b *testing.B) {
			srv, n := tlsBenchServer(b)
			proxy := delayingProxy(b, strings.TrimPrefix(srv.URL, "https://"), rtt)
			timeTLSPair(b, newTLSPair(b, srv, "https://"+proxy), n, "PurchaseTuition", "serial")
		})
	}
}
EOF
  sed -n '/^func BenchmarkPaired(/,/^}/p' "$tree/bench_paired_test.go" |
    sed -e 's/^func BenchmarkPaired(/func BenchmarkPairedNoBound(/' -e 's/benchClient(b, srv.URL)/noBoundClient(b, srv.URL)/g'
} > "$file"
(cd "$tree" && go test -c -o "$out" .)
