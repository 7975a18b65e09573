package insuranceotel

import (
	"fmt"
	"slices"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Option configures Instrument.
type Option func(*config)

type config struct {
	tracerProvider trace.TracerProvider
	meterProvider  metric.MeterProvider
	propagator     propagation.TextMapPropagator
	attrs          []attribute.KeyValue
}

// WithTracerProvider sets where the spans go. Default (and when nil): the global
// provider, otel.GetTracerProvider().
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) {
		if tp != nil {
			c.tracerProvider = tp
		}
	}
}

// WithMeterProvider sets where the metrics go. Default (and when nil): the global
// provider, otel.GetMeterProvider().
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) {
		if mp != nil {
			c.meterProvider = mp
		}
	}
}

// WithPropagator sets how the trace context goes out on each attempt. Default (and
// when nil): propagation.TraceContext, the W3C traceparent and tracestate headers.
// The global propagator is not the default because its own default sends nothing;
// pass otel.GetTextMapPropagator() to follow it (and send W3C baggage, say, if it is
// set up to).
func WithPropagator(p propagation.TextMapPropagator) Option {
	return func(c *config) {
		if p != nil {
			c.propagator = p
		}
	}
}

// WithAttributes adds attrs to every span and every metric data point of the Client
// it instruments: what says whose calls they are when one process acts for many
// partners, such as attribute.String("partner.agency", agencyID) on a Client derived
// with (*insurance.Client).With (see the package doc, "Many partners"). Calls with
// different values are different metric series, so give values of low cardinality:
// an agency, a tenant, a region; never a customer or a request.
//
// The attributes go out as they are: never put a secret in one (a client secret, a
// customer secret, a token), nor anything a partner would not show its telemetry
// backend. As a guard, an attribute whose key contains "secret", "password", "token",
// "authorization" or "api_key" is dropped, as is one whose key this package sets
// itself (the keys listed in the package doc, and every insurance.* key) or that is
// not valid; each drop is reported to otel.Handle when Instrument runs.
func WithAttributes(attrs ...attribute.KeyValue) Option {
	attrs = slices.Clone(attrs)
	return func(c *config) {
		c.attrs = append(c.attrs, attrs...)
	}
}

// secretLooking are parts of attribute keys WithAttributes refuses: keys that name a
// secret.
var secretLooking = []string{"secret", "password", "passwd", "token", "authorization", "api_key", "apikey"}

// ownKeys are the conventions' keys this package sets; every insurance.* key is its
// own too.
var ownKeys = map[attribute.Key]bool{
	"http.request.method": true, "http.request.method_original": true, "http.route": true,
	"url.template": true, "url.full": true, "url.scheme": true, "server.address": true,
	"server.port": true, "http.response.status_code": true, "error.type": true,
}

// checkedAttributes are the attributes WithAttributes gave that may be recorded; each
// other one is reported to otel.Handle.
func checkedAttributes(attrs []attribute.KeyValue) []attribute.KeyValue {
	var kept []attribute.KeyValue
	for _, kv := range attrs {
		if why := refusal(kv); why != "" {
			otel.Handle(fmt.Errorf("insuranceotel: WithAttributes: attribute %q dropped: %s", kv.Key, why))
			continue
		}
		kept = append(kept, kv)
	}
	return kept
}

// refusal says why kv may not be recorded, or is empty.
func refusal(kv attribute.KeyValue) string {
	key := strings.ToLower(string(kv.Key))
	switch {
	case !kv.Valid():
		return "not a valid attribute"
	case ownKeys[kv.Key] || strings.HasPrefix(key, "insurance."):
		return "the key is one this package sets"
	}
	for _, part := range secretLooking {
		if strings.Contains(key, part) {
			return "the key names a secret (" + part + "); never put a secret in telemetry"
		}
	}
	return ""
}
