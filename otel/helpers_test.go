package insuranceotel_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
	insuranceotel "github.com/partnerinsure/insurance-go/otel"
)

// telemetry collects what an instrumented client records, in memory.
type telemetry struct {
	spans   *tracetest.SpanRecorder
	metrics *sdkmetric.ManualReader
	tp      *sdktrace.TracerProvider
	mp      *sdkmetric.MeterProvider // reads into metrics
}

func newTelemetry() *telemetry {
	spans, metrics := tracetest.NewSpanRecorder(), sdkmetric.NewManualReader()
	return &telemetry{
		spans:   spans,
		metrics: metrics,
		tp:      sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)),
		mp:      sdkmetric.NewMeterProvider(sdkmetric.WithReader(metrics)),
	}
}

// instrument is the insurance option under test, with opts after the test's providers.
func (tel *telemetry) instrument(opts ...insuranceotel.Option) insurance.Option {
	return insuranceotel.Instrument(append([]insuranceotel.Option{
		insuranceotel.WithTracerProvider(tel.tp),
		insuranceotel.WithMeterProvider(tel.mp),
	}, opts...)...)
}

// onlySpan is the one span recorded.
func (tel *telemetry) onlySpan(t *testing.T) sdktrace.ReadOnlySpan {
	t.Helper()
	ended := tel.spans.Ended()
	require.Len(t, ended, 1, "one span per call")
	return ended[0]
}

// collect reads the metrics by name.
func (tel *telemetry) collect(t *testing.T) map[string]metricdata.Metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, tel.metrics.Collect(context.Background(), &rm))
	byName := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		assert.Equal(t, insuranceotel.ScopeName, sm.Scope.Name)
		for _, m := range sm.Metrics {
			byName[m.Name] = m
		}
	}
	return byName
}

// attrs gives attributes by key, values as the strings OpenTelemetry emits.
func attrs(kvs []attribute.KeyValue) map[string]string {
	m := map[string]string{}
	for _, kv := range kvs {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

// newSandbox starts an insurancetest sandbox for one test.
func newSandbox(t *testing.T) *insurancetest.Server {
	t.Helper()
	srv := insurancetest.NewServer()
	t.Cleanup(srv.Close)
	return srv
}

// portOf is the port of a test server's base URL, as an attribute value.
func portOf(t *testing.T, baseURL string) string {
	t.Helper()
	u, err := url.Parse(baseURL)
	require.NoError(t, err)
	return u.Port()
}

// traceparent is the W3C traceparent that carries a sampled span's context.
func traceparent(span sdktrace.ReadOnlySpan) string {
	return fmt.Sprintf("00-%s-%s-01", span.SpanContext().TraceID(), span.SpanContext().SpanID())
}

// answerAnything answers 200 and an empty JSON object to any request: a stand-in for
// routes the sandbox does not serve, since Do may call any.
var answerAnything = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprint(w, `{}`)
})

func travelQuote(quoteID string) *insurance.TravelQuoteRequest {
	return &insurance.TravelQuoteRequest{
		QuoteID:  quoteID,
		Customer: insurance.Customer{EmailAddress: "ada@example.com"},
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:      1000,
			TripStartDate: insurance.NewDate(2027, time.March, 1),
			TripEndDate:   insurance.NewDate(2027, time.March, 3),
		},
	}
}

func tuitionPurchase(quoteID string, pm insurance.PaymentMethod) *insurance.TuitionPurchaseRequest {
	return &insurance.TuitionPurchaseRequest{QuoteID: quoteID, PaymentMethod: pm}
}

func card(number string) insurance.PaymentMethod {
	return insurance.PaymentMethod{Card: &insurance.Card{Number: number, Verification: "123", Month: "12", Year: "2030"}}
}
