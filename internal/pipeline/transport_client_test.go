package pipeline_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/pipeline"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// Connections as partners see them through the Client: pools shared and kept,
// HTTP/2 where it is safe, no redirect followed, certificates verified.

// TestSharedClientReusesConnections: 64 goroutines sharing one client hold at most
// 64 connections: every connection opened beyond 64 replaced one that closed. A
// connection may close during the run: net/http does not reuse one whose write
// goroutine has not reported within 50 ms of the answer (maxWriteWaitBeforeConnReuse),
// which happens on a starved machine (seen under -race with two CPU hogs: 1 or 2 of
// 64 in 15 runs).
func TestSharedClientReusesConnections(t *testing.T) {
	srv, opened, closed := countingServer(t, func(w http.ResponseWriter) {
		w.WriteHeader(201)
		_, _ = io.WriteString(w, `{"quote_id":"q_1"}`)
	})
	c := wiretest.NewLoopbackClient(t, srv.URL)

	var wg sync.WaitGroup
	var failed atomic.Int32
	for range 64 {
		wg.Go(func() {
			for range 100 {
				if _, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote()); err != nil {
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	t.Logf("64 goroutines x 100 quotes: %d connections opened, %d closed during the run", opened.Load(), closed.Load())
	assert.Zero(t, failed.Load())
	assert.LessOrEqual(t, opened.Load(), 64+closed.Load(), "no more than 64 connections at once")
	assert.LessOrEqual(t, closed.Load(), int32(4), "connections are kept for reuse")
}

// TestAFailedCallKeepsTheIdlePool: retryablehttp closes every idle connection after a
// call that ends in failure; the SDK keeps that from reaching its pool, so the calls
// that follow reuse the connections already open.
func TestAFailedCallKeepsTheIdlePool(t *testing.T) {
	var fail atomic.Bool
	var arrived sync.WaitGroup
	srv, opened, _ := countingServer(t, func(w http.ResponseWriter) {
		if fail.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		arrived.Done()
		arrived.Wait() // hold every answer until all 8 calls are in: 8 connections
		w.WriteHeader(201)
		_, _ = io.WriteString(w, `{"quote_id":"q_1"}`)
	})
	c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithMaxRetries(0))
	eightAtOnce := func() {
		arrived.Add(8)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				_, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
				assert.NoError(t, err)
			})
		}
		wg.Wait()
	}

	eightAtOnce()
	require.EqualValues(t, 8, opened.Load())
	fail.Store(true)
	_, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.ErrorIs(t, err, insurance.ErrServer, "a call that ends in failure")
	fail.Store(false)
	eightAtOnce()

	assert.LessOrEqual(t, opened.Load(), int32(9), "the 8 idle connections are reused (one may be replaced: see above)")
}

// countingServer answers every request with answer and counts the connections opened
// and closed while the test runs.
func countingServer(t *testing.T, answer func(http.ResponseWriter)) (srv *httptest.Server, opened, closed *atomic.Int32) {
	t.Helper()
	opened, closed = new(atomic.Int32), new(atomic.Int32)
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		answer(w)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			opened.Add(1)
		case http.StateClosed, http.StateHijacked:
			closed.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, opened, closed
}

// defaultTransportClient is a Client on the SDK's own default transport, told only to
// trust the test server's certificate.
func defaultTransportClient(t *testing.T, srv *httptest.Server) *insurance.Client {
	t.Helper()
	transport := pipeline.NewTransport()
	transport.TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig
	c, err := insurance.NewClient(srv.URL, insurance.WithCredentials(wiretest.ClientID, wiretest.ClientSecret),
		insurance.WithHTTPClient(&http.Client{Transport: transport}))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// TestHTTP2OneConnectionFromTheFirstCall: over TLS the default transport speaks
// HTTP/2, and 64 goroutines starting together on a new Client open one connection
// for their quotes (net/http alone opens one per goroutine and closes all but one).
// Their purchases ride a pool of their own that speaks HTTP/1.1 only, where net/http
// never resends a purchase that may have been processed: one connection per
// concurrent purchase, at most MaxConnsPerHost.
func TestHTTP2OneConnectionFromTheFirstCall(t *testing.T) {
	srv, opened, overH2 := wiretest.CountingTLSServer(t, true, wiretest.CreatedBody)
	c := defaultTransportClient(t, srv)

	together(t, func() error { _, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote()); return err })
	assert.EqualValues(t, 64*20, overH2.Load(), "requests over HTTP/2")
	assert.EqualValues(t, 1, opened.Load(), "connections for 64 goroutines' quotes")

	together(t, func() error {
		_, err := c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
		return err
	})
	assert.EqualValues(t, 64*20, overH2.Load(), "no purchase over HTTP/2")
	assert.Greater(t, opened.Load(), int32(2), "HTTP/1.1: one connection per concurrent purchase")
	assert.LessOrEqual(t, opened.Load(), int32(1+pipeline.MaxConnsPerHost), "connections with the purchases' pool")
}

// TestHTTP1OverTLSStillConnectsInParallel: against a server without HTTP/2, the
// first connection made, the goroutines dial their own as before.
func TestHTTP1OverTLSStillConnectsInParallel(t *testing.T) {
	srv, opened, overH2 := wiretest.CountingTLSServer(t, false, wiretest.CreatedBody)
	var again extraSends
	c, err := defaultTransportClient(t, srv).With(insurance.WithObserver(&again))
	require.NoError(t, err)

	together(t, func() error { _, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote()); return err })
	assert.Zero(t, overH2.Load())
	assert.Greater(t, opened.Load(), int32(1), "HTTP/1.1: one connection per concurrent call")
	// A request sent again (a connection that failed it, on a loaded machine) goes
	// out on a connection of its own, outside the pool's bound.
	assert.LessOrEqual(t, opened.Load(), int32(pipeline.MaxConnsPerHost)+again.n.Load())
}

// extraSends counts the requests calls sent beyond their first.
type extraSends struct{ n atomic.Int32 }

func (e *extraSends) StartCall(ctx context.Context, _ insurance.CallInfo) context.Context { return ctx }
func (e *extraSends) StartAttempt(context.Context, insurance.AttemptInfo)                 {}
func (e *extraSends) EndCall(_ context.Context, _ insurance.CallInfo, r insurance.CallResult) {
	e.n.Add(int32(r.Attempts - 1))
}

func TestRedirectsAreNotFollowed(t *testing.T) {
	c, mt := wiretest.NewMockClient(t)
	var elsewhere wiretest.Recorder
	mt.RegisterResponder("GET", wiretest.BaseURL+"/v1/products", func(*http.Request) (*http.Response, error) {
		resp := &http.Response{StatusCode: http.StatusTemporaryRedirect, Header: http.Header{"Location": {"https://evil.example/steal"}}, Body: http.NoBody}
		return resp, nil
	})
	mt.RegisterResponder("GET", "https://evil.example/steal", elsewhere.Respond(200, `[]`))

	_, err := c.ListProducts(context.Background())
	var apiErr *insurance.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusTemporaryRedirect, apiErr.StatusCode)
	assert.Equal(t, 0, elsewhere.Count(), "credentials must not reach another host")
}

// TestRedirectDoesNotCarryCredentials: a server that redirects to another host must
// not get the Basic credentials or a customer secret, nor the body, to that host.
func TestRedirectDoesNotCarryCredentials(t *testing.T) {
	var leaked atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked.Add(1)
		w.WriteHeader(200)
	}))
	defer other.Close()
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer redirecting.Close()
	c := wiretest.NewLoopbackClient(t, redirecting.URL)

	for _, ep := range wiretest.Endpoints() {
		_, err := ep.Call(context.Background(), c)
		var apiErr *insurance.APIError
		require.ErrorAs(t, err, &apiErr, ep.Name)
		assert.Equal(t, http.StatusTemporaryRedirect, apiErr.StatusCode)
	}
	assert.Zero(t, leaked.Load(), "nothing may reach the host a redirect points to")
}

// TestTLSIsVerified: the SDK never turns certificate checks off, so a server with an
// untrusted certificate is refused.
func TestTLSIsVerified(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `[]`)
	}))
	defer srv.Close()
	c := wiretest.NewLoopbackClient(t, srv.URL) // default retries: a bad certificate is not tried again

	for name, call := range map[string]func() error{
		"products": func() error { _, err := c.ListProducts(context.Background()); return err },
		"purchase": func() error {
			_, err := c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
			return err
		},
	} {
		err := call()
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "certificate", name)
		var reqErr *insurance.RequestError
		require.ErrorAs(t, err, &reqErr, name)
		assert.Equal(t, 1, reqErr.Attempts, "%s: a certificate that does not verify will not on a retry", name)
		assert.NotErrorIs(t, err, insurance.ErrOutcomeUnknown, "%s: nothing was sent", name)
	}

	trusting := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithHTTPClient(srv.Client()))
	_, err := trusting.ListProducts(context.Background())
	assert.NoError(t, err, "a transport the caller trusts with that certificate works")
}

// together runs call from 64 goroutines, 20 times each, all starting at once; each
// error fails the test.
func together(t *testing.T, call func() error) {
	t.Helper()
	for _, err := range wiretest.InABurst(20, call) {
		t.Error(err)
	}
}
