package insurance_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// BenchmarkPairedAttemptBound prices DefaultAttemptTimeout: the small product list
// from a Client with the default bound against one without (WithAttemptTimeout(0)),
// call by call in turn, over loopback HTTP/1.1 and over TLS with HTTP/2. It reports
// each side's mean time a call and their ratio (bound/none).
func BenchmarkPairedAttemptBound(b *testing.B) {
	for _, network := range []string{"loopback", "tls"} {
		url, transport := productsServer(b, productsBody(200), false).URL, insurance.NewTransport()
		if network == "tls" {
			srv, _ := tlsBenchServer(b)
			url, transport.TLSClientConfig = srv.URL, trusting(srv)
		}
		hc := &http.Client{Transport: transport}
		bound, none := benchClientWith(b, url, insurance.WithHTTPClient(hc)), benchClientWith(b, url, insurance.WithHTTPClient(hc), insurance.WithAttemptTimeout(0))
		b.Run(network, func(b *testing.B) {
			ctx := context.Background()
			var withBound, without time.Duration
			for i := 0; b.Loop(); i++ {
				for turn := range 2 { // the bounded client first on even i, second on odd ones
					c, total := none, &without
					if (i+turn)%2 == 0 {
						c, total = bound, &withBound
					}
					start := time.Now()
					if _, err := c.ListProducts(ctx); err != nil {
						b.Fatal(err)
					}
					*total += time.Since(start)
				}
			}
			b.ReportMetric(float64(withBound.Nanoseconds())/float64(b.N), "bound-ns/op")
			b.ReportMetric(float64(without.Nanoseconds())/float64(b.N), "none-ns/op")
			b.ReportMetric(float64(withBound)/float64(without), "bound/none")
		})
	}
}

// benchClientWith is benchClient with options.
func benchClientWith(b *testing.B, url string, opts ...insurance.Option) *insurance.Client {
	b.Helper()
	c, err := insurance.NewClient(url, append([]insurance.Option{wiretest.Credentials}, opts...)...)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkCallOptions prices options per call on the small product list over
// loopback: a call without options, the same call given WithHeader, and a call on
// c.With(WithHeader(...)) made for it, which is what a call's options amount to. Its
// allocations (-benchmem) are the figure; time it with -count and benchstat.
func BenchmarkCallOptions(b *testing.B) {
	c := benchClient(b, productsServer(b, productsBody(200), false).URL)
	header := insurance.WithHeader("X-Correlation-Id", "order-42")
	ctx := context.Background()
	for _, v := range []struct {
		name string
		call func() error
	}{
		{"none", func() error { _, err := c.ListProducts(ctx); return err }},
		{"per-call", func() error { _, err := c.ListProducts(ctx, header); return err }},
		{"with", func() error {
			derived, err := c.With(header)
			if err == nil {
				_, err = derived.ListProducts(ctx)
			}
			return err
		}},
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
