package insurancetest_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// In memory, every call takes the path it takes over loopback: the same requests
// reach the sandbox, with the same headers (a purchase's Expect: 100-continue among
// them) over the same protocol, and each call ends the same way, faults, the guard
// below attempt middleware and a closed sandbox included. Only the network differs.
func TestInMemoryTakesTheLoopbackPath(t *testing.T) {
	loopback := runScript(t)
	inMemory := runScript(t, insurancetest.InMemory())

	assert.Equal(t, loopback.outcomes, inMemory.outcomes, "each call ends the same way")
	assert.Equal(t, loopback.sent, inMemory.sent, "the same requests go out over the same protocol")
	assert.Equal(t, loopback.received, inMemory.received, "the requests as the sandbox received them")

	// What the two runs share is what the SDK ships: a purchase asks before sending
	// its body, a quote does not.
	for _, r := range inMemory.received {
		switch r.Path {
		case "/v1/purchase/tuition", "/v1/purchase/gap-medical", "/v1/partners/onboard", "/v1/events":
			assert.Equal(t, "100-continue", r.Header.Get("Expect"), "%s %s", r.Method, r.Path)
		default:
			assert.Empty(t, r.Header.Get("Expect"), "%s %s", r.Method, r.Path)
		}
	}
	assert.Contains(t, inMemory.outcomes, outcome{Call: "purchase to a closed sandbox", Attempts: 3, Dial: true},
		"a purchase that could not connect provably sent nothing: retried, not outcome unknown")
}

// transcript is what one run of the script saw.
type transcript struct {
	outcomes []outcome
	sent     []string   // each request the Client handed to its pools, with the protocol of its answer
	received []received // each request as the sandbox received it
}

// received is a request as the sandbox received it, but for when.
type received struct {
	Method, Path, Auth, ClientID string
	Header                       http.Header
	Body                         string
	StatusCode                   int
}

// outcome is how a call ended, as a partner's code tells it apart.
type outcome struct {
	Call           string
	Status         int // of an *insurance.APIError; 0 for success or no answer
	Attempts       int // of a failed call
	OutcomeUnknown bool
	Broken         string // "EOF" or "unexpected EOF": the connection broke
	Dial           bool   // no connection could be made
}

// runScript calls every endpoint, then each again under a fault, on a seeded sandbox
// (the same ids in every run), and closes the sandbox before a last purchase.
func runScript(t *testing.T, opts ...insurancetest.Option) transcript {
	t.Helper()
	srv := insurancetest.NewServer(append(opts, insurancetest.WithSeed(1))...)
	defer srv.Close()
	var run transcript
	var mu sync.Mutex
	client := srv.Client(insurance.WithAttemptMiddleware(func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			resp, err := next.RoundTrip(req)
			answer := "no answer"
			if err == nil {
				answer = resp.Proto
			}
			mu.Lock()
			run.sent = append(run.sent, req.Method+" "+req.URL.Path+": "+answer)
			mu.Unlock()
			return resp, err
		})
	}))
	ended := func(call string, err error) {
		run.outcomes = append(run.outcomes, endOf(call, err))
	}

	_, err := client.ListProducts(ctx)
	ended("products", err)
	_, err = client.QuoteTravel(ctx, travelQuote("ada@example.com"))
	ended("travel quote", err)
	gapQuote, err := client.QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
	ended("gap-medical quote", err)
	require.NoError(t, err)
	secret, err := client.CreateCustomerSecret(ctx, "ada@example.com")
	ended("customer secret", err)
	require.NoError(t, err)
	_, err = client.PurchaseGapMedical(ctx, secret.Secret, &insurance.GapMedicalPurchaseRequest{
		QuoteID: gapQuote.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
	})
	ended("gap-medical purchase", err)
	_, err = client.PurchaseTuition(ctx, tuitionByCard(srv.NewTuitionQuote("ada@example.com"), insurancetest.CardOK))
	ended("tuition purchase", err)
	_, err = client.OnboardPartner(ctx, &insurance.OnboardPartnerRequest{
		EntityName: "Acme Travel", AdministrativeEmailAddress: "admin@acme.example",
		Country: insurance.CountryUS, Website: "https://acme.example",
	})
	ended("onboarding", err)
	_, err = client.CreateEvent(ctx, &insurance.CreateEventRequest{
		EventName: "Summit", EventStartDate: insurance.NewDate(2027, time.June, 1), EventEndDate: insurance.NewDate(2027, time.June, 1),
		EventCity: "Chicago", EventCountry: "US",
	})
	ended("event", err)

	srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: 1, Status: http.StatusServiceUnavailable})
	_, err = client.QuoteTravel(ctx, travelQuote("ada@example.com"))
	ended("travel quote after a 503", err)
	for _, f := range []struct {
		name  string
		fault insurancetest.Fault
	}{
		{"purchase answered 503", insurancetest.Fault{Times: 1, Status: http.StatusServiceUnavailable}},
		{"purchase dropped", insurancetest.Fault{Times: 1, Drop: true}},
		{"purchase processed, then dropped", insurancetest.Fault{Times: 1, Process: true, Drop: true}},
	} {
		srv.Inject("POST /v1/purchase/tuition", f.fault)
		_, err = client.PurchaseTuition(ctx, tuitionByCard(srv.NewTuitionQuote("ada@example.com"), insurancetest.CardOK))
		ended(f.name, err)
	}

	// The guard below attempt middleware: a request that lost its attempt's context
	// is refused unsent, as the SDK could no longer tell whether it was sent.
	careless := srv.Client(insurance.WithAttemptMiddleware(func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			return next.RoundTrip(req.WithContext(context.Background()))
		})
	}))
	_, err = careless.PurchaseTuition(ctx, tuitionByCard(srv.NewTuitionQuote("ada@example.com"), insurancetest.CardOK))
	ended("purchase through middleware that replaced its context", err)

	quoteID := srv.NewTuitionQuote("ada@example.com")
	srv.Close()
	_, err = client.PurchaseTuition(ctx, tuitionByCard(quoteID, insurancetest.CardOK))
	ended("purchase to a closed sandbox", err)

	for _, r := range srv.Requests() {
		run.received = append(run.received, received{
			Method: r.Method, Path: r.Path, Auth: r.Auth, ClientID: r.ClientID,
			Header: r.Header, Body: string(r.Body), StatusCode: r.StatusCode,
		})
	}
	return run
}

// endOf tells how a call ended.
func endOf(call string, err error) outcome {
	o := outcome{Call: call, OutcomeUnknown: errors.Is(err, insurance.ErrOutcomeUnknown)}
	var apiErr *insurance.APIError
	var reqErr *insurance.RequestError
	var opErr *net.OpError
	switch {
	case errors.As(err, &apiErr):
		o.Status, o.Attempts = apiErr.StatusCode, apiErr.Attempts
	case errors.As(err, &reqErr):
		o.Attempts = reqErr.Attempts
	}
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		o.Broken = "unexpected EOF"
	case errors.Is(err, io.EOF):
		o.Broken = "EOF"
	}
	o.Dial = errors.As(err, &opErr) && opErr.Op == "dial"
	return o
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// A Server made outside a testing/synctest bubble serves the calls made inside one in
// the bubble's fake time, and calls outside it again afterwards, with the SDK or
// without.
func TestInMemoryServesEachBubbleInItsOwnTime(t *testing.T) {
	srv := newSandbox(t, insurancetest.InMemory())
	call := func(t *testing.T) {
		resp, err := srv.HTTPClient().Get(srv.URL + "/sandbox/openapi.yaml")
		require.NoError(t, err)
		_, err = io.Copy(io.Discard, resp.Body)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		_, err = srv.Client().ListProducts(ctx)
		require.NoError(t, err)
	}

	call(t)
	for range 2 {
		synctest.Test(t, func(t *testing.T) {
			call(t)
			srv.Inject("GET /v1/products", insurancetest.Fault{Times: 1, Delay: time.Hour})
			start := time.Now()
			_, err := srv.Client(insurance.WithAttemptTimeout(0)).ListProducts(ctx) // waits out the Delay
			require.NoError(t, err)
			assert.Equal(t, time.Hour, time.Since(start), "the Delay, in fake time")
		})
	}
	call(t)
}

// The one decision InMemory's doc says differs. A GET that a Drop breaks on a reused
// connection is sent again at once over loopback, without a retry, so it succeeds
// with none allowed; in memory no connection is reused, and only a retry would send
// it again.
func TestAGETBrokenOnAReusedConnectionIsSentAgainOnlyOverLoopback(t *testing.T) {
	for _, tc := range []struct {
		name          string
		opts          []insurancetest.Option
		succeeds      bool
		startAttempts []int
	}{
		{"loopback", nil, true, []int{1, 2}},
		{"in memory", []insurancetest.Option{insurancetest.InMemory()}, false, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newSandbox(t, tc.opts...)
			obs := &attemptRecorder{}
			client := srv.Client(insurance.WithObserver(obs), insurance.WithMaxRetries(0))
			_, err := client.ListProducts(ctx) // leaves its connection idle over loopback
			require.NoError(t, err)

			srv.Inject("GET /v1/products", insurancetest.Fault{Times: 1, Drop: true})
			obs.attempts = nil
			_, err = client.ListProducts(ctx)
			assert.Equal(t, tc.succeeds, err == nil, "err: %v", err)
			assert.Equal(t, tc.startAttempts, obs.attempts, "StartAttempt's attempt numbers")
			assert.Equal(t, len(tc.startAttempts), obs.result.Attempts, "requests sent")
		})
	}
}

// attemptRecorder is an insurance.Observer that keeps the attempt numbers it is
// given and the last call's result. Calls are made one at a time.
type attemptRecorder struct {
	attempts []int
	result   insurance.CallResult
}

func (r *attemptRecorder) StartCall(ctx context.Context, _ insurance.CallInfo) context.Context {
	return ctx
}

func (r *attemptRecorder) StartAttempt(_ context.Context, attempt insurance.AttemptInfo) {
	r.attempts = append(r.attempts, attempt.Number)
}

func (r *attemptRecorder) EndCall(_ context.Context, _ insurance.CallInfo, result insurance.CallResult) {
	r.result = result
}
