package insurance_test

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/pipeline"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// The TLS benchmarks price the protocol choice of issue 19: quotes ride HTTP/2 over
// TLS, purchases an HTTP/1.1-only pool. docs/performance.md has the figures and the
// commands.

// tlsCounts are what tlsBenchServer counts: the TLS handshakes that completed
// (connections a client opened and used), the requests, and those that came over HTTP/2.
type tlsCounts struct{ handshakes, requests, overH2 atomic.Int64 }

func (c *tlsCounts) h2Share() float64 {
	return float64(c.overH2.Load()) / float64(max(1, c.requests.Load()))
}

// tlsBenchServer answers the travel quote and the tuition purchase as benchServer does,
// and the small product list of BenchmarkPaired (productsBody(200)), over TLS with
// HTTP/2 enabled, counting.
func tlsBenchServer(b *testing.B) (*httptest.Server, *tlsCounts) {
	b.Helper()
	n := new(tlsCounts)
	answers := map[string][]byte{
		"/v1/quote/travel":     []byte(benchQuoteBody),
		"/v1/purchase/tuition": []byte(benchPolicyBody),
		"/v1/products":         productsBody(200),
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		n.requests.Add(1)
		if r.ProtoMajor == 2 {
			n.overH2.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.WriteHeader(http.StatusCreated)
		}
		_, _ = w.Write(answers[r.URL.Path])
	}))
	srv.EnableHTTP2 = true
	srv.TLS = &tls.Config{VerifyConnection: func(tls.ConnectionState) error {
		n.handshakes.Add(1)
		return nil
	}}
	srv.StartTLS()
	b.Cleanup(srv.Close)
	return srv, n
}

// tlsPair is a new SDK client on its default transport (told only to trust srv) and a
// new hand-written client with HTTP/2 on, as in BenchmarkQuoteTravelTLS, both sending
// to url (srv's, or a proxy's in front of it), and the calls each makes.
type tlsPair struct {
	sdk  *insurance.Client
	hand *handWritten
	// calls by name ("QuoteTravel", "PurchaseTuition", "ListProducts"): [0] the SDK's,
	// [1] the hand-written one's.
	calls map[string][2]func(context.Context) error
}

func newTLSPair(b *testing.B, srv *httptest.Server, url string) *tlsPair {
	b.Helper()
	transport := pipeline.NewTransport()
	transport.TLSClientConfig = trusting(srv)
	c, err := insurance.NewClient(url, insurance.WithCredentials(wiretest.ClientID, wiretest.ClientSecret),
		insurance.WithHTTPClient(&http.Client{Transport: transport}))
	if err != nil {
		b.Fatal(err)
	}
	h := newHandWritten(url)
	ht := h.hc.Transport.(*http.Transport)
	ht.TLSClientConfig = trusting(srv)
	ht.ForceAttemptHTTP2 = true
	quote, purchase := wiretest.FullTravelQuote(), wiretest.FullTuitionPurchase()
	return &tlsPair{sdk: c, hand: h, calls: map[string][2]func(context.Context) error{
		"QuoteTravel": {
			func(ctx context.Context) error { _, err := c.QuoteTravel(ctx, quote); return err },
			func(ctx context.Context) error {
				var q handQuote
				return h.do(ctx, http.MethodPost, "/v1/quote/travel", quote, &q)
			}},
		"PurchaseTuition": {
			func(ctx context.Context) error { _, err := c.PurchaseTuition(ctx, purchase); return err },
			func(ctx context.Context) error {
				var p handPolicy
				return h.do(ctx, http.MethodPost, "/v1/purchase/tuition", purchase, &p)
			}},
		"ListProducts": {
			func(ctx context.Context) error { _, err := c.ListProducts(ctx); return err },
			func(ctx context.Context) error {
				var l handProducts
				return h.do(ctx, http.MethodGet, "/v1/products", nil, &l)
			}},
	}}
}

func (p *tlsPair) close() {
	p.sdk.CloseIdleConnections()
	p.hand.hc.CloseIdleConnections()
}

// BenchmarkPairedTLS is BenchmarkPaired over TLS, warm: one SDK and one hand-written
// client, their calls alternating call by call (order flipping every iteration).
// "parallel" first fills both clients' pools from 64 goroutines, untimed. Besides the
// mean times and their ratio it reports the TLS handshakes the server completed during
// the sub-benchmark, warm-up included (handshakes), and the share of requests that came
// over HTTP/2 (h2-share, both clients together).
func BenchmarkPairedTLS(b *testing.B) {
	for _, name := range []string{"QuoteTravel", "PurchaseTuition", "ListProducts"} {
		for _, mode := range []string{"serial", "parallel"} {
			b.Run(name+"/"+mode, func(b *testing.B) {
				srv, n := tlsBenchServer(b)
				timeTLSPair(b, newTLSPair(b, srv, srv.URL), n, name, mode)
			})
		}
	}
}

// timeTLSPair is one sub-benchmark of BenchmarkPairedTLS: p's calls named name, in
// mode ("serial" or "parallel"), against the server counting n. It closes p.
func timeTLSPair(b *testing.B, p *tlsPair, n *tlsCounts, name, mode string) {
	defer p.close()
	sdkCall, handCall := p.calls[name][0], p.calls[name][1]
	// one call each, untimed: both pay their first handshake before the clock
	for _, call := range []func(context.Context) error{sdkCall, handCall} {
		if err := call(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	var sdk, hand atomic.Int64
	if mode == "serial" {
		var s, h time.Duration
		for i := 0; b.Loop(); i++ {
			if err := tlsPairOnce(i, sdkCall, handCall, &s, &h); err != nil {
				b.Fatal(err)
			}
		}
		sdk.Store(int64(s))
		hand.Store(int64(h))
	} else {
		var wg sync.WaitGroup
		for range 64 {
			wg.Go(func() {
				for _, call := range []func(context.Context) error{sdkCall, handCall} {
					if err := call(context.Background()); err != nil {
						b.Error(err)
					}
				}
			})
		}
		wg.Wait()
		b.ResetTimer()
		b.SetParallelism(64 / max(1, runtimeGOMAXPROCS()))
		b.RunParallel(func(pb *testing.PB) {
			var s, h time.Duration
			for i := 0; pb.Next(); i++ {
				if err := tlsPairOnce(i, sdkCall, handCall, &s, &h); err != nil {
					b.Error(err)
					return
				}
			}
			sdk.Add(int64(s))
			hand.Add(int64(h))
		})
	}
	b.ReportMetric(float64(sdk.Load())/float64(b.N), "sdk-ns/op")
	b.ReportMetric(float64(hand.Load())/float64(b.N), "hand-ns/op")
	b.ReportMetric(float64(sdk.Load())/float64(hand.Load()), "sdk/hand")
	b.ReportMetric(float64(n.handshakes.Load()), "handshakes")
	b.ReportMetric(n.h2Share(), "h2-share")
}

// tlsPairOnce makes iteration i's two calls, the SDK's first on even i, adding each
// one's time to its total.
func tlsPairOnce(i int, sdkCall, handCall func(context.Context) error, sdk, hand *time.Duration) error {
	first, second, firstTotal, secondTotal := sdkCall, handCall, sdk, hand
	if i%2 == 1 {
		first, second, firstTotal, secondTotal = handCall, sdkCall, hand, sdk
	}
	for _, c := range []struct {
		call  func(context.Context) error
		total *time.Duration
	}{{first, firstTotal}, {second, secondTotal}} {
		start := time.Now()
		if err := c.call(context.Background()); err != nil {
			return err
		}
		*c.total += time.Since(start)
	}
	return nil
}

// BenchmarkColdBurstTLS is the cold cost: per iteration, a new client (the SDK's or
// the hand-written one) on the same TLS server, then its idle connections closed;
// "1x1": one call, the cost of a first call on a new connection; "64x10": 64
// goroutines making 10 calls each from the client's first call. ns/op is one burst,
// handshakes/op the TLS connections it opened, h2-share the share of the requests
// that came over HTTP/2.
func BenchmarkColdBurstTLS(b *testing.B) {
	for _, name := range []string{"QuoteTravel", "PurchaseTuition"} {
		for _, burst := range []struct {
			name              string
			goroutines, calls int
		}{{"1x1", 1, 1}, {"64x10", 64, 10}} {
			for impl, implName := range []string{"sdk", "hand"} {
				b.Run(name+"/"+burst.name+"/"+implName, func(b *testing.B) {
					coldBurst(b, name, impl, burst.goroutines, burst.calls)
				})
			}
		}
	}
}

func coldBurst(b *testing.B, name string, impl, goroutines, calls int) {
	srv, n := tlsBenchServer(b)
	b.ReportAllocs()
	for b.Loop() {
		p := newTLSPair(b, srv, srv.URL)
		call := p.calls[name][impl]
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range goroutines {
			wg.Go(func() {
				<-start
				for range calls {
					if err := call(context.Background()); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		close(start)
		wg.Wait()
		p.close()
	}
	b.ReportMetric(float64(n.handshakes.Load())/float64(b.N), "handshakes/op")
	b.ReportMetric(n.h2Share(), "h2-share")
}
