package insuranceotel_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/trace"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
	insuranceotel "github.com/partnerinsure/insurance-go/otel"
)

// A call is one span, whatever its retries; the span counts the attempts, every
// attempt the sandbox logged carries the span's trace context, and the metrics count
// the call once and its retries.
func TestOneSpanPerCallAroundItsAttempts(t *testing.T) {
	for _, tc := range []struct {
		name        string
		unavailable int // 503s the sandbox answers before the quote
		attempts    int
	}{
		{"first attempt answers", 0, 1},
		{"one 503 then 201", 1, 2},
		{"two 503s then 201", 2, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newSandbox(t)
			if tc.unavailable > 0 {
				srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: tc.unavailable, Status: http.StatusServiceUnavailable})
			}
			tel := newTelemetry()

			_, err := srv.Client(tel.instrument()).QuoteTravel(context.Background(), travelQuote(""))
			require.NoError(t, err)

			span := tel.onlySpan(t)
			assert.Equal(t, "POST /v1/quote/travel", span.Name())
			assert.Equal(t, trace.SpanKindClient, span.SpanKind())
			assert.Equal(t, codes.Unset, span.Status().Code)
			assert.Equal(t, insuranceotel.ScopeName, span.InstrumentationScope().Name)
			port := portOf(t, srv.URL)
			assert.Equal(t, map[string]string{
				"http.request.method":       "POST",
				"http.route":                "/v1/quote/travel",
				"url.template":              "/v1/quote/travel",
				"url.full":                  srv.URL + "/v1/quote/travel",
				"url.scheme":                "http",
				"server.address":            "127.0.0.1",
				"server.port":               port,
				"http.response.status_code": "201",
				"insurance.attempts":        fmt.Sprint(tc.attempts),
			}, attrs(span.Attributes()))
			assert.Empty(t, span.Events())

			requests := srv.Requests()
			require.Len(t, requests, tc.attempts, "the sandbox logged every attempt")
			for i, req := range requests {
				assert.Equal(t, "POST /v1/quote/travel", req.Method+" "+req.Path)
				status := http.StatusCreated
				if i < tc.unavailable {
					status = http.StatusServiceUnavailable
				}
				assert.Equal(t, status, req.StatusCode, "attempt %d", i+1)
				assert.Equal(t, traceparent(span), req.Header.Get("Traceparent"), "attempt %d carries the call span's context", i+1)
			}

			metrics := tel.collect(t)
			duration := metrics["http.client.request.duration"]
			assert.Equal(t, "s", duration.Unit)
			hist := duration.Data.(metricdata.Histogram[float64])
			require.Len(t, hist.DataPoints, 1)
			assert.Equal(t, uint64(1), hist.DataPoints[0].Count, "one measure per call")
			assert.Equal(t, map[string]string{
				"http.request.method":       "POST",
				"http.route":                "/v1/quote/travel",
				"url.template":              "/v1/quote/travel",
				"url.scheme":                "http",
				"server.address":            "127.0.0.1",
				"server.port":               port,
				"http.response.status_code": "201",
			}, attrs(hist.DataPoints[0].Attributes.ToSlice()), "no url.full on metrics")

			retries, ok := metrics[insuranceotel.RetriesMetric]
			if tc.attempts == 1 {
				assert.False(t, ok, "no retry, nothing counted")
				return
			}
			assert.Equal(t, "{retry}", retries.Unit)
			sum := retries.Data.(metricdata.Sum[int64])
			require.Len(t, sum.DataPoints, 1)
			assert.Equal(t, int64(tc.attempts-1), sum.DataPoints[0].Value)
			assert.Equal(t, attrs(hist.DataPoints[0].Attributes.ToSlice()), attrs(sum.DataPoints[0].Attributes.ToSlice()),
				"both metrics carry the same attributes")
		})
	}
}

// A failed call is marked: status Error, error.type, whether its outcome is unknown,
// its attempts; and so is its measure. The sandbox fails each call as a network or a
// proxy would, and its log and records show what really happened.
func TestFailuresAreMarked(t *testing.T) {
	const email = "ada@example.com"
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		// given sets up the sandbox's records and faults before the call, and returns
		// the quote id the call uses; nil for none.
		given          func(t *testing.T, srv *insurancetest.Server) string
		call           func(srv *insurancetest.Server, opt insurance.Option, quoteID string) error
		errorType      string
		status         string // "" when no answer came
		attempts       int
		abandoned      bool // the caller gave up: its request may not have reached the sandbox
		outcomeUnknown bool
		policies       int // the policies the sandbox holds afterwards
		description    string
		why            string // insurance.why: where the last request got, when no usable answer came
	}{
		{
			name:  "402 declined card",
			given: func(t *testing.T, srv *insurancetest.Server) string { return srv.NewTuitionQuote(email) },
			call: func(srv *insurancetest.Server, opt insurance.Option, quoteID string) error {
				_, err := srv.Client(opt).PurchaseTuition(ctx, tuitionPurchase(quoteID, card(insurancetest.CardDeclined)))
				return err
			},
			errorType: "402", status: "402", attempts: 1,
		},
		{
			name: "422 quote already bought",
			given: func(t *testing.T, srv *insurancetest.Server) string {
				travel, err := srv.Client().QuoteTravel(ctx, travelQuote(""))
				require.NoError(t, err)
				require.NoError(t, srv.MarkPurchased(travel.QuoteID))
				return travel.QuoteID
			},
			call: func(srv *insurancetest.Server, opt insurance.Option, quoteID string) error {
				_, err := srv.Client(opt).QuoteTravel(ctx, travelQuote(quoteID))
				return err
			},
			errorType: "422", status: "422", attempts: 1, policies: 1,
		},
		{
			name: "503 on every attempt of a quote",
			given: func(t *testing.T, srv *insurancetest.Server) string {
				srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Status: http.StatusServiceUnavailable})
				return ""
			},
			call: func(srv *insurancetest.Server, opt insurance.Option, _ string) error {
				_, err := srv.Client(opt).QuoteTravel(ctx, travelQuote(""))
				return err
			},
			errorType: "503", status: "503", attempts: 3,
		},
		{
			name: "503 on a purchase: outcome unknown",
			given: func(t *testing.T, srv *insurancetest.Server) string {
				srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Status: http.StatusServiceUnavailable})
				return srv.NewTuitionQuote(email)
			},
			call: func(srv *insurancetest.Server, opt insurance.Option, quoteID string) error {
				_, err := srv.Client(opt).PurchaseTuition(ctx, tuitionPurchase(quoteID, card(insurancetest.CardOK)))
				return err
			},
			errorType: "503", status: "503", attempts: 1, outcomeUnknown: true,
			description: "outcome unknown: check before trying again",
		},
		{
			name: "purchase dropped before it was processed: outcome unknown",
			given: func(t *testing.T, srv *insurancetest.Server) string {
				srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Drop: true})
				return srv.NewTuitionQuote(email)
			},
			call: func(srv *insurancetest.Server, opt insurance.Option, quoteID string) error {
				_, err := srv.Client(opt).PurchaseTuition(ctx, tuitionPurchase(quoteID, card(insurancetest.CardOK)))
				return err
			},
			errorType: "connection", attempts: 1, outcomeUnknown: true,
			description: "outcome unknown: check before trying again",
			why:         "the body went out and the connection closed before an answer",
		},
		{
			name: "purchase processed, then dropped without an answer: outcome unknown",
			given: func(t *testing.T, srv *insurancetest.Server) string {
				srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Process: true, Drop: true})
				return srv.NewTuitionQuote(email)
			},
			call: func(srv *insurancetest.Server, opt insurance.Option, quoteID string) error {
				_, err := srv.Client(opt).PurchaseTuition(ctx, tuitionPurchase(quoteID, card(insurancetest.CardOK)))
				return err
			},
			errorType: "connection", attempts: 1, outcomeUnknown: true, policies: 1,
			description: "outcome unknown: check before trying again",
			why:         "the body went out and the connection closed before an answer",
		},
		{
			name: "context deadline",
			given: func(t *testing.T, srv *insurancetest.Server) string {
				srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: 1, Delay: 10 * time.Second})
				return ""
			},
			call: func(srv *insurancetest.Server, opt insurance.Option, _ string) error {
				ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
				defer cancel()
				_, err := srv.Client(opt).QuoteTravel(ctx, travelQuote(""))
				return err
			},
			errorType: "timeout", attempts: 1, abandoned: true, description: "timeout",
			why: "the request went out and the context ended before an answer",
		},
		{
			name: "2xx that is not JSON, on every attempt of a quote",
			given: func(t *testing.T, srv *insurancetest.Server) string {
				srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Status: http.StatusCreated, Body: "<html>"})
				return ""
			},
			call: func(srv *insurancetest.Server, opt insurance.Option, _ string) error {
				_, err := srv.Client(opt).QuoteTravel(ctx, travelQuote(""))
				return err
			},
			errorType: "invalid_response", status: "201", attempts: 3, description: "invalid_response",
			why: "the server answered 201 Created, but its body is cut or not JSON",
		},
		{
			name: "refused locally: missing credentials",
			call: func(srv *insurancetest.Server, opt insurance.Option, _ string) error {
				_, err := srv.Client(insurance.WithClientID(srv.ClientID), opt).ListProducts(ctx)
				return err
			},
			errorType: "missing_credentials", attempts: 0, description: "missing_credentials",
		},
		{
			name: "refused locally: invalid request",
			call: func(srv *insurancetest.Server, opt insurance.Option, _ string) error {
				_, err := srv.Client(opt).PurchaseGapMedical(ctx, "cus_sec_x", &insurance.GapMedicalPurchaseRequest{})
				return err
			},
			errorType: "invalid_request", attempts: 0, description: "invalid_request",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newSandbox(t)
			quoteID := ""
			if tc.given != nil {
				quoteID = tc.given(t, srv)
			}
			before := len(srv.Requests())
			tel := newTelemetry()
			err := tc.call(srv, tel.instrument(), quoteID)
			require.Error(t, err)

			span := tel.onlySpan(t)
			assert.Equal(t, codes.Error, span.Status().Code)
			assert.Equal(t, tc.description, span.Status().Description)
			assert.Empty(t, span.Events(), "errors are not recorded as events")
			got := attrs(span.Attributes())
			assert.Equal(t, tc.errorType, got["error.type"])
			assert.Equal(t, fmt.Sprint(tc.outcomeUnknown), got["insurance.outcome_unknown"])
			assert.Equal(t, fmt.Sprint(tc.attempts), got["insurance.attempts"])
			assert.Equal(t, tc.status, got["http.response.status_code"])
			assert.Equal(t, tc.why, got["insurance.why"])

			sent := srv.Requests()[before:]
			if tc.abandoned {
				assert.LessOrEqual(t, len(sent), tc.attempts)
			} else {
				assert.Len(t, sent, tc.attempts, "the sandbox logged every attempt, and nothing else")
			}
			for i, req := range sent {
				assert.Equal(t, traceparent(span), req.Header.Get("Traceparent"), "attempt %d carries the call span's context", i+1)
			}
			assert.Len(t, srv.Policies(), tc.policies)

			metrics := tel.collect(t)
			if tc.attempts == 0 {
				assert.NotContains(t, metrics, "http.client.request.duration", "nothing was sent")
				return
			}
			hist := metrics["http.client.request.duration"].Data.(metricdata.Histogram[float64])
			require.Len(t, hist.DataPoints, 1)
			point := attrs(hist.DataPoints[0].Attributes.ToSlice())
			assert.Equal(t, tc.errorType, point["error.type"])
			assert.Equal(t, fmt.Sprint(tc.outcomeUnknown), point["insurance.outcome_unknown"])
			assert.Equal(t, tc.status, point["http.response.status_code"])
		})
	}
}

// The call span is a child of the caller's span: the whole call joins the caller's
// trace, on the wire too.
func TestCallSpanJoinsTheCallersTrace(t *testing.T) {
	srv := newSandbox(t)
	srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: 1, Status: http.StatusServiceUnavailable})
	tel := newTelemetry()
	ctx, parent := tel.tp.Tracer("test").Start(context.Background(), "checkout")

	_, err := srv.Client(tel.instrument()).QuoteTravel(ctx, travelQuote(""))
	require.NoError(t, err)
	parent.End()

	ended := tel.spans.Ended()
	require.Len(t, ended, 2)
	call := ended[0]
	assert.Equal(t, parent.SpanContext().SpanID(), call.Parent().SpanID())
	assert.Equal(t, parent.SpanContext().TraceID(), call.SpanContext().TraceID())
	requests := srv.Requests()
	require.Len(t, requests, 2, "a 503, then the quote")
	for _, req := range requests {
		assert.Contains(t, req.Header.Get("Traceparent"), "-"+parent.SpanContext().TraceID().String()+"-")
	}
}

// Each attempt's request context carries the call's span, so a tracing transport
// (otelhttp) makes its attempt spans children of the call's.
func TestAttemptsSeeTheCallSpan(t *testing.T) {
	srv := newSandbox(t)
	srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: 1, Status: http.StatusServiceUnavailable})
	tel := newTelemetry()
	var seen []trace.SpanContext
	transport := roundTripper(func(req *http.Request) (*http.Response, error) {
		seen = append(seen, trace.SpanContextFromContext(req.Context()))
		return http.DefaultTransport.RoundTrip(req)
	})
	c := srv.Client(insurance.WithHTTPClient(&http.Client{Transport: transport}), tel.instrument())

	_, err := c.QuoteTravel(context.Background(), travelQuote(""))
	require.NoError(t, err)
	span := tel.onlySpan(t)
	require.Len(t, seen, 2)
	for _, sc := range seen {
		assert.Equal(t, span.SpanContext().SpanID(), sc.SpanID())
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// The trace context goes out in W3C traceparent by default, whatever the global
// propagator; WithPropagator replaces it.
func TestWithPropagator(t *testing.T) {
	member, err := baggage.NewMember("tenant", "acme")
	require.NoError(t, err)
	bag, err := baggage.New(member)
	require.NoError(t, err)
	ctx := baggage.ContextWithBaggage(context.Background(), bag)

	for _, tc := range []struct {
		name        string
		opts        []insuranceotel.Option
		traceparent bool
		baggage     string
	}{
		{"default: trace context only", nil, true, ""},
		{"nil keeps the default", []insuranceotel.Option{insuranceotel.WithPropagator(nil)}, true, ""},
		{"baggage only", []insuranceotel.Option{insuranceotel.WithPropagator(propagation.Baggage{})}, false, "tenant=acme"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newSandbox(t)
			_, err := srv.Client(newTelemetry().instrument(tc.opts...)).QuoteTravel(ctx, travelQuote(""))
			require.NoError(t, err)

			requests := srv.Requests()
			require.Len(t, requests, 1)
			got := requests[0].Header
			assert.Equal(t, tc.traceparent, got.Get("Traceparent") != "")
			assert.Equal(t, tc.baggage, got.Get("Baggage"))
		})
	}
}

// Span names and methods follow the HTTP conventions, for Do too, and url.full is the
// base URL, its path included, and the path given to Do.
func TestSpanNames(t *testing.T) {
	// The sandbox serves only the interface's routes; Do may call any.
	srv := httptest.NewServer(answerAnything)
	t.Cleanup(srv.Close)
	base := srv.URL + "/partner-api"
	for _, tc := range []struct {
		method, path   string
		name           string
		attrMethod     string
		methodOriginal string
	}{
		{"GET", "/v1/things", "GET /v1/things", "GET", ""},
		{"PUT", "/v1/things", "PUT /v1/things", "PUT", ""},
		{"PURGE", "/v1/things", "HTTP /v1/things", "_OTHER", "PURGE"},
	} {
		t.Run(tc.method, func(t *testing.T) {
			tel := newTelemetry()
			c, err := insurance.NewClient(base, insurance.WithCredentials("client_1", "secret_1"), tel.instrument())
			require.NoError(t, err)
			_, err = c.Do(context.Background(), tc.method, tc.path, insurance.AuthBasic, nil, nil)
			require.NoError(t, err)

			span := tel.onlySpan(t)
			assert.Equal(t, tc.name, span.Name())
			got := attrs(span.Attributes())
			assert.Equal(t, tc.attrMethod, got["http.request.method"])
			assert.Equal(t, tc.methodOriginal, got["http.request.method_original"])
			assert.Equal(t, base+tc.path, got["url.full"])
			assert.Equal(t, tc.path, got["url.template"])
		})
	}
}

// url.scheme is the base URL's scheme, on the span and the metrics; url.full is on the
// span only.
func TestURLScheme(t *testing.T) {
	srv := httptest.NewTLSServer(answerAnything)
	t.Cleanup(srv.Close)
	tel := newTelemetry()
	c, err := insurance.NewClient(srv.URL, insurance.WithCredentials("client_1", "secret_1"),
		insurance.WithHTTPClient(srv.Client()), tel.instrument())
	require.NoError(t, err)
	_, err = c.Do(context.Background(), http.MethodGet, "/v1/things", insurance.AuthBasic, nil, nil)
	require.NoError(t, err)

	require.True(t, strings.HasPrefix(srv.URL, "https://"))
	got := attrs(tel.onlySpan(t).Attributes())
	assert.Equal(t, "https", got["url.scheme"])
	assert.Equal(t, srv.URL+"/v1/things", got["url.full"])
	hist := tel.collect(t)["http.client.request.duration"].Data.(metricdata.Histogram[float64])
	require.Len(t, hist.DataPoints, 1)
	point := attrs(hist.DataPoints[0].Attributes.ToSlice())
	assert.Equal(t, "https", point["url.scheme"])
	assert.NotContains(t, point, "url.full")
}
