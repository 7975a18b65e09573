package insurance_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/pipeline"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// The benchmarks compare each SDK call with a careful hand-written net/http +
// encoding/json call doing the same request against the same loopback server, in the
// same run. docs/performance.md has the figures and the commands.

const benchQuoteBody = `{"quote_id":"q_5f2a9c0d1e7b3a44","product":"travel","status":"QUOTED","premium":128.75,"currency":"USD","customer_email_address":"ada@example.com","policy_attributes":{"trip_cost":2500.5,"trip_start_date":"2027-03-01","trip_end_date":"2027-03-15","coverage_type":"BASIC"},"created_at":"2026-11-21T04:41:18.373614249Z","updated_at":"2026-11-21T04:41:18.373614249Z"}`

const benchPolicyBody = `{"policy_id":"pol_7b4ab7c99b928c43","quote_id":"q_tu_1","product":"tuition","status":"ACTIVE","premium":120,"currency":"USD","customer_email_address":"ada@example.com","created_at":"2026-11-21T04:41:18.373614249Z"}`

const benchProductsBody = `{"products":[{"id":"gap-medical","name":"Gap medical","quote_path":"/v1/quote/gap-medical","purchase_path":"/v1/purchase/gap-medical"},{"id":"travel","name":"Travel","quote_path":"/v1/quote/travel"},{"id":"tuition","name":"Tuition","purchase_path":"/v1/purchase/tuition"}]}`

func benchServer(b *testing.B) *httptest.Server {
	b.Helper()
	answers := map[string]struct {
		status int
		body   []byte
	}{
		"/v1/quote/travel":     {201, []byte(benchQuoteBody)},
		"/v1/purchase/tuition": {201, []byte(benchPolicyBody)},
		"/v1/products":         {200, []byte(benchProductsBody)},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		a := answers[r.URL.Path]
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(a.status)
		_, _ = w.Write(a.body)
	}))
	b.Cleanup(srv.Close)
	return srv
}

// handWritten is the baseline: what a careful engineer writes with net/http alone.
type handWritten struct {
	base string
	hc   *http.Client
}

func newHandWritten(base string) *handWritten {
	return &handWritten{base: base, hc: &http.Client{Transport: &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: 64,
		MaxConnsPerHost:     64,
		IdleConnTimeout:     90 * time.Second,
	}}}
}

func (h *handWritten) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, h.base+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return h.send(req, out)
}

// send sets the headers every request carries, sends req and decodes a 2xx body into
// out.
func (h *handWritten) send(req *http.Request, out any) error {
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "hand-written/1.0")
	req.SetBasicAuth(wiretest.ClientID, wiretest.ClientSecret)
	resp, err := h.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode > 299 {
		return &insurance.APIError{StatusCode: resp.StatusCode}
	}
	return json.Unmarshal(raw, out)
}

type handQuote struct {
	QuoteID string `json:"quote_id"`
}

type handPolicy struct {
	PolicyID string `json:"policy_id"`
	QuoteID  string `json:"quote_id"`
}

type handProducts struct {
	Products []struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"products"`
}

func benchClient(b *testing.B, url string) *insurance.Client {
	b.Helper()
	return benchClientWith(b, url)
}

// benchCall runs call serially and, as "parallel", from 64 goroutines.
func benchCall(b *testing.B, call func(ctx context.Context) error) {
	ctx := context.Background()
	b.Run("serial", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := call(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.SetParallelism(64 / max(1, runtimeGOMAXPROCS()))
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := call(ctx); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}

func BenchmarkQuoteTravel(b *testing.B) {
	srv := benchServer(b)
	req := wiretest.FullTravelQuote()
	b.Run("sdk", func(b *testing.B) {
		c := benchClient(b, srv.URL)
		benchCall(b, func(ctx context.Context) error { _, err := c.QuoteTravel(ctx, req); return err })
	})
	b.Run("hand", func(b *testing.B) {
		h := newHandWritten(srv.URL)
		benchCall(b, func(ctx context.Context) error {
			var q handQuote
			return h.do(ctx, http.MethodPost, "/v1/quote/travel", req, &q)
		})
	})
}

func BenchmarkPurchaseTuition(b *testing.B) {
	srv := benchServer(b)
	req := wiretest.FullTuitionPurchase()
	b.Run("sdk", func(b *testing.B) {
		c := benchClient(b, srv.URL)
		benchCall(b, func(ctx context.Context) error { _, err := c.PurchaseTuition(ctx, req); return err })
	})
	b.Run("hand", func(b *testing.B) {
		h := newHandWritten(srv.URL)
		benchCall(b, func(ctx context.Context) error {
			var p handPolicy
			return h.do(ctx, http.MethodPost, "/v1/purchase/tuition", req, &p)
		})
	})
}

func BenchmarkListProducts(b *testing.B) {
	srv := benchServer(b)
	b.Run("sdk", func(b *testing.B) {
		c := benchClient(b, srv.URL)
		benchCall(b, func(ctx context.Context) error { _, err := c.ListProducts(ctx); return err })
	})
	b.Run("hand", func(b *testing.B) {
		h := newHandWritten(srv.URL)
		benchCall(b, func(ctx context.Context) error {
			var p handProducts
			return h.do(ctx, http.MethodGet, "/v1/products", nil, &p)
		})
	})
}

func runtimeGOMAXPROCS() int { return runtime.GOMAXPROCS(0) }

// BenchmarkClientOverhead isolates what each client costs on its own side: the same
// quote call over an in-memory transport that answers at once, so the figures are
// the client's CPU and allocations without the loopback network and server noise.
func BenchmarkClientOverhead(b *testing.B) {
	answer := []byte(benchQuoteBody)
	transport := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.Body != nil {
			_, _ = io.Copy(io.Discard, r.Body)
			_ = r.Body.Close()
		}
		return &http.Response{
			StatusCode: 201, Header: http.Header{"Content-Type": {"application/json"}}, Request: r,
			Body: io.NopCloser(bytes.NewReader(answer)), ContentLength: int64(len(answer)),
		}, nil
	})
	req := wiretest.FullTravelQuote()
	ctx := context.Background()
	b.Run("sdk", func(b *testing.B) {
		c, err := insurance.NewClient(wiretest.BaseURL, insurance.WithCredentials(wiretest.ClientID, wiretest.ClientSecret),
			insurance.WithHTTPClient(&http.Client{Transport: transport}))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := c.QuoteTravel(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hand", func(b *testing.B) {
		h := &handWritten{base: wiretest.BaseURL, hc: &http.Client{Transport: transport}}
		b.ReportAllocs()
		for b.Loop() {
			var q handQuote
			if err := h.do(ctx, http.MethodPost, "/v1/quote/travel", req, &q); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// productsBody is a product list of about size bytes, the shape the service sends.
func productsBody(size int) []byte {
	body := []byte(`{"products":[`)
	for i := 0; len(body) < size-120; i++ {
		if i > 0 {
			body = append(body, ',')
		}
		body = fmt.Appendf(body, `{"id":"product-%06d","name":"Product %06d","quote_path":"/v1/quote/product-%06d"}`, i, i, i)
	}
	return append(body, "]}"...)
}

// BenchmarkProductsBody measures how the cost grows with the body: a product list of
// 200 B, 10 KB and 1 MB, sent with a Content-Length ("length") or chunked, as a
// server streaming its answer does.
func BenchmarkProductsBody(b *testing.B) {
	for _, size := range []struct {
		name  string
		bytes int
	}{{"200B", 200}, {"10KB", 10 << 10}, {"1MB", 1 << 20}} {
		body := productsBody(size.bytes)
		for _, chunked := range []bool{false, true} {
			framing := "length"
			if chunked {
				framing = "chunked"
			}
			srv := productsServer(b, body, chunked)
			b.Run(size.name+"/"+framing+"/sdk", func(b *testing.B) {
				c := benchClient(b, srv.URL)
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.ListProducts(context.Background()); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(size.name+"/"+framing+"/hand", func(b *testing.B) {
				h := newHandWritten(srv.URL)
				b.ReportAllocs()
				for b.Loop() {
					var p handProducts
					if err := h.do(context.Background(), http.MethodGet, "/v1/products", nil, &p); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// trusting returns a TLS config that trusts srv's certificate.
func trusting(srv *httptest.Server) *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return &tls.Config{RootCAs: pool}
}

// BenchmarkQuoteTravelTLS is the travel quote over TLS with HTTP/2, 64 goroutines
// sharing one client from its first call: the SDK's default transport (only told to
// trust the test certificate) against the hand-written transport with HTTP/2 turned
// on, as a careful engineer talking to an HTTP/2 service would. It reports the
// connections the server accepted and the share of requests that came over HTTP/2.
func BenchmarkQuoteTravelTLS(b *testing.B) {
	req := wiretest.FullTravelQuote()
	run := func(b *testing.B, call func(ctx context.Context) error) {
		b.ReportAllocs()
		b.SetParallelism(64 / max(1, runtimeGOMAXPROCS()))
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := call(context.Background()); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	report := func(b *testing.B, opened, h2 *atomic.Int32) {
		b.ReportMetric(float64(opened.Load()), "conns")
		b.ReportMetric(float64(h2.Load())/float64(b.N), "h2/op")
	}
	b.Run("sdk", func(b *testing.B) {
		srv, opened, h2 := wiretest.CountingTLSServer(b, true, benchQuoteBody)
		transport := pipeline.NewTransport()
		transport.TLSClientConfig = trusting(srv)
		c, err := insurance.NewClient(srv.URL, insurance.WithCredentials(wiretest.ClientID, wiretest.ClientSecret),
			insurance.WithHTTPClient(&http.Client{Transport: transport}))
		if err != nil {
			b.Fatal(err)
		}
		run(b, func(ctx context.Context) error { _, err := c.QuoteTravel(ctx, req); return err })
		report(b, opened, h2)
	})
	b.Run("hand", func(b *testing.B) {
		srv, opened, h2 := wiretest.CountingTLSServer(b, true, benchQuoteBody)
		h := newHandWritten(srv.URL)
		transport := h.hc.Transport.(*http.Transport)
		transport.TLSClientConfig = trusting(srv)
		transport.ForceAttemptHTTP2 = true
		run(b, func(ctx context.Context) error {
			var q handQuote
			return h.do(ctx, http.MethodPost, "/v1/quote/travel", req, &q)
		})
		report(b, opened, h2)
	})
}
