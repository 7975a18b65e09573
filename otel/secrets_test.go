package insuranceotel_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// Nothing recorded holds a secret: not the client secret, not the Basic header, not a
// customer secret, not a card or bank account number, whether calls succeed or fail;
// nor a header value such as the request id.
func TestNoSecretInTelemetry(t *testing.T) {
	srv := newSandbox(t)
	tel := newTelemetry()
	c := srv.Client(tel.instrument())
	ctx := context.Background()
	const account, routing = "000123456789", "110000000"

	secret, err := c.CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	products, err := c.ListProducts(ctx)
	require.NoError(t, err)
	gap, err := c.QuoteGapMedical(ctx, &insurance.GapMedicalQuoteRequest{
		Customer:         insurance.Customer{EmailAddress: "ada@example.com"},
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{CoverageStartDate: insurance.NewDate(2027, time.March, 1)},
	})
	require.NoError(t, err)
	for _, token := range []string{insurancetest.TokenDeclined, insurancetest.TokenOK, insurancetest.TokenOK} { // 402, 201, 422
		_, _ = c.PurchaseGapMedical(ctx, secret.Secret, &insurance.GapMedicalPurchaseRequest{
			QuoteID: gap.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: token},
		})
	}
	_, err = c.PurchaseGapMedical(ctx, secret.Secret+"x", &insurance.GapMedicalPurchaseRequest{
		QuoteID: gap.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
	})
	require.Error(t, err) // 401
	for _, pm := range []insurance.PaymentMethod{
		card(insurancetest.CardDeclined),
		card(insurancetest.CardOK),
		{BankAccount: &insurance.BankAccount{AccountNumber: account, RoutingNumber: routing}},
	} {
		_, _ = c.PurchaseTuition(ctx, tuitionPurchase(srv.NewTuitionQuote("ada@example.com"), pm))
	}
	_, err = c.PurchaseTuition(ctx, tuitionPurchase("q_unknown", card(insurancetest.CardOK)))
	var unknownQuote *insurance.APIError
	require.ErrorAs(t, err, &unknownQuote) // 400

	basic := base64.StdEncoding.EncodeToString([]byte(srv.ClientID + ":" + srv.ClientSecret))
	secrets := map[string]string{
		"client secret":   srv.ClientSecret,
		"Basic header":    basic,
		"customer secret": secret.Secret,
		"card ok":         insurancetest.CardOK,
		"card declined":   insurancetest.CardDeclined,
		"bank account":    account,
		"routing number":  routing,
		// Header values: the answers' X-Request-Id, of a success and of a failure.
		"request id of a 200": products.RequestID(),
		"request id of a 400": unknownQuote.RequestID,
	}
	// documented is every attribute the package doc lists.
	documented := map[attribute.Key]bool{
		"http.request.method": true, "http.route": true, "url.template": true, "url.full": true,
		"url.scheme": true, "server.address": true, "server.port": true,
		"http.response.status_code": true, "error.type": true,
		"insurance.attempts": true, "insurance.outcome_unknown": true, "insurance.retry_budget_refused": true,
	}
	var recorded []string
	record := func(kvs []attribute.KeyValue) {
		for _, kv := range kvs {
			assert.True(t, documented[kv.Key], "undocumented attribute %s", kv.Key)
			recorded = append(recorded, kv.Value.String())
		}
	}
	require.Len(t, tel.spans.Ended(), 11)
	for _, span := range tel.spans.Ended() {
		recorded = append(recorded, span.Name(), span.Status().Description)
		record(span.Attributes())
		for _, ev := range span.Events() {
			recorded = append(recorded, ev.Name)
			record(ev.Attributes)
		}
	}
	for _, m := range tel.collect(t) {
		switch data := m.Data.(type) {
		case metricdata.Histogram[float64]:
			for _, p := range data.DataPoints {
				record(p.Attributes.ToSlice())
			}
		case metricdata.Sum[int64]:
			for _, p := range data.DataPoints {
				record(p.Attributes.ToSlice())
			}
		}
	}
	all := strings.Join(recorded, "\n")
	assert.Contains(t, all, "402", "the scan sees the failures")
	for name, value := range secrets {
		require.NotEmpty(t, value)
		assert.NotContains(t, all, value, name)
	}
}
