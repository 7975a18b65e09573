package insurance_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
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

func TestOptionsCheckTheirInput(t *testing.T) {
	tests := map[string]insurance.Option{
		"empty credentials":       insurance.WithCredentials("", ""),
		"missing secret":          insurance.WithCredentials("id", ""),
		"colon in client id":      insurance.WithCredentials("a:b", "secret"),
		"empty client id":         insurance.WithClientID(""),
		"nil http client":         insurance.WithHTTPClient(nil),
		"negative retries":        insurance.WithMaxRetries(-1),
		"absurd retries":          insurance.WithMaxRetries(1000),
		"zero retry wait":         insurance.WithRetryWait(0, time.Second),
		"max below min":           insurance.WithRetryWait(time.Second, time.Millisecond),
		"negative retry-after":    insurance.WithMaxRetryAfter(-time.Second),
		"nil logger":              insurance.WithLogger(nil),
		"empty user agent":        insurance.WithUserAgent("  "),
		"header injection in UA":  insurance.WithUserAgent("shop/1.0\r\nX-Evil: 1"),
		"control character in UA": insurance.WithUserAgent("shop\x01"),
		"escape in UA":            insurance.WithUserAgent("shop\x1b[31m"),
		"C1 control in UA":        insurance.WithUserAgent("sh\u0085op"),
		"UA over 256 bytes":       insurance.WithUserAgent(strings.Repeat("a", 257)),
	}
	for name, opt := range tests {
		t.Run(name, func(t *testing.T) {
			c, err := insurance.NewClient(wiretest.BaseURL, opt)
			require.Error(t, err)
			assert.Nil(t, c)
			assert.Regexp(t, `^insurance: With`, err.Error())
		})
	}
}

func TestUserAgentIsTheSDKsFollowedByThePartners(t *testing.T) {
	c, mt := wiretest.NewMockClient(t, insurance.WithUserAgent("acme-shop/2.1"))
	var rec wiretest.Recorder
	mt.RegisterResponder("GET", wiretest.BaseURL+"/v1/products", rec.Respond(200, `[]`))

	_, err := c.ListProducts(context.Background())
	require.NoError(t, err)
	assert.Regexp(t, `^insurance-go/`+insurance.Version+` go/go[0-9.]+\S* acme-shop/2\.1$`, only(t, &rec).Header.Get("User-Agent"))
}

func TestWithObserverRefusesNil(t *testing.T) {
	_, err := insurance.NewClient(wiretest.BaseURL, insurance.WithObserver(nil))
	assert.ErrorContains(t, err, "WithObserver needs a non-nil Observer")
}

// protocolLog is attempt middleware that notes the protocol of every answer it passes.
type protocolLog struct {
	mu    sync.Mutex
	seen  map[string][]int // path -> ProtoMajor of each answer
	pools int              // transports it was asked to wrap
}

func (l *protocolLog) wrap(next http.RoundTripper) http.RoundTripper {
	l.pools++
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(req)
		if err == nil {
			l.mu.Lock()
			l.seen[req.URL.Path] = append(l.seen[req.URL.Path], resp.ProtoMajor)
			l.mu.Unlock()
		}
		return resp, err
	})
}

// Attempt middleware sees every attempt, while the SDK keeps its own pools beneath
// it: over TLS, quotes ride HTTP/2 and purchases the HTTP/1.1 pool. It wraps each
// of the three routes once: idempotent, records, records on a connection of their
// own.
func TestAttemptMiddlewareKeepsTheSDKsPools(t *testing.T) {
	srv, _, _ := wiretest.CountingTLSServer(t, true, wiretest.CreatedBody)
	log := &protocolLog{seen: map[string][]int{}}
	transport := insurance.NewTransport()
	transport.TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig
	c, err := insurance.NewClient(srv.URL, insurance.WithCredentials(wiretest.ClientID, wiretest.ClientSecret),
		insurance.WithHTTPClient(&http.Client{Transport: transport}), insurance.WithAttemptMiddleware(log.wrap))
	require.NoError(t, err)

	for range 3 {
		_, err = c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
		require.NoError(t, err)
		_, err = c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
		require.NoError(t, err)
	}
	assert.Equal(t, 3, log.pools, "one wrap per route")
	assert.Equal(t, []int{2, 2, 2}, log.seen["/v1/quote/travel"])
	assert.Equal(t, []int{1, 1, 1}, log.seen["/v1/purchase/tuition"])
}

// Attempt middleware sees each retry as an attempt of its own.
func TestAttemptMiddlewareSeesEveryAttempt(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	log := &protocolLog{seen: map[string][]int{}}
	c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithAttemptMiddleware(log.wrap))

	_, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.ErrorIs(t, err, insurance.ErrServer)
	assert.Len(t, log.seen["/v1/quote/travel"], 3)
}

// Attempt middleware that retries by itself (as retrying RoundTrippers do) is refused
// its second send: the first may have been processed, and retrying is the SDK's job.
// The purchase is processed once.
func TestAttemptMiddlewareCannotSendARequestTwice(t *testing.T) {
	var processed atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		processed.Add(1)
		w.WriteHeader(http.StatusInternalServerError) // processed, then failed to answer
	}))
	defer srv.Close()
	retrying := func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := next.RoundTrip(r)
			if err != nil || resp.StatusCode < 500 {
				return resp, err
			}
			_ = resp.Body.Close()
			again := r.Clone(r.Context())
			if again.Body, err = r.GetBody(); err != nil {
				return nil, err
			}
			return next.RoundTrip(again)
		})
	}
	c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithAttemptMiddleware(retrying))

	err := wiretest.BuyTuition(context.Background(), c, "q_1")

	assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
	assert.ErrorContains(t, err, "attempt middleware sent the request again")
	assert.Equal(t, int32(1), processed.Load())
}

// WithAttemptMiddleware given again wraps the middleware given before: both see every
// attempt, the later one outermost.
func TestAttemptMiddlewareGivenAgainWrapsTheOneBefore(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `[]`)
	}))
	defer srv.Close()
	var order []string
	named := func(name string) func(http.RoundTripper) http.RoundTripper {
		return func(next http.RoundTripper) http.RoundTripper {
			return roundTripFunc(func(r *http.Request) (*http.Response, error) {
				order = append(order, name)
				return next.RoundTrip(r)
			})
		}
	}
	parent := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithAttemptMiddleware(named("inner")))
	derived, err := parent.With(insurance.WithAttemptMiddleware(named("outer")))
	require.NoError(t, err)

	_, err = derived.ListProducts(context.Background())
	require.NoError(t, err)
	assert.Equal(t, []string{"outer", "inner"}, order)
}

// The SDK never sends or keeps a cookie (the interface has none): a Jar on the
// caller's *http.Client is not used, so clients derived with With, one per agency,
// share nothing through it.
func TestTheSDKNeverSendsOrKeepsACookie(t *testing.T) {
	var cookiesSent atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(r.Cookies()) > 0 {
			cookiesSent.Add(1)
		}
		http.SetCookie(w, &http.Cookie{Name: "session", Value: "agency-a", Path: "/"})
		_, _ = io.WriteString(w, `[]`)
	}))
	defer srv.Close()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	agencyA := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithHTTPClient(&http.Client{Jar: jar}))
	agencyB, err := agencyA.With(insurance.WithCredentials("ci_agency_b", "cs_agency_b"))
	require.NoError(t, err)

	for _, c := range []*insurance.Client{agencyA, agencyB, agencyA} {
		_, err := c.ListProducts(context.Background())
		require.NoError(t, err)
	}
	assert.Zero(t, cookiesSent.Load(), "no request carried a cookie")
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	assert.Empty(t, jar.Cookies(u), "the jar kept nothing")
}

// A Client whose caller chose no bound never hangs, even under context.Background():
// a purchase the server holds for a day ends after DefaultAttemptTimeout, outcome
// unknown once its body went out; a quote after its three attempts. WithAttemptTimeout(0)
// removes the bound, and the *http.Client's own Timeout stands in for it.
func TestADefaultClientNeverHangs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := insurancetest.NewServer(insurancetest.InMemory())
		defer srv.Close()
		purchase := &insurance.TuitionPurchaseRequest{QuoteID: srv.NewTuitionQuote("ada@example.com"),
			PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK}}
		srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Delay: 24 * time.Hour})
		srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Delay: 24 * time.Hour})
		ctx := context.Background()
		quote := wiretest.FullTravelQuote()
		quote.QuoteID = "" // a new one

		start := time.Now()
		_, err := srv.Client().PurchaseTuition(ctx, purchase)
		assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.ErrorContains(t, err, "no answer within the attempt timeout of 1m0s")
		assert.Equal(t, insurance.DefaultAttemptTimeout, time.Since(start), "one attempt: it may have been processed")

		start = time.Now()
		_, err = srv.Client().QuoteTravel(ctx, quote)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		took := time.Since(start)
		assert.GreaterOrEqual(t, took, 3*insurance.DefaultAttemptTimeout, "three attempts")
		assert.Less(t, took, 3*insurance.DefaultAttemptTimeout+time.Second, "and the sandbox client's short waits")

		start = time.Now()
		_, err = srv.Client(insurance.WithHTTPClient(&http.Client{Transport: srv.HTTPClient().Transport, Timeout: 5 * time.Second}),
			insurance.WithMaxRetries(0)).QuoteTravel(ctx, quote)
		assert.Error(t, err)
		assert.Equal(t, 5*time.Second, time.Since(start), "the *http.Client's Timeout is the caller's bound")

		start = time.Now()
		_, err = srv.Client(insurance.WithAttemptTimeout(0)).QuoteTravel(ctx, quote)
		assert.NoError(t, err, "unbounded, the call waits out the day")
		assert.Equal(t, 24*time.Hour, time.Since(start))
	})
}
