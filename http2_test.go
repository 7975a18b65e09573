package insurance_test

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
)

// countingTLSServer answers every request 201 with body over TLS, with HTTP/2 when h2
// is true; it counts the connections it accepts and the requests that came over
// HTTP/2.
func countingTLSServer(tb testing.TB, h2 bool, body string) (srv *httptest.Server, opened, overH2 *atomic.Int32) {
	tb.Helper()
	opened, overH2 = new(atomic.Int32), new(atomic.Int32)
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.ProtoMajor == 2 {
			overH2.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, body)
	}))
	srv.EnableHTTP2 = h2
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.StartTLS()
	tb.Cleanup(srv.Close)
	return srv, opened, overH2
}

// tlsAnswer serves both the quotes and the purchases of these tests.
const tlsAnswer = `{"quote_id":"q_1","policy_id":"pol_1"}`

// defaultTransportClient is a Client on the SDK's own default transport, told only to
// trust the test server's certificate.
func defaultTransportClient(t *testing.T, srv *httptest.Server) *insurance.Client {
	t.Helper()
	transport := pipeline.NewTransport()
	transport.TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig
	c, err := insurance.NewClient(srv.URL, insurance.WithCredentials(testClientID, testClientSecret),
		insurance.WithHTTPClient(&http.Client{Transport: transport}))
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// together runs call from 64 goroutines, 20 times each, all starting at once.
func together(t *testing.T, call func() error) {
	t.Helper()
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 64 {
		wg.Go(func() {
			<-start
			for range 20 {
				if err := call(); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	close(start)
	wg.Wait()
}

// TestHTTP2OneConnectionFromTheFirstCall: over TLS the default transport speaks
// HTTP/2, and 64 goroutines starting together on a new Client open one connection
// for their quotes (net/http alone opens one per goroutine and closes all but one).
// Their purchases ride a pool of their own that speaks HTTP/1.1 only, where net/http
// never resends a purchase that may have been processed: one connection per
// concurrent purchase, at most MaxConnsPerHost.
func TestHTTP2OneConnectionFromTheFirstCall(t *testing.T) {
	srv, opened, overH2 := countingTLSServer(t, true, tlsAnswer)
	c := defaultTransportClient(t, srv)

	together(t, func() error { _, err := c.QuoteTravel(context.Background(), fullTravelQuote()); return err })
	assert.EqualValues(t, 64*20, overH2.Load(), "requests over HTTP/2")
	assert.EqualValues(t, 1, opened.Load(), "connections for 64 goroutines' quotes")

	together(t, func() error { _, err := c.PurchaseTuition(context.Background(), fullTuitionPurchase()); return err })
	assert.EqualValues(t, 64*20, overH2.Load(), "no purchase over HTTP/2")
	assert.Greater(t, opened.Load(), int32(2), "HTTP/1.1: one connection per concurrent purchase")
	assert.LessOrEqual(t, opened.Load(), int32(1+pipeline.MaxConnsPerHost), "connections with the purchases' pool")
}

// TestHTTP1OverTLSStillConnectsInParallel: against a server without HTTP/2, the
// first connection made, the goroutines dial their own as before.
func TestHTTP1OverTLSStillConnectsInParallel(t *testing.T) {
	srv, opened, overH2 := countingTLSServer(t, false, tlsAnswer)
	c := defaultTransportClient(t, srv)

	together(t, func() error { _, err := c.QuoteTravel(context.Background(), fullTravelQuote()); return err })
	assert.Zero(t, overH2.Load())
	assert.Greater(t, opened.Load(), int32(1), "HTTP/1.1: one connection per concurrent call")
	assert.LessOrEqual(t, opened.Load(), int32(pipeline.MaxConnsPerHost))
}
