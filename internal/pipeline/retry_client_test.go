package pipeline_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
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
		fault wiretest.Fault
		// for record-creating calls: is the failure retried, and what does it match
		recordRetried bool
		recordErr     error
	}{
		{"429 Retry-After 0", wiretest.Status(429, "Retry-After", "0"), true, nil},
		{"502", wiretest.Status(502), false, insurance.ErrServer},
		{"503", wiretest.Status(503), false, insurance.ErrServer},
		{"504", wiretest.Status(504), false, insurance.ErrServer},
		{"reset after the request was read", wiretest.Reset, false, syscall.ECONNRESET},
		{"client timeout after send", wiretest.Hang, false, nil},
		{"truncated 2xx body", wiretest.Truncated, false, io.ErrUnexpectedEOF},
	}
	for _, ep := range wiretest.Endpoints() {
		for _, k := range kinds {
			t.Run(ep.Name+"/"+k.name, func(t *testing.T) {
				t.Parallel()
				srv := wiretest.NewScriptedServer(t, ep, k.fault)
				c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithHTTPClient(&http.Client{Timeout: 300 * time.Millisecond}))

				result, err := ep.Call(context.Background(), c)

				if !ep.CreatesRecord || k.recordRetried {
					require.NoError(t, err)
					assert.NotNil(t, result)
					assert.EqualValues(t, 2, srv.Received.Load(), "one failure, one retry")
					return
				}
				require.Error(t, err)
				assert.EqualValues(t, 1, srv.Received.Load(), "a record-creating call is never sent twice")
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
	for _, ep := range wiretest.Endpoints() {
		for _, code := range []int{400, 401, 402, 404, 422, 500} {
			t.Run(ep.Name+"/"+strconv.Itoa(code), func(t *testing.T) {
				t.Parallel()
				srv := wiretest.NewScriptedServer(t, ep, wiretest.Status(code))
				c := wiretest.NewLoopbackClient(t, srv.URL)

				_, err := ep.Call(context.Background(), c)
				var apiErr *insurance.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, code, apiErr.StatusCode)
				assert.EqualValues(t, 1, srv.Received.Load())
			})
		}
	}
}

// TestDialFailureIsRetriedForEveryCall: nothing was sent, so even a purchase is safe
// to try again; the error says how many attempts were made.
func TestDialFailureIsRetriedForEveryCall(t *testing.T) {
	const url = "http://127.0.0.1:1" // nothing listens, and no listener is given port 1

	for _, ep := range wiretest.Endpoints() {
		t.Run(ep.Name, func(t *testing.T) {
			c := wiretest.NewLoopbackClient(t, url)
			_, err := ep.Call(context.Background(), c)

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
	ep := wiretest.Endpoints()[0] // ListProducts
	srv := wiretest.NewScriptedServer(t, ep, wiretest.Status(503), wiretest.Status(503), wiretest.Status(503), wiretest.Status(503))
	c := wiretest.NewLoopbackClient(t, srv.URL)

	_, err := c.ListProducts(context.Background())
	var apiErr *insurance.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 503, apiErr.StatusCode)
	assert.Equal(t, 3, apiErr.Attempts)
	assert.Contains(t, err.Error(), "after 3 attempts")
	assert.ErrorIs(t, err, insurance.ErrServer)
	assert.EqualValues(t, 3, srv.Received.Load())
}

func TestMaxRetriesZeroSendsOnce(t *testing.T) {
	ep := wiretest.Endpoints()[0]
	srv := wiretest.NewScriptedServer(t, ep, wiretest.Status(503), wiretest.Status(429))
	c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithMaxRetries(0))

	_, err := c.ListProducts(context.Background())
	assert.ErrorIs(t, err, insurance.ErrServer)
	assert.EqualValues(t, 1, srv.Received.Load())
}

func TestRetryAfterIsCapped(t *testing.T) {
	ep := wiretest.Endpoints()[1] // QuoteTravel
	srv := wiretest.NewScriptedServer(t, ep, wiretest.Status(429, "Retry-After", "3600"))
	c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithMaxRetryAfter(50*time.Millisecond))

	start := time.Now()
	_, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 2*time.Second, "Retry-After: 3600 must not wait an hour")
	assert.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond, "the capped Retry-After is still honoured")
	assert.EqualValues(t, 2, srv.Received.Load())
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
			c, mt := wiretest.NewMockClient(t)
			mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/purchase/tuition", httpmock.NewErrorResponder(tc.err))

			_, err := c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
			require.Error(t, err)
			assert.Equal(t, tc.outcomeUnknown, errors.Is(err, insurance.ErrOutcomeUnknown))
			assert.Equal(t, tc.calls, mt.GetTotalCallCount())
		})
	}
}

// TestRetriesResendTheWholeBody: a retried call sends the same body and headers on
// every attempt. The pipeline rewinds the body itself (net/http's own resend, which
// rewinds too, plays no part behind a mock transport). contract/requests_test.go checks
// both attempts against api/openapi.yaml.
func TestRetriesResendTheWholeBody(t *testing.T) {
	for _, tc := range []struct {
		name   string
		path   string
		status int // answer to the first attempt
		call   func(context.Context, *insurance.Client) error
	}{
		{"quote after 503", "/v1/quote/travel", http.StatusServiceUnavailable, func(ctx context.Context, c *insurance.Client) error {
			_, err := c.QuoteTravel(ctx, wiretest.FullTravelQuote())
			return err
		}},
		{"purchase after 429", "/v1/purchase/tuition", http.StatusTooManyRequests, func(ctx context.Context, c *insurance.Client) error {
			_, err := c.PurchaseTuition(ctx, wiretest.FullTuitionPurchase())
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := wiretest.NewMockClient(t)
			rec := &wiretest.Recorder{}
			var calls atomic.Int32
			failFirst := rec.Respond(tc.status, `{}`)
			succeed := rec.Respond(http.StatusCreated, `{"quote_id":"q_1","policy_id":"pol_1"}`)
			mt.RegisterResponder(http.MethodPost, wiretest.BaseURL+tc.path, func(req *http.Request) (*http.Response, error) {
				if calls.Add(1) == 1 {
					return failFirst(req)
				}
				return succeed(req)
			})

			require.NoError(t, tc.call(context.Background(), c))
			require.Len(t, rec.Requests(), 2)
			first, retry := rec.Requests()[0], rec.Requests()[1]
			assert.NotEmpty(t, first.Body)
			assert.Equal(t, string(first.Body), string(retry.Body), "the retry's body")
			assert.Equal(t, first.Header, retry.Header, "the retry's headers")
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
	c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithMaxRetries(0))

	_, err := c.ListProducts(context.Background())
	require.NoError(t, err)
	_, err = c.ListProducts(context.Background())

	var apiErr *insurance.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusServiceUnavailable, apiErr.StatusCode)
	assert.EqualValues(t, 3, received.Load())
	assert.Equal(t, 2, apiErr.Attempts, "the server saw the second call twice")
}

// During a full outage the retry budget holds a burst of 64 goroutines making 20
// quotes each to at most 1.25 requests a call; without it every call sends three.
// Every call still ends with the service's answer, a 503.
func TestTheRetryBudgetBoundsAFullOutage(t *testing.T) {
	for _, tc := range []struct {
		name        string
		opts        []insurance.Option
		min, max    float64 // requests per call
		budgetSpent bool
	}{
		{"default budget", nil, 1.0, 1.25, true},
		{"no budget", []insurance.Option{insurance.WithRetryBudget(0, 0)}, 3.0, 3.0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
				srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Status: http.StatusServiceUnavailable})
				c := srv.Client(tc.opts...)

				errs := wiretest.InABurst(20, func() error { _, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote()); return err })

				require.Equal(t, 64*20, len(errs), "every call fails with the outage")
				refused := 0
				for _, err := range errs {
					var apiErr *insurance.APIError
					require.ErrorAs(t, err, &apiErr)
					require.ErrorIs(t, err, insurance.ErrServer)
					if apiErr.BudgetRefused {
						refused++
						assert.Contains(t, err.Error(), "retry budget is spent")
					}
				}
				perCall := float64(len(srv.Requests())) / (64 * 20)
				t.Logf("%d requests for %d calls: %.3f a call; %d retries refused", len(srv.Requests()), 64*20, perCall, refused)
				assert.GreaterOrEqual(t, perCall, tc.min)
				assert.LessOrEqual(t, perCall, tc.max)
				assert.Equal(t, tc.budgetSpent, refused > 0)
			})
		})
	}
}

// failEvery answers 503 to every nth first attempt of a call (attemptHeader says
// which attempt a request is), and passes the others on: a blip, which a retry
// outlasts. With n = 19, one attempt in 20 fails.
type failEvery struct {
	n             int64
	first, failed atomic.Int64
	seen          atomic.Int64
	next          http.RoundTripper
}

const attemptHeader = "Test-Attempt"

func (f *failEvery) RoundTrip(req *http.Request) (*http.Response, error) {
	f.seen.Add(1)
	if req.Header.Get(attemptHeader) == "1" && f.first.Add(1)%f.n == 0 {
		f.failed.Add(1)
		return &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{}, Body: http.NoBody, Request: req}, nil
	}
	return f.next.RoundTrip(req)
}

// attemptNumbers writes each attempt's number in attemptHeader.
type attemptNumbers struct{}

func (attemptNumbers) StartCall(ctx context.Context, _ insurance.CallInfo) context.Context {
	return ctx
}
func (attemptNumbers) StartAttempt(_ context.Context, attempt insurance.AttemptInfo) {
	attempt.SetHeader(attemptHeader, strconv.Itoa(attempt.Number))
}
func (attemptNumbers) EndCall(context.Context, insurance.CallInfo, insurance.CallResult) {}

// A blip is still retried at any volume: when one attempt in 20 fails, every call of
// a burst of 64 goroutines succeeds, with 20 calls each or with 200.
func TestTheRetryBudgetStillRetriesABlip(t *testing.T) {
	for _, each := range []int{20, 200} {
		inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
			blip := &failEvery{n: 19, next: srv.HTTPClient().Transport}
			c := srv.Client(insurance.WithHTTPClient(&http.Client{Transport: blip}), insurance.WithObserver(attemptNumbers{}))

			newQuote := wiretest.FullTravelQuote()
			newQuote.QuoteID = ""
			errs := wiretest.InABurst(each, func() error { _, err := c.QuoteTravel(context.Background(), newQuote); return err })

			assert.Zero(t, len(errs), "failed calls of %d", 64*each)
			assert.InDelta(t, 1.0/20, float64(blip.failed.Load())/float64(blip.seen.Load()), 0.0005, "one attempt in 20 failed")
			assert.Equal(t, int64(64*each)+blip.failed.Load(), blip.seen.Load(), "one retry per failed attempt")
		})
	}
}

// Clients derived with With draw on the budget of the client they came from: once
// one has spent it, the other's retries are refused too, and says so.
func TestDerivedClientsShareTheRetryBudget(t *testing.T) {
	inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Status: http.StatusServiceUnavailable})
		parent := srv.Client(insurance.WithRetryBudget(10, 5))
		derived, err := parent.With(insurance.WithUserAgent("agency-7"))
		require.NoError(t, err)

		_, err = parent.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
		require.ErrorIs(t, err, insurance.ErrServer)
		assert.Equal(t, 3, len(srv.Requests()), "the first call spends the budget on its two retries")

		_, err = derived.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
		var apiErr *insurance.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.True(t, apiErr.BudgetRefused)
		assert.True(t, strings.HasSuffix(err.Error(), "(not retried: the client's retry budget is spent)"), err.Error())
		assert.Equal(t, 4, len(srv.Requests()), "the derived client's call is sent once")

		own, err := parent.With(insurance.WithRetryBudget(10, 5))
		require.NoError(t, err)
		_, err = own.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
		require.ErrorAs(t, err, &apiErr)
		assert.False(t, apiErr.BudgetRefused, "WithRetryBudget gives a derived client a budget of its own")
		assert.Equal(t, 7, len(srv.Requests()))
	})
}

// A transport failure whose retry the budget refuses is a *RequestError that says so.
func TestARefusedRetryOfAFailedConnectionSaysSo(t *testing.T) {
	inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Drop: true})
		c := srv.Client(insurance.WithRetryBudget(5, 5))

		_, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
		var reqErr *insurance.RequestError
		require.ErrorAs(t, err, &reqErr)
		assert.Equal(t, 2, reqErr.Attempts)
		assert.True(t, reqErr.BudgetRefused)
		assert.Contains(t, err.Error(), "retry budget is spent")
		assert.False(t, errors.Is(err, insurance.ErrOutcomeUnknown))
	})
}
