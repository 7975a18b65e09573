package insuranceotel_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
	insuranceotel "github.com/partnerinsure/insurance-go/otel"
)

// During an outage the retry budget runs out and refuses retries: the otel module
// counts each refused retry, with the attributes of the call's other metrics, and
// marks the call's span. A budget of 5 tokens at 5 a retry allows one retry in all,
// shared with a client derived from the instrumented one.
func TestRefusedRetriesAreCounted(t *testing.T) {
	srv := newSandbox(t)
	srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Status: http.StatusServiceUnavailable}) // every request
	tel := newTelemetry()
	parent := srv.Client(tel.instrument(), insurance.WithRetryBudget(5, 5))
	derived, err := parent.With(insurance.WithClientID(srv.ClientID)) // its observer and budget: the parent's
	require.NoError(t, err)
	ctx := context.Background()

	wantAttempts := []int{2, 1, 1} // the one retry the budget held, then none
	for i, c := range []*insurance.Client{parent, parent, derived} {
		_, err := c.QuoteTravel(ctx, travelQuote(""))
		var apiErr *insurance.APIError
		require.ErrorAs(t, err, &apiErr, "call %d", i+1)
		assert.Equal(t, http.StatusServiceUnavailable, apiErr.StatusCode, "call %d", i+1)
		assert.True(t, apiErr.BudgetRefused, "call %d", i+1)
		assert.Equal(t, wantAttempts[i], apiErr.Attempts, "call %d", i+1)
	}
	require.Len(t, srv.Requests(), 4, "the sandbox saw 2+1+1 requests")

	spans := tel.spans.Ended()
	require.Len(t, spans, 3, "one span per call")
	for i, span := range spans {
		got := attrs(span.Attributes())
		assert.Equal(t, "true", got["insurance.retry_budget_refused"], "span %d", i+1)
		assert.Equal(t, "503", got["error.type"], "span %d", i+1)
	}

	metrics := tel.collect(t)
	refused := metrics[insuranceotel.RetriesRefusedMetric]
	assert.Equal(t, "{retry}", refused.Unit)
	points := refused.Data.(metricdata.Sum[int64]).DataPoints
	require.Len(t, points, 1)
	assert.Equal(t, int64(3), points[0].Value, "one refused retry per call")
	assert.Equal(t, map[string]string{
		"http.request.method":       "POST",
		"http.route":                "/v1/quote/travel",
		"url.template":              "/v1/quote/travel",
		"url.scheme":                "http",
		"server.address":            "127.0.0.1",
		"server.port":               portOf(t, srv.URL),
		"http.response.status_code": "503",
		"error.type":                "503",
		"insurance.outcome_unknown": "false",
	}, attrs(points[0].Attributes.ToSlice()))

	retries := metrics[insuranceotel.RetriesMetric].Data.(metricdata.Sum[int64]).DataPoints
	require.Len(t, retries, 1)
	assert.Equal(t, int64(1), retries[0].Value, "the one retry the budget allowed")
	assert.Equal(t, points[0].Attributes, retries[0].Attributes, "the same attributes as the retries")
}

// A call whose retries the retry table ends, not the budget, is no refused retry:
// with the default budget an outage's first calls make all their attempts, and
// nothing is counted or marked.
func TestRetriesTheTableEndsAreNotRefused(t *testing.T) {
	srv := newSandbox(t)
	srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Status: http.StatusServiceUnavailable})
	tel := newTelemetry()

	_, err := srv.Client(tel.instrument()).QuoteTravel(context.Background(), travelQuote(""))
	var apiErr *insurance.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.False(t, apiErr.BudgetRefused)
	assert.Equal(t, 3, apiErr.Attempts)

	assert.NotContains(t, attrs(tel.onlySpan(t).Attributes()), "insurance.retry_budget_refused")
	metrics := tel.collect(t)
	assert.NotContains(t, metrics, insuranceotel.RetriesRefusedMetric, "nothing refused, nothing counted")
	assert.Equal(t, int64(2), metrics[insuranceotel.RetriesMetric].Data.(metricdata.Sum[int64]).DataPoints[0].Value)
}
