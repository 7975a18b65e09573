package insurancetest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

func TestQuoteLifecycle(t *testing.T) {
	srv := newSandbox(t)
	c := srv.Client()

	created, err := c.QuoteTravel(ctx, travelQuote("ada@example.com"))
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, created.StatusCode)
	assert.True(t, created.Created)
	assert.NotEmpty(t, created.QuoteID)

	update := travelQuote("ada@example.com")
	update.QuoteID = created.QuoteID
	update.PolicyAttributes.TripCost = 2000
	updated, err := c.QuoteTravel(ctx, update)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, updated.StatusCode)
	assert.False(t, updated.Created)
	assert.Equal(t, created.QuoteID, updated.QuoteID)

	require.NoError(t, srv.MarkPurchased(created.QuoteID))
	_, err = c.QuoteTravel(ctx, update)
	assert.ErrorIs(t, err, insurance.ErrQuoteUnavailable)
	assert.Equal(t, "quote_unavailable", apiError(t, err).Code)

	unknown := travelQuote("ada@example.com")
	unknown.QuoteID = "q_does_not_exist"
	_, err = c.QuoteTravel(ctx, unknown)
	assert.ErrorIs(t, err, insurance.ErrBadRequest)
	assert.Contains(t, apiError(t, err).Message, "q_does_not_exist")

	assert.Error(t, srv.MarkPurchased(created.QuoteID), "a quote is bought once")
	assert.Error(t, srv.MarkPurchased("q_nope"))
}

func TestGapMedicalQuoteLifecycle(t *testing.T) {
	srv := newSandbox(t)
	browser := srv.Client(insurance.WithClientID(srv.ClientID))

	created, err := browser.QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
	require.NoError(t, err)
	assert.True(t, created.Created)
	again := gapMedicalQuote("ada@example.com")
	again.QuoteID = created.QuoteID
	updated, err := browser.QuoteGapMedical(ctx, again)
	require.NoError(t, err)
	assert.False(t, updated.Created)

	secret, err := srv.Client().CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	_, err = browser.PurchaseGapMedical(ctx, secret.Secret, &insurance.GapMedicalPurchaseRequest{
		QuoteID: created.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
	})
	require.NoError(t, err)

	_, err = browser.QuoteGapMedical(ctx, again)
	assert.ErrorIs(t, err, insurance.ErrQuoteUnavailable)

	travel, err := srv.Client().QuoteTravel(ctx, travelQuote("ada@example.com"))
	require.NoError(t, err)
	other := gapMedicalQuote("ada@example.com")
	other.QuoteID = travel.QuoteID
	_, err = browser.QuoteGapMedical(ctx, other)
	assert.ErrorIs(t, err, insurance.ErrBadRequest, "a travel quote id is not a gap-medical quote")
}

func TestQuoteValidation(t *testing.T) {
	srv := newSandbox(t)
	c := srv.Client()
	tests := []struct {
		name   string
		mutate func(*insurance.TravelQuoteRequest)
		want   string
	}{
		{"an email that is none", func(r *insurance.TravelQuoteRequest) { r.Customer.EmailAddress = "ada" }, "customer.email_address is not an email address"},
		{"no start", func(r *insurance.TravelQuoteRequest) { r.PolicyAttributes.TripStartDate = insurance.Date{} }, "missing required parameter: policy_attributes.trip_start_date"},
		{"no end", func(r *insurance.TravelQuoteRequest) { r.PolicyAttributes.TripEndDate = insurance.Date{} }, "missing required parameter: policy_attributes.trip_end_date"},
		{"no cost", func(r *insurance.TravelQuoteRequest) { r.PolicyAttributes.TripCost = 0 }, "missing required parameter: policy_attributes.trip_cost"},
		{"negative cost", func(r *insurance.TravelQuoteRequest) { r.PolicyAttributes.TripCost = -5 }, "policy_attributes.trip_cost must be a positive number"},
		{"end before start", func(r *insurance.TravelQuoteRequest) {
			r.PolicyAttributes.TripEndDate = insurance.NewDate(2027, time.February, 1)
		}, "policy_attributes.trip_end_date is before policy_attributes.trip_start_date"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := travelQuote("ada@example.com")
			tt.mutate(req)
			_, err := c.QuoteTravel(ctx, req)
			assert.ErrorIs(t, err, insurance.ErrBadRequest)
			assert.Equal(t, tt.want, apiError(t, err).Message)
		})
	}

	_, err := srv.Client(insurance.WithClientID(srv.ClientID)).QuoteGapMedical(ctx, &insurance.GapMedicalQuoteRequest{
		Customer: insurance.Customer{EmailAddress: "ada@example.com"},
	})
	assert.Equal(t, "missing required parameter: policy_attributes.coverage_start_date", apiError(t, err).Message)

	_, err = srv.Client(insurance.WithClientID(srv.ClientID)).QuoteGapMedical(ctx, gapMedicalQuote(""))
	assert.Equal(t, "missing required parameter: customer.email_address", apiError(t, err).Message,
		"a gap-medical quote needs the email its customer secret and purchase are bound to")
}

// A travel quote needs the trip, not the customer's email address: the interface
// requires neither, and nothing of a travel quote uses the email.
func TestATravelQuoteNeedsNoCustomerEmail(t *testing.T) {
	srv := newSandbox(t)
	quote, err := srv.Client().QuoteTravel(ctx, travelQuote(""))
	require.NoError(t, err)
	assert.True(t, quote.Created)
	var body struct {
		Email *string `json:"customer_email_address"`
	}
	require.NoError(t, quote.Decode(&body))
	require.NotNil(t, body.Email)
	assert.Empty(t, *body.Email)
}

func TestTravelPremiumFormula(t *testing.T) {
	srv := newSandbox(t)
	req := travelQuote("ada@example.com") // 1000, 3 days
	req.PolicyAttributes.AdditionalTravelers = []insurance.Traveler{{FirstName: "Bob"}}
	quote, err := srv.Client().QuoteTravel(ctx, req)
	require.NoError(t, err)

	var body struct {
		Premium  float64 `json:"premium"`
		Currency string  `json:"currency"`
		Status   string  `json:"status"`
	}
	require.NoError(t, quote.Decode(&body))
	assert.Equal(t, 60.00, body.Premium, "4.5% of 1000 + 2.50 x 3 days x 2 travellers")
	assert.Equal(t, "USD", body.Currency)
	assert.Equal(t, "QUOTED", body.Status)
}
