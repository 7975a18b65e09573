// Package insuranceotel traces and measures the calls of an insurance.Client with
// OpenTelemetry: one client span per call around all its attempts, the W3C trace
// context on every attempt, and three metrics.
//
//	client, err := insurance.NewClient(baseURL,
//		insurance.WithCredentials(clientID, clientSecret),
//		insuranceotel.Instrument(
//			insuranceotel.WithTracerProvider(tp),
//			insuranceotel.WithMeterProvider(mp),
//		),
//	)
//
// # Spans
//
// Each call is one span of kind Client, named "<METHOD> <route>" (for example
// "POST /v1/purchase/tuition"; "HTTP <route>" for a method outside the HTTP
// standard, given to Do), child of the span in the call's context. It carries the
// OpenTelemetry HTTP client attributes http.request.method (with
// http.request.method_original for such a method), server.address, server.port,
// url.full (the base URL and the route: never a query or user info), url.scheme,
// url.template and http.route (both the route: url.template is the conventions' key
// for clients, http.route their key for servers, kept for dashboards that group by
// it), http.response.status_code when an answer came, and error.type on failure;
// plus insurance.attempts (how many times the request went out; 0 when the call was
// refused locally), on failure insurance.outcome_unknown, insurance.why when no
// usable answer came (where the last request got: see WhyKey), and
// insurance.retry_budget_refused (true) when the retry budget refused a retry of the
// call (insurance.WithRetryBudget); and the attributes given to WithAttributes.
//
// A failed call, 4xx included, has status Error, described by "outcome unknown:
// check before trying again" when that is so, else by its error.type unless that is
// a status code (the conventions leave the description empty then).
//
// Each attempt carries the span's context, in a traceparent header and in its
// request's context: an attempt span from a tracing transport nests under the call's
// span. Give such a transport (otelhttp.NewTransport) with
// insurance.WithAttemptMiddleware, which keeps the SDK's pools and guarantees beneath
// it, not with insurance.WithHTTPClient, whose opaque transports lose some (see its
// doc).
//
// # error.type
//
// As the HTTP conventions ask, a failure with an answer is its status code ("402",
// "422", "503"); a failure without one is one of these low-cardinality names:
//
//	invalid_request      a local check failed (*insurance.ValidationError); nothing sent
//	missing_credentials  the Client lacks the call's credentials; nothing sent
//	timeout              a deadline passed: the context's or the attempt timeout
//	canceled             the context was canceled
//	connection           the connection failed or was dropped
//	response_too_large   a 2xx body over the SDK's limit
//	invalid_response     a 2xx body that could not be read or decoded
//	_OTHER               anything else
//
// A call whose context ends while the SDK waits to retry an answer (a 503, say) keeps
// that answer (insurance.RequestError.LastAnswer): its error.type is the answer's
// status, the failure the service reported; the deadline shows in the span's duration.
//
// Whether a purchase may have happened is not a kind of error but a property of a
// failure (a timeout or a 503 may leave it unknown, a 402 never does): it is
// insurance.outcome_unknown, true when the error matches insurance.ErrOutcomeUnknown.
//
// # Metrics
//
// http.client.request.duration (histogram, seconds) measures each call that sent at
// least one attempt, from its start to its end, retries and their waits included.
// insurance.client.retries (counter, {retry}) adds the attempts after the first.
// insurance.client.retries_refused (counter, {retry}) adds one for each call whose
// retry the Client's retry budget refused (insurance.WithRetryBudget; the budget is
// shared with the clients derived with With): in an outage, once the budget is spent,
// it counts the retries not sent, and insurance.client.retries grows no more until
// successes refill the budget. A call
// that ends because the retry table allows no more retries (insurance.WithMaxRetries)
// is not counted there. The three carry http.request.method, http.route,
// url.template, url.scheme, server.address, server.port, http.response.status_code
// when an answer came, error.type and insurance.outcome_unknown on failure, and the
// attributes given to WithAttributes; not url.full, which the conventions leave off
// the metric. For Do the route is the path given, so give Do paths without
// identifiers to keep the metrics' cardinality low.
//
// # Many partners
//
// A platform that acts for many partners (travel agencies, say) derives a Client per
// agency from one Client with (*insurance.Client).With, sharing its pools and retry
// budget. Observers given to With are added to the parent's, so Instrument given to
// With meets the parent's instrumentation on every call: each call is still one span,
// made by the parent's instrumentation (its providers and propagator), to which the
// attributes given to the later Instrument are added. WithAttributes so tags each
// call's span and metric points with the agency:
//
//	agency, err := platform.With(
//		insurance.WithCredentials(agencyID, agencySecret),
//		insuranceotel.Instrument(insuranceotel.WithAttributes(attribute.String("partner.agency", agencyName))),
//	)
//
// Each agency is then a series of its own in every metric: name agencies, not
// customers or requests. A client derived without Instrument keeps the parent's,
// without the agency. Attributes go out as given: never put a secret in one (see
// WithAttributes for the keys it refuses).
//
// # What is never recorded
//
// No span, event or metric holds an error's text, a secret, a body, a header value or a
// query: only the values listed above, and the attributes given to WithAttributes,
// which must not hold one either. Errors are not recorded as span events. The
// request id (insurance.CallResult.RequestID) is left out too, because it is the value
// of the X-Request-Id answer header: read it from the Response or the error and log
// it beside the trace id if you need to join the two.
package insuranceotel

import (
	"context"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/semconv/v1.43.0/httpconv"
	"go.opentelemetry.io/otel/trace"

	"github.com/partnerinsure/insurance-go"
)

// ScopeName is the instrumentation scope of the spans and metrics.
const ScopeName = "github.com/partnerinsure/insurance-go/otel"

// Attributes of this package beyond the OpenTelemetry conventions.
const (
	// AttemptsKey is insurance.attempts: how many times the call's request went out.
	AttemptsKey = attribute.Key("insurance.attempts")
	// OutcomeUnknownKey is insurance.outcome_unknown, set on failure: true when the
	// call may have created its record (the error matches insurance.ErrOutcomeUnknown).
	OutcomeUnknownKey = attribute.Key("insurance.outcome_unknown")
	// RetryBudgetRefusedKey is insurance.retry_budget_refused, set (true) only when the
	// Client's retry budget refused a retry of the call (insurance.WithRetryBudget):
	// the call ended with the answer it had.
	RetryBudgetRefusedKey = attribute.Key("insurance.retry_budget_refused")
	// WhyKey is insurance.why, set on the span of a call that failed without a usable
	// answer: where its last request got, in the SDK's words
	// (insurance.RequestError.Why), such as "the body went out and the connection
	// closed before an answer". A sentence of the SDK's own, never the server's.
	WhyKey = attribute.Key("insurance.why")
)

// Names of this package's metrics beyond the OpenTelemetry conventions.
const (
	// RetriesMetric is the name of the counter of retries.
	RetriesMetric = "insurance.client.retries"
	// RetriesRefusedMetric is the name of the counter of retries the retry budget
	// refused.
	RetriesRefusedMetric = "insurance.client.retries_refused"
)

// Instrument returns the insurance.Option that traces and measures every call of a
// Client (see the package doc).
func Instrument(opts ...Option) insurance.Option {
	cfg := config{
		tracerProvider: otel.GetTracerProvider(),
		meterProvider:  otel.GetMeterProvider(),
		propagator:     propagation.TraceContext{},
	}
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	meter := cfg.meterProvider.Meter(ScopeName,
		metric.WithInstrumentationVersion(insurance.Version), metric.WithSchemaURL(semconv.SchemaURL))
	duration, err := httpconv.NewClientRequestDuration(meter)
	handle(err)
	retries, err := meter.Int64Counter(RetriesMetric, metric.WithUnit("{retry}"),
		metric.WithDescription("Attempts of insurance calls after the first."))
	handle(err)
	refused, err := meter.Int64Counter(RetriesRefusedMetric, metric.WithUnit("{retry}"),
		metric.WithDescription("Retries of insurance calls that the client's retry budget refused."))
	handle(err)
	return insurance.WithObserver(&observer{
		tracerProvider: cfg.tracerProvider,
		meterProvider:  cfg.meterProvider,
		tracer: cfg.tracerProvider.Tracer(ScopeName,
			trace.WithInstrumentationVersion(insurance.Version), trace.WithSchemaURL(semconv.SchemaURL)),
		propagator: cfg.propagator,
		duration:   duration,
		retries:    retries,
		refused:    refused,
		attrs:      checkedAttributes(cfg.attrs),
	})
}

// handle reports an instrument that could not be made; the instrument returned with
// the error still works (it is a no-op), as OpenTelemetry's own instrumentations do.
func handle(err error) {
	if err != nil {
		otel.Handle(err)
	}
}

// observer is the insurance.Observer that Instrument installs.
type observer struct {
	tracerProvider trace.TracerProvider
	meterProvider  metric.MeterProvider
	tracer         trace.Tracer
	propagator     propagation.TextMapPropagator
	duration       httpconv.ClientRequestDuration
	retries        metric.Int64Counter
	refused        metric.Int64Counter
	attrs          []attribute.KeyValue // WithAttributes', on every span and data point
}

// ownKey keys an observer's own call state in the call's context.
type ownKey struct{ observer *observer }

// openKey keys the state of the last span an observer of this package opened for
// the call: an observer after it with the same providers (Instrument given again,
// to With or to the call) adds its attributes to that span and its metrics instead
// of making a second span.
type openKey struct{}

type callState struct {
	owner *observer
	call  insurance.CallInfo
	span  trace.Span
	start time.Time
	attrs []attribute.KeyValue // the call's metric attributes, from callAttrs
}

// StartCall starts the call's span, or adds the attributes given to WithAttributes
// to the one an observer with the same providers started.
func (o *observer) StartCall(ctx context.Context, call insurance.CallInfo) context.Context {
	if st, ok := ctx.Value(openKey{}).(*callState); ok && st.call == call && st.owner.sameProviders(o) {
		st.span.SetAttributes(o.attrs...)
		st.attrs = append(st.attrs, o.attrs...)
		return ctx
	}
	common := append(callAttrs(call), o.attrs...)
	name, attrs := call.Method+" "+call.Route, slices.Clone(common)
	if !knownMethods[call.Method] {
		name = "HTTP " + call.Route
		attrs = append(attrs, semconv.HTTPRequestMethodOriginal(call.Method))
	}
	if call.URL != "" {
		attrs = append(attrs, semconv.URLFull(call.URL)) // span only: for Do, one value per path given
	}
	ctx, span := o.tracer.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	st := &callState{owner: o, call: call, span: span, start: time.Now(), attrs: common}
	return context.WithValue(context.WithValue(ctx, ownKey{o}, st), openKey{}, st)
}

// sameProviders reports whether o and other send to the same tracer and meter
// providers with the same propagator.
func (o *observer) sameProviders(other *observer) bool {
	return same(o.tracerProvider, other.tracerProvider) && same(o.meterProvider, other.meterProvider) &&
		same(o.propagator, other.propagator)
}

// same compares two values that may not be comparable (a provider of the caller's
// own type), as unequal when they are not.
func same(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	return va.IsValid() && va.Type() == vb.Type() && va.Comparable() && a == b
}

// StartAttempt sends the trace context with the attempt.
func (o *observer) StartAttempt(ctx context.Context, attempt insurance.AttemptInfo) {
	if _, ok := ctx.Value(ownKey{o}).(*callState); ok {
		o.propagator.Inject(ctx, headerSetter(attempt.SetHeader))
	}
}

// EndCall records how the call ended and ends its span.
func (o *observer) EndCall(ctx context.Context, _ insurance.CallInfo, result insurance.CallResult) {
	st, ok := ctx.Value(ownKey{o}).(*callState)
	if !ok {
		return
	}
	var outcome []attribute.KeyValue
	if result.StatusCode != 0 {
		outcome = append(outcome, semconv.HTTPResponseStatusCode(result.StatusCode))
	}
	errType := ""
	if result.Err != nil {
		errType = errorType(result.Err)
		outcome = append(outcome, semconv.ErrorTypeKey.String(errType), OutcomeUnknownKey.Bool(result.OutcomeUnknown))
	}
	if result.Attempts > 0 {
		set := attribute.NewSet(slices.Concat(st.attrs, outcome)...)
		o.duration.RecordSet(ctx, time.Since(st.start).Seconds(), set)
		if result.Attempts > 1 {
			o.retries.Add(ctx, int64(result.Attempts-1), metric.WithAttributeSet(set))
		}
		if result.BudgetRefused {
			o.refused.Add(ctx, 1, metric.WithAttributeSet(set))
			outcome = append(outcome, RetryBudgetRefusedKey.Bool(true)) // span only
		}
	}
	if result.Why != "" {
		outcome = append(outcome, WhyKey.String(result.Why)) // span only
	}
	st.span.SetAttributes(append(outcome, AttemptsKey.Int(result.Attempts))...)
	if result.Err != nil {
		st.span.SetStatus(codes.Error, statusDescription(result, errType))
	}
	st.span.End()
}

// callAttrs are the low-cardinality attributes of a call, known from its start: those
// of both its span and its metrics.
func callAttrs(call insurance.CallInfo) []attribute.KeyValue {
	method := semconv.HTTPRequestMethodKey.String(call.Method)
	if !knownMethods[call.Method] {
		method = semconv.HTTPRequestMethodOther
	}
	attrs := []attribute.KeyValue{
		method,
		semconv.HTTPRoute(call.Route),
		semconv.URLTemplate(call.Route),
		semconv.ServerAddress(call.ServerAddress),
		semconv.ServerPort(call.ServerPort),
	}
	if u, err := url.Parse(call.URL); err == nil && u.Scheme != "" {
		attrs = append(attrs, semconv.URLScheme(u.Scheme))
	}
	return attrs
}

// knownMethods are the methods the HTTP conventions name; others are "_OTHER".
var knownMethods = map[string]bool{
	http.MethodGet: true, http.MethodHead: true, http.MethodPost: true, http.MethodPut: true,
	http.MethodPatch: true, http.MethodDelete: true, http.MethodConnect: true,
	http.MethodOptions: true, http.MethodTrace: true, "QUERY": true,
}

// headerSetter lets a propagator write the headers of an attempt, and nothing else.
type headerSetter func(key, value string)

func (headerSetter) Get(string) string       { return "" }
func (s headerSetter) Set(key, value string) { s(key, value) }
func (headerSetter) Keys() []string          { return nil }
