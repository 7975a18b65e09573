package insurance_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// callLog is an Observer that writes down what it is shown.
type callLog struct {
	name   string
	mu     sync.Mutex
	events []string
	ends   []insurance.CallResult
	urls   []string
	shared *[]string // when set, every observer of a test appends here too, in order
}

type callLogKey struct{ name string }

func (l *callLog) note(e string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, e)
	if l.shared != nil {
		*l.shared = append(*l.shared, l.name+" "+e)
	}
}

func (l *callLog) StartCall(ctx context.Context, call insurance.CallInfo) context.Context {
	l.note(fmt.Sprintf("start %s %s %s:%d record=%v", call.Method, call.Route, call.ServerAddress, call.ServerPort, call.CreatesRecord))
	l.mu.Lock()
	l.urls = append(l.urls, call.URL)
	l.mu.Unlock()
	return context.WithValue(ctx, callLogKey{l.name}, "span of "+call.Route)
}

func (l *callLog) StartAttempt(ctx context.Context, attempt insurance.AttemptInfo) {
	l.note(fmt.Sprintf("attempt %d in %v", attempt.Number, ctx.Value(callLogKey{l.name})))
	attempt.SetHeader("Traceparent", fmt.Sprintf("00-trace-%d-01", attempt.Number))
	attempt.SetHeader("Authorization", "Bearer stolen")  // refused: the SDK owns it
	attempt.SetHeader("x-api-client-id", "someone-else") // refused too
	attempt.SetHeader("X-Split", "a\r\nX-Injected: 1")   // and what net/http would refuse to send
	attempt.SetHeader("Bad Name", "v")
}

func (l *callLog) EndCall(ctx context.Context, call insurance.CallInfo, result insurance.CallResult) {
	l.note(fmt.Sprintf("end %s in %v", call.Route, ctx.Value(callLogKey{l.name})))
	l.mu.Lock()
	l.ends = append(l.ends, result)
	l.mu.Unlock()
}

// An observer sees each call once around all its attempts, and each attempt once;
// the context it returns from StartCall is the call's.
func TestObserverSeesEachCallOnceAroundItsAttempts(t *testing.T) {
	ep := wiretest.Endpoints()[1] // QuoteTravel
	srv := wiretest.NewScriptedServer(t, ep, wiretest.Status(http.StatusServiceUnavailable, "X-Request-Id", "req_503"))
	var seen []http.Header
	var mu sync.Mutex
	inner := srv.Config.Handler
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Clone())
		mu.Unlock()
		w.Header().Set("X-Request-Id", "req_ok")
		inner.ServeHTTP(w, r)
	})
	log := &callLog{name: "log"}
	c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithObserver(log))

	_, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.NoError(t, err)

	assert.Equal(t, []string{
		fmt.Sprintf("start POST /v1/quote/travel 127.0.0.1:%d record=false", srv.Listener.Addr().(*net.TCPAddr).Port),
		"attempt 1 in span of /v1/quote/travel",
		"attempt 2 in span of /v1/quote/travel",
		"end /v1/quote/travel in span of /v1/quote/travel",
	}, log.events)
	require.Len(t, log.ends, 1)
	assert.Equal(t, insurance.CallResult{Attempts: 2, StatusCode: 201, RequestID: "req_ok"}, log.ends[0])
	assert.Equal(t, []string{srv.URL + "/v1/quote/travel"}, log.urls)

	require.Len(t, seen, 2)
	for i, h := range seen {
		assert.Equal(t, fmt.Sprintf("00-trace-%d-01", i+1), h.Get("Traceparent"), "each attempt carries its own header")
		assert.Equal(t, wiretest.BasicHeader, h.Get("Authorization"), "an observer cannot replace the credentials")
		assert.Empty(t, h.Get(insurance.HeaderClientID))
	}
}

// A failed purchase is reported with its status and whether its outcome is unknown.
func TestObserverSeesFailuresAndOutcomeUnknown(t *testing.T) {
	for _, tc := range []struct {
		name           string
		status         int
		outcomeUnknown bool
	}{
		{"declined", http.StatusPaymentRequired, false},
		{"gateway failure", http.StatusServiceUnavailable, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ep := wiretest.Endpoints()[3] // PurchaseTuition
			srv := wiretest.NewScriptedServer(t, ep, wiretest.Status(tc.status))
			log := &callLog{name: "log"}
			c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithObserver(log))

			_, err := c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
			require.Error(t, err)
			require.Len(t, log.ends, 1)
			end := log.ends[0]
			assert.Equal(t, 1, end.Attempts)
			assert.Equal(t, tc.status, end.StatusCode)
			assert.Equal(t, tc.outcomeUnknown, end.OutcomeUnknown)
			assert.Equal(t, err, end.Err)
			assert.Contains(t, log.events[0], "record=true")
		})
	}
}

// A call refused locally is observed too, with no attempt.
func TestObserverSeesCallsRefusedLocally(t *testing.T) {
	log := &callLog{name: "log"}
	c, err := insurance.NewClient(wiretest.BaseURL, insurance.WithClientID(wiretest.ClientID), insurance.WithObserver(log))
	require.NoError(t, err)

	_, err = c.ListProducts(context.Background())
	require.ErrorIs(t, err, insurance.ErrMissingCredentials)
	assert.Equal(t, []string{
		"start GET /v1/products api.insurance.test:443 record=false",
		"end /v1/products in span of /v1/products",
	}, log.events)
	assert.Zero(t, log.ends[0].Attempts)
}

// Observers start in the order given and end in the reverse order.
func TestObserversNest(t *testing.T) {
	_, mt := wiretest.NewMockClient(t)
	var order []string
	outer := &callLog{name: "outer", shared: &order}
	inner := &callLog{name: "inner", shared: &order}
	c, err := insurance.NewClient(wiretest.BaseURL,
		insurance.WithCredentials(wiretest.ClientID, wiretest.ClientSecret),
		insurance.WithHTTPClient(&http.Client{Transport: mt}),
		insurance.WithObserver(outer), insurance.WithObserver(inner))
	require.NoError(t, err)
	mt.RegisterResponder("GET", wiretest.BaseURL+"/v1/products", (&wiretest.Recorder{}).Respond(200, `[]`))

	_, err = c.ListProducts(context.Background())
	require.NoError(t, err)
	assert.Equal(t, []string{
		"outer start GET /v1/products api.insurance.test:443 record=false",
		"inner start GET /v1/products api.insurance.test:443 record=false",
		"outer attempt 1 in span of /v1/products",
		"inner attempt 1 in span of /v1/products",
		"inner end /v1/products in span of /v1/products",
		"outer end /v1/products in span of /v1/products",
	}, order)
}

// A panic below a call (here in attempt middleware) reaches the observers as the
// call's error, and then goes on to the caller as it was.
func TestObserversHearOfAPanicBelowTheCall(t *testing.T) {
	ep := wiretest.Endpoints()[3] // PurchaseTuition
	srv := wiretest.NewScriptedServer(t, ep, wiretest.Status(http.StatusCreated))
	log := &callLog{name: "log"}
	panics := func(http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(*http.Request) (*http.Response, error) { panic("middleware broke") })
	}
	c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithObserver(log), insurance.WithAttemptMiddleware(panics))

	assert.PanicsWithValue(t, "middleware broke", func() {
		_, _ = c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
	})
	require.Len(t, log.ends, 1)
	assert.EqualError(t, log.ends[0].Err, "insurance: POST /v1/purchase/tuition panicked: middleware broke")
}

// The request the SDK sends again itself over HTTP/1.1 is the next attempt, even
// when no connection carried the one before: here attempt middleware asks GetBody
// itself, which the SDK takes for net/http asking to resend (and the call fails).
func TestTheSDKsOwnResendIsTheNextAttempt(t *testing.T) {
	ep := wiretest.Endpoints()[0] // ListProducts
	srv := wiretest.NewScriptedServer(t, ep, wiretest.Status(http.StatusOK))
	log := &callLog{name: "log"}
	rewinds := func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if _, err := r.GetBody(); err != nil {
				return nil, err
			}
			return next.RoundTrip(r)
		})
	}
	c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithObserver(log), insurance.WithAttemptMiddleware(rewinds), insurance.WithMaxRetries(0))

	_, err := c.ListProducts(context.Background())
	require.Error(t, err)
	var attempts []string
	for _, e := range log.events {
		if strings.HasPrefix(e, "attempt") {
			attempts = append(attempts, e)
		}
	}
	assert.Equal(t, []string{"attempt 1 in span of /v1/products", "attempt 2 in span of /v1/products"}, attempts)
}
