package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/pipeline"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// A purchase asks "Expect: 100-continue" and holds its body back until the server
// asks for it (see TestAReloadProcessesNoPurchaseTwice for why). These tests are the
// servers that do not play along.

// A server that refuses the expectation with 417 never saw the body: the purchase is
// sent again without Expect, as RFC 9110 asks. After three refusals the client stops
// asking for a while (a passing fault must not turn the protection off).
func TestAPurchaseRefused417IsSentAgainWithoutExpect(t *testing.T) {
	var withExpect, without atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Expect") != "" {
			withExpect.Add(1)
			w.WriteHeader(http.StatusExpectationFailed)
			return
		}
		without.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, wiretest.CreatedBody)
	}))
	defer srv.Close()
	c := wiretest.NewLoopbackClient(t, srv.URL)

	for i := range 4 {
		require.NoError(t, wiretest.BuyTuition(context.Background(), c, fmt.Sprint("q_", i)))
	}

	assert.Equal(t, int32(3), withExpect.Load())
	assert.Equal(t, int32(4), without.Load())
}

// A server that ignores Expect and waits for the body: with an attempt timeout
// shorter than net/http's wait for "100 Continue", the first attempt times out with
// the body unsent, and the purchase is sent again without Expect.
func TestAPurchaseToAServerThatIgnoresExpectSucceedsWithinAnAttemptTimeout(t *testing.T) {
	var requests atomic.Int32
	url := pipeline.IgnoresExpect(t, func(c net.Conn, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			return // the client gave up before sending the body
		}
		requests.Add(1)
		_, _ = fmt.Fprintf(c, "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(wiretest.CreatedBody), wiretest.CreatedBody)
	})
	c := wiretest.NewLoopbackClient(t, url, insurance.WithAttemptTimeout(500*time.Millisecond))

	start := time.Now()
	require.NoError(t, wiretest.BuyTuition(context.Background(), c, "q_1"))
	assert.Less(t, time.Since(start), 2*time.Second, "one attempt timeout, not one per attempt")
	assert.Equal(t, int32(1), requests.Load(), "one body arrived: the first attempt's never went out")
}

// A purchase cannot be processed without its body, so an answer that came before
// the body went out, unasked, proves it unprocessed (Apache answers a 503 so while its
// upstream is down): it is retried, and in the end not outcome unknown. A 2xx always
// proves an arrival, even one that breaks off; and Do, whose server may act on a
// path alone, keeps the stricter rule: its 503 is outcome unknown, not sent again.
func TestAnAnswerBeforeThePurchaseBody(t *testing.T) {
	doPurchase := func(ctx context.Context, c *insurance.Client, _ string) error {
		_, err := c.Do(ctx, http.MethodPost, "/v1/purchase/tuition", insurance.AuthBasic, wiretest.FullTuitionPurchase(), nil)
		return err
	}
	for _, tc := range []struct {
		name, answer  string
		call          func(context.Context, *insurance.Client, string) error
		outcomeUnkown bool
		requests      int32
	}{
		{"201 cut off", "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"quote_id\":", wiretest.BuyTuition, true, 1},
		{"503 to PurchaseTuition", "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", wiretest.BuyTuition, false, 3},
		{"503 to Do", "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", doPurchase, true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var requests atomic.Int32
			url := pipeline.IgnoresExpect(t, func(c net.Conn, _ *http.Request) {
				requests.Add(1)
				_, _ = io.WriteString(c, tc.answer)
				_ = c.Close()
			})
			c := wiretest.NewLoopbackClient(t, url)

			err := tc.call(context.Background(), c, "q_1")

			require.Error(t, err)
			assert.Equal(t, tc.outcomeUnkown, errors.Is(err, insurance.ErrOutcomeUnknown))
			assert.Equal(t, tc.requests, requests.Load())
		})
	}
}

// An answer that came before the body (a 429, a 503), on a connection the server keeps,
// says nothing about Expect: net/http writes the body after it, too late for the
// server to have used it; the purchase is tried again, holding its body back again,
// and so do the next purchases. A 417 there is a refused expectation: the purchase is
// sent again without it, and the next one asks again.
func TestAnEarlyAnswerOnAKeptConnectionKeepsExpect(t *testing.T) {
	for status, want := range map[string][]string{
		"429 Too Many Requests":   {"100-continue", "100-continue", "100-continue"},
		"503 Service Unavailable": {"100-continue", "100-continue", "100-continue"},
		"417 Expectation Failed":  {"100-continue", "", "100-continue"},
	} {
		t.Run(status, func(t *testing.T) {
			var bodies, requests atomic.Int32
			var expects pipeline.ExpectLog
			url := pipeline.IgnoresExpect(t, func(c net.Conn, r *http.Request) {
				expects.Record(r)
				if requests.Add(1) == 1 { // answered before its body; the connection kept
					_, _ = io.WriteString(c, "HTTP/1.1 "+status+"\r\nContent-Length: 0\r\n\r\n")
					_, _ = io.Copy(io.Discard, r.Body)
					return
				}
				continueAndCreate(c, r, &bodies)
			})
			c := wiretest.NewLoopbackClient(t, url, insurance.WithMaxRetries(1))

			_ = wiretest.BuyTuition(context.Background(), c, "q_1")
			require.NoError(t, wiretest.BuyTuition(context.Background(), c, "q_2"))

			assert.Equal(t, want, expects.All())
		})
	}
}

// An attempt timeout that ends a dial (a network blip), before any server was
// reached, says nothing about Expect either.
func TestADialTimeoutKeepsExpect(t *testing.T) {
	var bodies atomic.Int32
	var expects pipeline.ExpectLog
	url := pipeline.IgnoresExpect(t, func(c net.Conn, r *http.Request) {
		expects.Record(r)
		continueAndCreate(c, r, &bodies)
	})
	var hang atomic.Bool
	hang.Store(true)
	transport := insurance.NewTransport()
	dial := transport.DialContext
	transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if hang.Load() {
			<-ctx.Done() // the network drops the SYN
			return nil, ctx.Err()
		}
		return dial(ctx, network, addr)
	}
	c := wiretest.NewLoopbackClient(t, url, insurance.WithHTTPClient(&http.Client{Transport: transport}),
		insurance.WithAttemptTimeout(100*time.Millisecond), insurance.WithMaxRetries(0))

	require.Error(t, wiretest.BuyTuition(context.Background(), c, "q_1"))
	hang.Store(false)
	patient, err := c.With(insurance.WithAttemptTimeout(10 * time.Second)) // the same pools
	require.NoError(t, err)
	require.NoError(t, wiretest.BuyTuition(context.Background(), patient, "q_2"))

	assert.Equal(t, []string{"100-continue"}, expects.All())
}

// continueAndCreate answers as a server that honours Expect: "100 Continue", then it
// reads the body and answers 201.
func continueAndCreate(c net.Conn, r *http.Request, bodies *atomic.Int32) {
	if r.Header.Get("Expect") != "" {
		_, _ = io.WriteString(c, "HTTP/1.1 100 Continue\r\n\r\n")
	}
	if _, err := io.Copy(io.Discard, r.Body); err != nil {
		return
	}
	bodies.Add(1)
	_, _ = fmt.Fprintf(c, "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(wiretest.CreatedBody), wiretest.CreatedBody)
}
