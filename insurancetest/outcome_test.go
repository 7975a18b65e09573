package insurancetest_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// requireQuoteUnavailable requires the sandbox's 422 for a quote that has a policy.
func requireQuoteUnavailable(t *testing.T, err error) {
	t.Helper()
	require.ErrorIs(t, err, insurance.ErrQuoteUnavailable)
	e := apiError(t, err)
	assert.Equal(t, "quote_unavailable", e.Code)
	assert.Equal(t, "policy_exists", e.Reason)
}

// What the sandbox answers to a second call of each record-creating endpoint, and to
// a quote sent again with its quote_id, as docs/outcome-unknown.md states it.
func TestSecondCallsAnswerAsTheOutcomeDocSays(t *testing.T) {
	srv := newSandbox(t, insurancetest.InMemory())
	client := srv.Client()

	// A tuition purchase whose answer was lost: the second purchase is a 422.
	srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Process: true, Drop: true})
	tuition := srv.NewTuitionQuote("ada@example.com")
	_, err := client.PurchaseTuition(ctx, tuitionByCard(tuition, insurancetest.CardOK))
	require.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
	_, err = client.PurchaseTuition(ctx, tuitionByCard(tuition, insurancetest.CardOK))
	requireQuoteUnavailable(t, err)
	assert.Len(t, srv.Policies(), 1, "one policy, not two")

	// A gap-medical quote sent again after its purchase, and a second purchase: 422.
	gapReq := gapMedicalQuote("ada@example.com")
	gap, err := srv.Client(insurance.WithClientID(srv.ClientID)).QuoteGapMedical(ctx, gapReq)
	require.NoError(t, err)
	secret, err := client.CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	purchase := &insurance.GapMedicalPurchaseRequest{QuoteID: gap.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK}}
	_, err = client.PurchaseGapMedical(ctx, secret.Secret, purchase)
	require.NoError(t, err)
	gapReq.QuoteID = gap.QuoteID
	_, err = client.QuoteGapMedical(ctx, gapReq)
	requireQuoteUnavailable(t, err)
	_, err = client.PurchaseGapMedical(ctx, secret.Secret, purchase)
	requireQuoteUnavailable(t, err)

	// A travel quote sent again: updated (200) until a policy exists, then 422.
	travelReq := travelQuote("ada@example.com")
	travel, err := client.QuoteTravel(ctx, travelReq)
	require.NoError(t, err)
	travelReq.QuoteID = travel.QuoteID
	again, err := client.QuoteTravel(ctx, travelReq)
	require.NoError(t, err)
	assert.False(t, again.Created, "200: updated")
	require.NoError(t, srv.MarkPurchased(travel.QuoteID))
	_, err = client.QuoteTravel(ctx, travelReq)
	requireQuoteUnavailable(t, err)

	// Onboarding and events sent twice make two records each.
	onboard := &insurance.OnboardPartnerRequest{
		EntityName: "Acme", AdministrativeEmailAddress: "ops@acme.example", Country: insurance.CountryUS, Website: "https://acme.example",
	}
	event := &insurance.CreateEventRequest{
		EventName: "Summit", EventStartDate: insurance.NewDate(2027, time.June, 1), EventEndDate: insurance.NewDate(2027, time.June, 2),
	}
	for range 2 {
		_, err = client.OnboardPartner(ctx, onboard)
		require.NoError(t, err)
		_, err = client.CreateEvent(ctx, event)
		require.NoError(t, err)
	}
	partners, events := srv.Partners(), srv.Events()
	require.Len(t, partners, 2)
	require.Len(t, events, 2)
	assert.NotEqual(t, partners[0].ID, partners[1].ID)
	assert.NotEqual(t, events[0].ID, events[1].ID)
}
