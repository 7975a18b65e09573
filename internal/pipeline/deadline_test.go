package pipeline_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// The retry loop's rules about time: no wait is begun that would end after the
// deadline, and a call that ends during a wait keeps the last answer. In fake time:
// each test runs in a testing/synctest bubble against the in-memory sandbox, so an
// hour-long Retry-After costs no real time and every duration is exact.

// inFakeTime runs test in a synctest bubble, with an in-memory sandbox that it closes
// before the bubble ends (net/http's server may still be closing a connection).
func inFakeTime(t *testing.T, test func(t *testing.T, srv *insurancetest.Server)) {
	synctest.Test(t, func(t *testing.T) {
		srv := insurancetest.NewServer(insurancetest.InMemory())
		defer srv.Close()
		test(t, srv)
	})
}

func retryAfter(seconds string) http.Header { return http.Header{"Retry-After": {seconds}} }

// A Retry-After that would end after the deadline is not slept into: the 429 is the
// answer, at once, with what the server asked for. Every endpoint, purchases too.
func TestRetryAfterBeyondTheDeadlineReturnsTheAnswerAtOnce(t *testing.T) {
	for _, ep := range wiretest.Endpoints() {
		t.Run(ep.Name, func(t *testing.T) {
			inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
				srv.Inject(ep.Method+" "+ep.Path, insurancetest.Fault{Status: http.StatusTooManyRequests, Header: retryAfter("3600")})
				c := srv.Client(insurance.WithRetryWait(time.Second, 10*time.Second)) // Retry-After capped at the default 10 s
				ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
				defer cancel()

				start := time.Now()
				_, err := ep.Call(ctx, c)

				assert.Zero(t, time.Since(start), "returned at once, not at the deadline")
				var apiErr *insurance.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, http.StatusTooManyRequests, apiErr.StatusCode)
				assert.ErrorIs(t, err, insurance.ErrRateLimited)
				assert.Equal(t, time.Hour, apiErr.RetryAfter, "the Retry-After the server sent, uncapped")
				assert.Equal(t, 1, apiErr.Attempts)
				assert.NotErrorIs(t, err, context.DeadlineExceeded, "the call did not run into its deadline")
				assert.NotErrorIs(t, err, insurance.ErrOutcomeUnknown, "a 429 was not processed")
				assert.Contains(t, err.Error(), "retry after 1h0m0s")
				assert.Len(t, srv.Requests(), 1)
			})
		})
	}
}

// A backoff wait that would end after the deadline is not begun either.
func TestBackoffBeyondTheDeadlineReturnsTheAnswerAtOnce(t *testing.T) {
	inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("GET /v1/products", insurancetest.Fault{Status: http.StatusServiceUnavailable})
		c := srv.Client(insurance.WithRetryWait(time.Second, 2*time.Second)) // waits 0.5 to 1 s
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()

		start := time.Now()
		_, err := c.ListProducts(ctx)

		assert.Zero(t, time.Since(start))
		var apiErr *insurance.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, http.StatusServiceUnavailable, apiErr.StatusCode)
		assert.ErrorIs(t, err, insurance.ErrServer)
		assert.Zero(t, apiErr.RetryAfter, "no Retry-After was sent")
		assert.Len(t, srv.Requests(), 1)
	})
}

// A wait that fits the deadline is waited, as long as the server asked, and the
// retry succeeds.
func TestBackoffWithinTheDeadlineIsWaited(t *testing.T) {
	inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: 1, Status: http.StatusTooManyRequests, Header: retryAfter("1")})
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()

		_, err := srv.Client().QuoteTravel(ctx, travelQuoteTo("ada@example.com"))

		require.NoError(t, err)
		received := srv.Requests()
		require.Len(t, received, 2)
		assert.Equal(t, time.Second, received[1].ReceivedAt.Sub(received[0].ReceivedAt), "Retry-After: 1 honoured")
	})
}

// A context cancelled during the wait ends the call with the context's error, and the
// answer being waited on is kept: errors.As gives it, and its sentinel matches.
func TestContextEndingDuringTheWaitKeepsTheLastAnswer(t *testing.T) {
	inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("GET /v1/products", insurancetest.Fault{
			Status: http.StatusServiceUnavailable, Header: retryAfter("5"), Body: `{"message":"scripted"}`,
		})
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel) // no deadline: the 5 s wait is begun

		start := time.Now()
		_, err := srv.Client().ListProducts(ctx)

		assert.Equal(t, 100*time.Millisecond, time.Since(start), "the wait ends with the context")
		assert.ErrorIs(t, err, context.Canceled)
		assert.ErrorIs(t, err, insurance.ErrServer)
		var apiErr *insurance.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, http.StatusServiceUnavailable, apiErr.StatusCode)
		assert.Equal(t, 5*time.Second, apiErr.RetryAfter)
		assert.JSONEq(t, `{"message":"scripted"}`, string(apiErr.Body))
		var reqErr *insurance.RequestError
		require.ErrorAs(t, err, &reqErr)
		assert.Equal(t, 1, reqErr.Attempts)
		assert.Contains(t, err.Error(), "context canceled (last answer: 503 Service Unavailable)")
		assert.Len(t, srv.Requests(), 1)
	})
}

// A deadline that ends during the retry that follows a 502 keeps that 502 too.
func TestDeadlineDuringTheRetryKeepsTheLastAnswer(t *testing.T) {
	inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: 1, Status: http.StatusBadGateway})
		srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: 1, Delay: time.Hour})
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()

		start := time.Now()
		_, err := srv.Client().QuoteTravel(ctx, travelQuoteTo("ada@example.com"))

		assert.Equal(t, 300*time.Millisecond, time.Since(start))
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.ErrorIs(t, err, insurance.ErrServer)
		var apiErr *insurance.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.Equal(t, http.StatusBadGateway, apiErr.StatusCode)
		assert.Len(t, srv.Requests(), 2)
	})
}

// WithAttemptTimeout bounds each attempt: a quote whose server hangs is tried again
// after the bound instead of waiting out the context.
func TestAttemptTimeoutRetriesAHangingQuote(t *testing.T) {
	inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: 1, Delay: time.Hour})
		c := srv.Client(insurance.WithAttemptTimeout(200 * time.Millisecond))
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()

		q, err := c.QuoteTravel(ctx, travelQuoteTo("ada@example.com"))

		require.NoError(t, err)
		assert.NotEmpty(t, q.QuoteID)
		received := srv.Requests()
		require.Len(t, received, 2)
		gap := received[1].ReceivedAt.Sub(received[0].ReceivedAt)
		assert.GreaterOrEqual(t, gap, 200*time.Millisecond, "the attempt's bound, then a retry wait")
		assert.Less(t, gap, 300*time.Millisecond, "not the context's 5 s")
	})
}

// A purchase whose attempt times out after it was sent is not sent again.
func TestAttemptTimeoutOnAPurchaseIsOutcomeUnknown(t *testing.T) {
	inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Delay: time.Hour})
		c := srv.Client(insurance.WithAttemptTimeout(200 * time.Millisecond))

		start := time.Now()
		_, err := c.PurchaseTuition(context.Background(), &insurance.TuitionPurchaseRequest{
			QuoteID: srv.NewTuitionQuote("ada@example.com"), PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
		})

		assert.Equal(t, 200*time.Millisecond, time.Since(start))
		assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Contains(t, err.Error(), "no answer within the attempt timeout of 200ms")
		assert.Len(t, srv.Requests(), 1, "never sent twice")
	})
}

func travelQuoteTo(email string) *insurance.TravelQuoteRequest {
	return &insurance.TravelQuoteRequest{
		Customer: insurance.Customer{EmailAddress: email},
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:      1000,
			TripStartDate: insurance.NewDate(2027, time.March, 1),
			TripEndDate:   insurance.NewDate(2027, time.March, 3),
		},
	}
}

// The same rules on real loopback sockets, and WithAttemptTimeout there.

func TestAContextThatEndsBeforeTheAnswerIsNotRetried(t *testing.T) {
	for _, ep := range wiretest.Endpoints() {
		t.Run(ep.Name, func(t *testing.T) {
			t.Parallel()
			srv := wiretest.NewScriptedServer(t, ep, wiretest.Hang, wiretest.Hang, wiretest.Hang)
			c := wiretest.NewLoopbackClient(t, srv.URL)
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()

			_, err := ep.Call(ctx, c)
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.EqualValues(t, 1, srv.Received.Load(), "a context that ended is not retried")
			assert.Equal(t, ep.CreatesRecord, errors.Is(err, insurance.ErrOutcomeUnknown))
		})
	}
}

// recordingServer answers each request with the next scripted fault (then the
// endpoint's success) and records when each request arrived.
func recordingServer(t *testing.T, ep wiretest.Endpoint, script ...wiretest.Fault) (*wiretest.ScriptedServer, func() []time.Time) {
	t.Helper()
	var mu sync.Mutex
	var arrivals []time.Time
	srv := wiretest.NewScriptedServer(t, ep, script...)
	inner := srv.Config.Handler
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		mu.Unlock()
		inner.ServeHTTP(w, r)
	})
	return srv, func() []time.Time {
		mu.Lock()
		defer mu.Unlock()
		return append([]time.Time(nil), arrivals...)
	}
}

// WithAttemptTimeout also bounds reading the answer: a body that stalls half-way is
// an attempt that timed out.
func TestAttemptTimeoutCoversReadingTheBody(t *testing.T) {
	ep := wiretest.Endpoints()[0] // ListProducts
	srv, arrivals := recordingServer(t, ep, wiretest.Stall)
	c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithAttemptTimeout(200*time.Millisecond))

	_, err := c.ListProducts(context.Background())
	require.NoError(t, err)
	assert.Len(t, arrivals(), 2)
}

// An attempt that timed out before it had a connection sent nothing: even a
// purchase is tried again. (The transport's first dial never completes; the others
// are refused.)
func TestAttemptTimeoutBeforeConnectingIsRetriedForPurchases(t *testing.T) {
	var attempts atomic.Int32
	hanging := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			if attempts.Add(1) == 1 {
				<-ctx.Done() // the first dial never completes
				return nil, ctx.Err()
			}
			return (&net.Dialer{}).DialContext(ctx, "tcp", "127.0.0.1:1") // refused at once
		},
	}}
	c := wiretest.NewLoopbackClient(t, "http://127.0.0.1:9", insurance.WithHTTPClient(hanging), insurance.WithAttemptTimeout(100*time.Millisecond))

	_, err := c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
	require.Error(t, err)
	assert.NotErrorIs(t, err, insurance.ErrOutcomeUnknown, "no connection was ever made")
	assert.EqualValues(t, 3, attempts.Load(), "retried like any dial failure")
}
