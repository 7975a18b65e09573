package insuranceotel

import (
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
