package insuranceotel_test

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
	insuranceotel "github.com/partnerinsure/insurance-go/otel"
)

// agencyKey is the attribute a platform would put on each agency's client.
const agencyKey = "partner.agency"

// forAgency derives from parent the client of one agency, a partner of its own in
// the sandbox, instrumented with the agency's attribute.
func forAgency(t *testing.T, srv *insurancetest.Server, tel *telemetry, parent *insurance.Client, agency string) *insurance.Client {
	t.Helper()
	id, secret := srv.AddPartner()
	c, err := parent.With(insurance.WithCredentials(id, secret),
		tel.instrument(insuranceotel.WithAttributes(attribute.String(agencyKey, agency))))
	require.NoError(t, err)
	return c
}

// A platform's clients derived per agency, instrumented with the agency as an
// attribute, make one span per call (the parent's instrumentation makes it, the
// agency's adds its attribute), each carrying its agency; their metric points are
// split by agency.
func TestDerivedClientsCarryTheirAttributes(t *testing.T) {
	srv := newSandbox(t)
	tel := newTelemetry()
	parent := srv.Client(tel.instrument())
	a1, a2 := forAgency(t, srv, tel, parent, "a1"), forAgency(t, srv, tel, parent, "a2")
	plain, err := parent.With(insurance.WithClientID(srv.ClientID)) // keeps the parent's instrumentation
	require.NoError(t, err)
	ctx := context.Background()

	calls := []struct {
		client *insurance.Client
		agency string // "" for none
	}{{a1, "a1"}, {a2, "a2"}, {a1, "a1"}, {parent, ""}, {plain, ""}}
	for i, call := range calls {
		_, err := call.client.QuoteTravel(ctx, travelQuote(""))
		require.NoError(t, err, "call %d", i+1)
	}

	require.Len(t, tel.spans.Started(), len(calls), "one span per call, no second one")
	spans := tel.spans.Ended()
	require.Len(t, spans, len(calls))
	for i, span := range spans {
		got := attrs(span.Attributes())
		assert.Equal(t, "POST /v1/quote/travel", span.Name())
		assert.False(t, span.Parent().IsValid(), "span %d is a root, not nested in another of the call", i+1)
		if calls[i].agency == "" {
			assert.NotContains(t, got, agencyKey, "span %d", i+1)
			continue
		}
		assert.Equal(t, calls[i].agency, got[agencyKey], "span %d", i+1)
		assert.Equal(t, "201", got["http.response.status_code"], "span %d keeps the package's attributes", i+1)
	}

	hist := tel.collect(t)["http.client.request.duration"].Data.(metricdata.Histogram[float64])
	counts := map[string]uint64{} // calls measured, by agency ("" for none)
	for _, p := range hist.DataPoints {
		agency, _ := p.Attributes.Value(agencyKey)
		counts[agency.AsString()] += p.Count
		assert.Equal(t, "/v1/quote/travel", attrs(p.Attributes.ToSlice())["http.route"])
	}
	assert.Equal(t, map[string]uint64{"a1": 2, "a2": 1, "": 2}, counts)
	assert.Len(t, hist.DataPoints, 3, "one series per agency and one without")
}

// WithAttributes drops, and reports to otel.Handle, an attribute whose key names a
// secret, is one the package sets itself, or is not valid; the others are recorded.
func TestWithAttributesRefusesSecretsAndOwnKeys(t *testing.T) {
	var reported []string
	prev := otel.GetErrorHandler()
	otel.SetErrorHandler(otel.ErrorHandlerFunc(func(err error) { reported = append(reported, err.Error()) }))
	t.Cleanup(func() { otel.SetErrorHandler(prev) })

	srv := insurancetest.NewServer(insurancetest.InMemory())
	t.Cleanup(srv.Close)
	tel := newTelemetry()
	c := srv.Client(tel.instrument(insuranceotel.WithAttributes(
		attribute.String(agencyKey, "a1"),
		attribute.String("partner.client_secret", "s3cr3t-value"),
		attribute.String("Partner.API_Key", "k3y-value"),
		attribute.String("partner.token", "t0ken-value"),
		attribute.String("http.route", "/overridden"),
		attribute.Int("insurance.attempts", 99),
		attribute.KeyValue{},
	)))
	_, err := c.ListProducts(context.Background())
	require.NoError(t, err)

	sort.Strings(reported)
	assert.Equal(t, []string{
		`insuranceotel: WithAttributes: attribute "" dropped: not a valid attribute`,
		`insuranceotel: WithAttributes: attribute "Partner.API_Key" dropped: the key names a secret (api_key); never put a secret in telemetry`,
		`insuranceotel: WithAttributes: attribute "http.route" dropped: the key is one this package sets`,
		`insuranceotel: WithAttributes: attribute "insurance.attempts" dropped: the key is one this package sets`,
		`insuranceotel: WithAttributes: attribute "partner.client_secret" dropped: the key names a secret (secret); never put a secret in telemetry`,
		`insuranceotel: WithAttributes: attribute "partner.token" dropped: the key names a secret (token); never put a secret in telemetry`,
	}, reported)

	got := attrs(tel.onlySpan(t).Attributes())
	assert.Equal(t, "a1", got[agencyKey])
	assert.Equal(t, "/v1/products", got["http.route"])
	assert.Equal(t, "1", got["insurance.attempts"])
	var recorded []string
	for _, v := range got {
		recorded = append(recorded, v)
	}
	for _, p := range tel.collect(t)["http.client.request.duration"].Data.(metricdata.Histogram[float64]).DataPoints {
		for _, kv := range p.Attributes.ToSlice() {
			recorded = append(recorded, kv.Value.String())
		}
	}
	all := strings.Join(recorded, "\n")
	for _, secret := range []string{"s3cr3t-value", "k3y-value", "t0ken-value", "/overridden"} {
		assert.NotContains(t, all, secret)
	}
	assert.Contains(t, all, "a1", "the scan sees the kept attribute")
}

// Two Instrument options on one client (two providers, say) each trace every call:
// each ends its own span, once.
func TestTwoInstrumentsEachEndTheirOwnSpan(t *testing.T) {
	first, second := newTelemetry(), newTelemetry()
	srv := insurancetest.NewServer(insurancetest.InMemory())
	client := srv.Client(first.instrument(), second.instrument())

	_, err := client.ListProducts(context.Background())
	require.NoError(t, err)

	for name, tel := range map[string]*telemetry{"first": first, "second": second} {
		assert.Len(t, tel.spans.Started(), 1, name)
		span := tel.onlySpan(t)
		assert.Equal(t, "GET /v1/products", span.Name(), name)
	}
	assert.Equal(t, first.onlySpan(t).SpanContext().SpanID(), second.onlySpan(t).Parent().SpanID(),
		"the second call span nests in the first")
}

// Instrument given to one call, with the same providers, tags that call's span and
// metric points: still one span.
func TestInstrumentGivenToACallAddsItsAttributes(t *testing.T) {
	srv := newSandbox(t)
	tel := newTelemetry()
	client := srv.Client(tel.instrument())

	_, err := client.ListProducts(context.Background(), tel.instrument(insuranceotel.WithAttributes(attribute.String(agencyKey, "a9"))))
	require.NoError(t, err)

	span := tel.onlySpan(t)
	assert.Equal(t, "a9", attrs(span.Attributes())[agencyKey])
	points := tel.collect(t)["http.client.request.duration"].Data.(metricdata.Histogram[float64]).DataPoints
	require.Len(t, points, 1)
	agency, _ := points[0].Attributes.Value(agencyKey)
	assert.Equal(t, "a9", agency.AsString())
}
