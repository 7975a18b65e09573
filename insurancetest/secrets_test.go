package insurancetest_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

func TestCustomerSecretScopeAndExpiry(t *testing.T) {
	srv := newSandbox(t, insurancetest.WithSecretTTL(300*time.Millisecond))
	partner := srv.Client()
	browser := srv.Client(insurance.WithClientID(srv.ClientID))
	quote, err := browser.QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
	require.NoError(t, err)
	buy := &insurance.GapMedicalPurchaseRequest{QuoteID: quote.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK}}

	adas, err := partner.CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	bobs, err := partner.CreateCustomerSecret(ctx, "bob@example.com")
	require.NoError(t, err)
	assert.NotEqual(t, adas.Secret, bobs.Secret)
	assert.NotContains(t, adas.Secret, srv.ClientSecret)
	assert.GreaterOrEqual(t, len(adas.Secret), 40, "unguessable")

	_, err = browser.PurchaseGapMedical(ctx, bobs.Secret, buy)
	assert.ErrorIs(t, err, insurance.ErrForbidden, "Bob's secret cannot buy Ada's quote")
	assert.Equal(t, "secret_scope", apiError(t, err).Code)

	_, err = browser.PurchaseGapMedical(ctx, "cus_sec_guessed", buy)
	assert.ErrorIs(t, err, insurance.ErrUnauthorized)

	time.Sleep(400 * time.Millisecond)
	_, err = browser.PurchaseGapMedical(ctx, adas.Secret, buy)
	assert.ErrorIs(t, err, insurance.ErrUnauthorized, "expired")
	assert.Equal(t, "secret_expired", apiError(t, err).Code)

	fresh, err := partner.CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	policy, err := browser.PurchaseGapMedical(ctx, fresh.Secret, buy)
	require.NoError(t, err)
	assert.Equal(t, quote.QuoteID, policy.QuoteID)
}
