package insurancetest_test

import (
	"context"
	"errors"
	"io"
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
)

// The outcome-unknown case: the policy was issued, the connection dropped before the
// answer. The SDK says "check before trying again", sends nothing twice, and the test
// finds the policy.
func TestProcessedThenDroppedPurchaseIsOutcomeUnknown(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Process: true, Drop: true})
		quoteID := srv.NewTuitionQuote("ada@example.com")

		_, err := srv.Client().PurchaseTuition(ctx, tuitionByCard(quoteID, insurancetest.CardOK))

		assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
		// a broken connection: over loopback the purchase's "100 Continue" came first,
		// so the answer broke off after it began
		assert.True(t, errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF), "a broken connection: %v", err)
		requests := srv.Requests()
		require.Len(t, requests, 1, "sent once, never again")
		assert.Zero(t, requests[0].StatusCode, "no answer went out")
		require.Len(t, srv.Policies(), 1, "the policy exists")
		assert.Equal(t, quoteID, srv.Policies()[0].QuoteID)
	})
}

// Without Process the request never reaches the sandbox's handling: no policy.
func TestDroppedPurchaseWithoutProcessCreatesNothing(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Drop: true})
		_, err := srv.Client().PurchaseTuition(ctx, tuitionByCard(srv.NewTuitionQuote("ada@example.com"), insurancetest.CardOK))
		assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown, "the SDK cannot know it was not processed")
		assert.Empty(t, srv.Policies())
	})
}

func TestProcessedThenFailedPurchaseIsSentOnce(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Process: true, Status: http.StatusServiceUnavailable})
		_, err := srv.Client().PurchaseTuition(ctx, tuitionByCard(srv.NewTuitionQuote("ada@example.com"), insurancetest.CardOK))
		assert.ErrorIs(t, err, insurance.ErrServer)
		assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
		assert.Len(t, srv.Requests(), 1)
		assert.Len(t, srv.Policies(), 1)
	})
}

func TestA503OnceOnAQuoteIsRetried(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: 1, Status: http.StatusServiceUnavailable})

		q, err := srv.Client().QuoteTravel(ctx, travelQuote("ada@example.com"))
		require.NoError(t, err)
		assert.True(t, q.Created)
		var statuses []int
		for _, r := range srv.Requests() {
			statuses = append(statuses, r.StatusCode)
		}
		assert.Equal(t, []int{503, 201}, statuses, "two requests logged: the 503 and the retry")
	})
}

func TestFaultsAnswerWhatProxiesAnswer(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		const page = "<html><body><h1>502 Bad Gateway</h1></body></html>"
		srv.Inject("GET /v1/products", insurancetest.Fault{Times: 1, Status: 502, Body: page, Header: http.Header{"Content-Type": {"text/html"}}})
		srv.Inject("GET /v1/products", insurancetest.Fault{Times: 1, Status: 429, Header: http.Header{"Retry-After": {"120"}}})
		client := srv.Client(insurance.WithMaxRetries(0))

		_, err := client.ListProducts(ctx)
		gateway := apiError(t, err)
		assert.Equal(t, 502, gateway.StatusCode)
		assert.Equal(t, page, string(gateway.Body))
		assert.Equal(t, "text/html", gateway.Header.Get("Content-Type"))

		_, err = client.ListProducts(ctx)
		limited := apiError(t, err)
		assert.ErrorIs(t, err, insurance.ErrRateLimited)
		assert.Equal(t, 2*time.Minute, limited.RetryAfter)

		_, err = client.ListProducts(ctx)
		assert.NoError(t, err, "faults on a route apply in the order injected, each its Times")
	})
}

func TestFaultsOnOtherRoutesAreIndependent(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/events", insurancetest.Fault{Status: 500}) // every request until Reset
		client := srv.Client(insurance.WithMaxRetries(0))

		for range 3 {
			_, err := client.CreateEvent(ctx, &insurance.CreateEventRequest{EventName: "x"})
			assert.ErrorIs(t, err, insurance.ErrServer)
		}
		_, err := client.ListProducts(ctx)
		assert.NoError(t, err)

		srv.Reset()
		_, err = client.CreateEvent(ctx, &insurance.CreateEventRequest{
			EventName: "x", EventStartDate: insurance.NewDate(2027, 1, 1), EventEndDate: insurance.NewDate(2027, 1, 1),
		})
		assert.NoError(t, err, "Reset forgets the fault")
	})
}

// A Delay slows one route only; a caller that gives up first sees its deadline, and
// without Process nothing was handled. In fake time, so the test waits for nothing.
func TestDelaySlowsOneRouteOnly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := insurancetest.NewServer(insurancetest.InMemory())
		srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Delay: 50 * time.Second}) // within the attempt bound
		client := srv.Client()

		start := time.Now()
		_, err := client.ListProducts(ctx)
		require.NoError(t, err)
		assert.Zero(t, time.Since(start), "other routes answer at once")

		deadline, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		_, err = client.PurchaseTuition(deadline, tuitionByCard(srv.NewTuitionQuote("ada@example.com"), insurancetest.CardOK))
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
		assert.Equal(t, 5*time.Second, time.Since(start))
		synctest.Wait()
		assert.Empty(t, srv.Policies(), "abandoned during the delay: not handled")
		assert.Zero(t, srv.Requests()[1].StatusCode)

		patient, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		_, err = client.PurchaseTuition(patient, tuitionByCard(srv.NewTuitionQuote("ada@example.com"), insurancetest.CardOK))
		assert.NoError(t, err, "a caller that waits gets the answer")
		assert.Equal(t, 5*time.Second+50*time.Second, time.Since(start))
	})
}

// 64 goroutines hit a route with an active fault: each request claims a whole fault,
// exactly Times of them fail, and the race detector has nothing to say.
func TestConcurrentRequestsEachSeeAWholeFault(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("GET /v1/products", insurancetest.Fault{Times: 100, Status: 503, Header: http.Header{"X-Fault": {"1"}}})
		client := srv.Client(insurance.WithMaxRetries(0))

		var failed, succeeded atomic.Int32
		var wg sync.WaitGroup
		for range 64 {
			wg.Go(func() {
				for range 10 {
					_, err := client.ListProducts(ctx)
					switch {
					case err == nil:
						succeeded.Add(1)
					case errors.Is(err, insurance.ErrServer) && apiError(t, err).Header.Get("X-Fault") == "1":
						failed.Add(1)
					default:
						t.Errorf("unexpected: %v", err)
					}
				}
			})
		}
		wg.Wait()
		assert.EqualValues(t, 100, failed.Load())
		assert.EqualValues(t, 540, succeeded.Load())
		assert.Len(t, srv.Requests(), 640)
	})
}

func TestInjectRefusesMistakes(t *testing.T) {
	srv := newSandbox(t)
	for _, tc := range []struct {
		route string
		fault insurancetest.Fault
		want  string
	}{
		{"POST /v1/purchase/tution", insurancetest.Fault{Status: 503}, `route "POST /v1/purchase/tution" is not one of the interface's; want one of "GET /v1/products", `},
		{"GET /v1/purchase/tuition", insurancetest.Fault{Status: 503}, "is not one of the interface's"},
		{"/v1/products", insurancetest.Fault{Status: 503}, "is not one of the interface's"},
		{"GET /v1/products", insurancetest.Fault{Status: 503, Drop: true}, "Drop and Status exclude each other"},
		{"GET /v1/products", insurancetest.Fault{}, "the fault does nothing"},
		{"GET /v1/products", insurancetest.Fault{Times: -1, Status: 503}, "Times is -1"},
		{"GET /v1/products", insurancetest.Fault{Status: 42}, "want an HTTP status"},
		{"GET /v1/products", insurancetest.Fault{Body: "x", Delay: time.Second}, "Body and Header go with a Status"},
	} {
		t.Run(tc.route+" "+tc.want, func(t *testing.T) {
			var recovered any
			func() {
				defer func() { recovered = recover() }()
				srv.Inject(tc.route, tc.fault)
			}()
			require.NotNil(t, recovered, "Inject must panic")
			assert.Contains(t, recovered, "insurancetest: Inject: ")
			assert.Contains(t, recovered, tc.want)
		})
	}
}
