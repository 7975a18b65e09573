package pipeline

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pool of record-creating requests speaks HTTP/1.1 to a server that offers
// HTTP/2, also when the caller's transport has already negotiated HTTP/2 (net/http
// then advertises h2 in the transport's TLS config), and the caller's transport is
// left as it was.
func TestRecordsRideHTTP1EvenOnATransportThatSpokeHTTP2(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	transport := NewTransport()
	transport.TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	get := func(rt http.RoundTripper) int {
		req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
		require.NoError(t, err)
		resp, err := rt.RoundTrip(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.ProtoMajor
	}
	require.Equal(t, 2, get(transport), "the caller's transport speaks HTTP/2")
	advertised := append([]string(nil), transport.TLSClientConfig.NextProtos...)
	require.Contains(t, advertised, "h2")

	pools := NewPools(&http.Client{Transport: transport}, 0, true)
	assert.Equal(t, 1, get(pools.records))
	assert.Equal(t, 2, get(pools.idempotent))
	assert.Equal(t, advertised, transport.TLSClientConfig.NextProtos, "the caller's transport is unchanged")
	assert.True(t, pools.seesConns)
}

// A RoundTripper other than an *http.Transport carries both kinds of request as it
// is; nothing proves a request unsent, and record-creating ones are never resent.
func TestAnOpaqueTransportCarriesEverything(t *testing.T) {
	opaque := roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, nil })
	pools := NewPools(&http.Client{Transport: opaque}, 0, true)
	assert.False(t, pools.seesConns)
	assert.Nil(t, pools.gate, "no gate: connections are not seen")
}

// Attempt middleware that drops the request's context is refused before anything is
// sent (the SDK could no longer tell a sent request from an unsent one), and a
// record-creating request goes out without an idempotency key, which would make
// net/http resend it after writing it.
func TestThePoolsGuardAgainstMiddleware(t *testing.T) {
	var got http.Header
	arrived := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived++
		got = r.Header.Clone()
	}))
	defer srv.Close()

	dropsContext := func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) { return next.RoundTrip(r.Clone(context.Background())) })
	}
	p := New(Config{BaseURL: srv.URL, MaxRetries: 2, Middleware: dropsContext}, NewPools(srv.Client(), 0, false), nil)
	res, err := p.Send(context.Background(), &Request{Method: http.MethodPost, Path: "/v1/purchase/tuition", Body: 1, Class: CreatesRecord})
	require.ErrorIs(t, err, errContextDropped)
	require.Error(t, err)
	assert.False(t, res.MayHaveArrived)
	assert.Equal(t, 1, res.Attempts, "not retried")
	assert.Zero(t, arrived)

	addsKeys := func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			r.Header.Set("Idempotency-Key", "k1")
			r.Header["X-Idempotency-Key"] = []string{""} // present, even empty, it counts for net/http
			r.Header.Set("X-Trace", "kept")
			return next.RoundTrip(r)
		})
	}
	p = New(Config{BaseURL: srv.URL, Middleware: addsKeys}, NewPools(srv.Client(), 0, false), nil)
	_, err = p.Send(context.Background(), &Request{Method: http.MethodPost, Path: "/v1/purchase/tuition", Body: 1, Class: CreatesRecord})
	require.NoError(t, err)
	assert.NotContains(t, got, "Idempotency-Key")
	assert.NotContains(t, got, "X-Idempotency-Key")
	assert.Equal(t, "kept", got.Get("X-Trace"))
}

// Over plain HTTP/1.1, net/http resends a GET once per stale idle connection unless
// GetBody says no: a server that drops every connection after a burst filled the pool
// still gets at most 2 × (1 + MaxRetries) requests from one call.
func TestABodilessGETIsBoundedOverHTTP1(t *testing.T) {
	var drop atomic.Bool
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		if drop.Load() {
			conn, _, _ := w.(http.Hijacker).Hijack()
			_ = conn.Close()
			return
		}
		time.Sleep(50 * time.Millisecond) // so that the burst opens a connection each
	}))
	defer srv.Close()
	p := New(Config{BaseURL: srv.URL, MaxRetries: 2, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond},
		NewPools(&http.Client{Transport: NewTransport()}, 0, false), nil)
	get := &Request{Method: http.MethodGet, Path: "/v1/products", Class: Idempotent}
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() { _, _ = p.Send(context.Background(), get) })
	}
	wg.Wait()

	drop.Store(true)
	requests.Store(0)
	_, err := p.Send(context.Background(), get)
	require.Error(t, err)
	assert.LessOrEqual(t, requests.Load(), int32(6))
}
