package insurance_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

// The retry table as partners see it through the Client: what is sent again, how
// often, and what the error says once the attempts are spent.

// TestRetryTable runs every endpoint against every failure kind, followed by success,
// and counts what the server received. Idempotent calls (products, quotes, customer
// secret) are retried; record-creating calls (purchases, onboarding, events) are
// retried only on 429, and otherwise fail with ErrOutcomeUnknown after one request.
func TestRetryTable(t *testing.T) {
	kinds := []struct {
		name  string
		fault fault
		// for record-creating calls: is the failure retried, and what does it match
		recordRetried bool
		recordErr     error
	}{
		{"429 Retry-After 0", status(429, "Retry-After", "0"), true, nil},
		{"502", status(502), false, insurance.ErrServer},
		{"503", status(503), false, insurance.ErrServer},
		{"504", status(504), false, insurance.ErrServer},
		{"reset after the request was read", reset, false, syscall.ECONNRESET},
		{"client timeout after send", hang, false, nil},
		{"truncated 2xx body", truncated, false, io.ErrUnexpectedEOF},
	}
	for _, ep := range endpoints() {
		for _, k := range kinds {
			t.Run(ep.name+"/"+k.name, func(t *testing.T) {
				t.Parallel()
				srv := newScriptedServer(t, ep, k.fault)
				c := newLoopbackClient(t, srv.URL, insurance.WithHTTPClient(&http.Client{Timeout: 300 * time.Millisecond}))

				result, err := ep.call(context.Background(), c)

				if !ep.createsRecord || k.recordRetried {
					require.NoError(t, err)
					assert.NotNil(t, result)
					assert.EqualValues(t, 2, srv.received.Load(), "one failure, one retry")
					return
				}
				require.Error(t, err)
				assert.EqualValues(t, 1, srv.received.Load(), "a record-creating call is never sent twice")
				assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
				if k.recordErr != nil {
					assert.ErrorIs(t, err, k.recordErr)
				}
			})
		}
	}
}

// TestDefiniteAnswersAreNotRetried: 4xx answers and 500 are never retried.
func TestDefiniteAnswersAreNotRetried(t *testing.T) {
	for _, ep := range endpoints() {
		for _, code := range []int{400, 401, 402, 404, 422, 500} {
			t.Run(ep.name+"/"+strconv.Itoa(code), func(t *testing.T) {
				t.Parallel()
				srv := newScriptedServer(t, ep, status(code))
				c := newLoopbackClient(t, srv.URL)

				_, err := ep.call(context.Background(), c)
				var apiErr *insurance.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, code, apiErr.StatusCode)
				assert.EqualValues(t, 1, srv.received.Load())
			})
		}
	}
}

// TestDialFailureIsRetriedForEveryCall: nothing was sent, so even a purchase is safe
// to try again; the error says how many attempts were made.
func TestDialFailureIsRetriedForEveryCall(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "http://" + ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now

	for _, ep := range endpoints() {
		t.Run(ep.name, func(t *testing.T) {
			c := newLoopbackClient(t, url)
			_, err := ep.call(context.Background(), c)

			var reqErr *insurance.RequestError
			require.ErrorAs(t, err, &reqErr)
			assert.Equal(t, 3, reqErr.Attempts, "1 attempt + 2 retries")
			assert.ErrorIs(t, err, syscall.ECONNREFUSED)
			assert.NotErrorIs(t, err, insurance.ErrOutcomeUnknown, "nothing reached the server")
			assert.Contains(t, err.Error(), "3 attempts")
		})
	}
}

func TestLastStatusIsKeptAfterTheLastAttempt(t *testing.T) {
	ep := endpoints()[0] // ListProducts
	srv := newScriptedServer(t, ep, status(503), status(503), status(503), status(503))
	c := newLoopbackClient(t, srv.URL)

	_, err := c.ListProducts(context.Background())
	var apiErr *insurance.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 503, apiErr.StatusCode)
	assert.Equal(t, 3, apiErr.Attempts)
	assert.Contains(t, err.Error(), "after 3 attempts")
	assert.ErrorIs(t, err, insurance.ErrServer)
	assert.EqualValues(t, 3, srv.received.Load())
}

func TestMaxRetriesZeroSendsOnce(t *testing.T) {
	ep := endpoints()[0]
	srv := newScriptedServer(t, ep, status(503), status(429))
	c := newLoopbackClient(t, srv.URL, insurance.WithMaxRetries(0))

	_, err := c.ListProducts(context.Background())
	assert.ErrorIs(t, err, insurance.ErrServer)
	assert.EqualValues(t, 1, srv.received.Load())
}

func TestRetryAfterIsCapped(t *testing.T) {
	ep := endpoints()[1] // QuoteTravel
	srv := newScriptedServer(t, ep, status(429, "Retry-After", "3600"))
	c := newLoopbackClient(t, srv.URL, insurance.WithMaxRetryAfter(50*time.Millisecond))

	start := time.Now()
	_, err := c.QuoteTravel(context.Background(), fullTravelQuote())
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 2*time.Second, "Retry-After: 3600 must not wait an hour")
	assert.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond, "the capped Retry-After is still honoured")
	assert.EqualValues(t, 2, srv.received.Load())
}

// TestATransportErrorIsRetriedOnlyIfNothingWasSent: a transport error that says
// nothing was sent (a dial error) is retried even for a purchase; any other is
// outcome unknown, and never sent twice. README.md promises this to httpmock users.
func TestATransportErrorIsRetriedOnlyIfNothingWasSent(t *testing.T) {
	for _, tc := range []struct {
		name           string
		err            error
		calls          int
		outcomeUnknown bool
	}{
		{"dial error", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, 3, false},
		{"any other error", errors.New("connection reset by mock"), 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := newMockClient(t)
			mt.RegisterResponder("POST", testBaseURL+"/v1/purchase/tuition", httpmock.NewErrorResponder(tc.err))

			_, err := c.PurchaseTuition(context.Background(), fullTuitionPurchase())
			require.Error(t, err)
			assert.Equal(t, tc.outcomeUnknown, errors.Is(err, insurance.ErrOutcomeUnknown))
			assert.Equal(t, tc.calls, mt.GetTotalCallCount())
		})
	}
}

// TestRetriesResendTheWholeBody: a retried call sends the same body and headers on
// every attempt. The pipeline rewinds the body itself (net/http's own resend, which
// rewinds too, plays no part behind a mock transport).
func TestRetriesResendTheWholeBody(t *testing.T) {
	for _, tc := range []struct {
		name   string
		path   string
		status int // answer to the first attempt
		call   func(context.Context, *insurance.Client) error
	}{
		{"quote after 503", "/v1/quote/travel", http.StatusServiceUnavailable, func(ctx context.Context, c *insurance.Client) error {
			_, err := c.QuoteTravel(ctx, fullTravelQuote())
			return err
		}},
		{"purchase after 429", "/v1/purchase/tuition", http.StatusTooManyRequests, func(ctx context.Context, c *insurance.Client) error {
			_, err := c.PurchaseTuition(ctx, fullTuitionPurchase())
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := newMockClient(t)
			rec := &recorder{}
			var calls atomic.Int32
			failFirst := rec.respond(tc.status, `{}`)
			succeed := rec.respond(http.StatusCreated, `{"quote_id":"q_1","policy_id":"pol_1"}`)
			mt.RegisterResponder(http.MethodPost, testBaseURL+tc.path, func(req *http.Request) (*http.Response, error) {
				if calls.Add(1) == 1 {
					return failFirst(req)
				}
				return succeed(req)
			})

			require.NoError(t, tc.call(context.Background(), c))
			require.Len(t, rec.requests, 2)
			first, retry := rec.requests[0], rec.requests[1]
			assert.NotEmpty(t, first.Body)
			assert.Equal(t, string(first.Body), string(retry.Body), "the retry's body")
			assert.Equal(t, first.Header, retry.Header, "the retry's headers")
			requireAllowed(t, retry)
		})
	}
}

// net/http silently sends an idempotent request again on a fresh connection when a
// reused one closes as it is written. Attempts counts what went on the wire.
func TestAttemptsCountNetHTTPsOwnResend(t *testing.T) {
	var received atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		switch received.Add(1) {
		case 1: // warms up a keep-alive connection
			_, _ = io.WriteString(w, `{"products":[]}`)
		case 2: // the reused connection closes as the request arrives
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				_ = conn.Close()
			}
		default: // net/http's resend, on a new connection
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	c := newLoopbackClient(t, srv.URL, insurance.WithMaxRetries(0))

	_, err := c.ListProducts(context.Background())
	require.NoError(t, err)
	_, err = c.ListProducts(context.Background())

	var apiErr *insurance.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusServiceUnavailable, apiErr.StatusCode)
	assert.EqualValues(t, 3, received.Load())
	assert.Equal(t, 2, apiErr.Attempts, "the server saw the second call twice")
}
