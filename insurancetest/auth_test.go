package insurancetest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

func TestAuthPerEndpoint(t *testing.T) {
	srv := newSandbox(t)
	partner := srv.Client()
	secret, err := partner.CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	schemes := map[string]insurance.Auth{
		"basic":     insurance.AuthBasic,
		"client id": insurance.AuthClientID,
		"bearer":    insurance.AuthBearer(secret.Secret),
		"none":      insurance.AuthNone,
	}
	accepts := map[string][]string{
		"GET /v1/products":              {"basic"},
		"POST /v1/quote/travel":         {"basic", "client id"},
		"POST /v1/quote/gap-medical":    {"client id"},
		"POST /v1/purchase/tuition":     {"basic"},
		"POST /v1/purchase/gap-medical": {"bearer"},
		"POST /v1/auth/customer/secret": {"basic"},
		"POST /v1/partners/onboard":     {"basic"},
		"POST /v1/events":               {"basic"},
	}
	wrongSecret, err := insurance.NewClient(srv.URL, insurance.WithCredentials(srv.ClientID, "not-the-secret"))
	require.NoError(t, err)

	for route, accepted := range accepts {
		method, path, _ := strings.Cut(route, " ")
		var body any
		if method == http.MethodPost {
			body = map[string]any{} // valid auth then meets a 400, never a 401
		}
		for name, scheme := range schemes {
			t.Run(route+"/"+name, func(t *testing.T) {
				_, err := partner.Do(ctx, method, path, scheme, body, nil)
				if contains(accepted, name) {
					assert.NotErrorIs(t, err, insurance.ErrUnauthorized)
				} else {
					assert.ErrorIs(t, err, insurance.ErrUnauthorized)
				}
			})
		}
		if contains(accepted, "basic") {
			t.Run(route+"/wrong secret", func(t *testing.T) {
				_, err := wrongSecret.Do(ctx, method, path, insurance.AuthBasic, body, nil)
				assert.ErrorIs(t, err, insurance.ErrUnauthorized)
			})
		}
	}
}

func TestGapMedicalPurchaseTakesTheBearerSecretAndNothingElse(t *testing.T) {
	srv := newSandbox(t)
	secret, err := srv.Client().CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	quote, err := srv.Client(insurance.WithClientID(srv.ClientID)).QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
	require.NoError(t, err)

	req, err := http.NewRequest(http.MethodPost, srv.URL+"/v1/purchase/gap-medical",
		strings.NewReader(`{"quote_id":"`+quote.QuoteID+`","payment_method":{"token":"tok_ok"}}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+secret.Secret)
	req.Header.Set("x-api-client-id", srv.ClientID)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "a client id beside the Bearer secret is refused")

	req, err = http.NewRequest(http.MethodPost, srv.URL+"/v1/purchase/gap-medical",
		strings.NewReader(`{"quote_id":"`+quote.QuoteID+`","payment_method":{"token":"tok_ok"}}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+srv.ClientSecret)
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "the partner secret is not a customer secret")

	_, err = srv.Client().PurchaseGapMedical(ctx, srv.ClientSecret, &insurance.GapMedicalPurchaseRequest{
		QuoteID: quote.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
	})
	var valErr *insurance.ValidationError
	assert.ErrorAs(t, err, &valErr, "the SDK refuses to send it at all")
	assert.Len(t, srv.Requests(), 4, "quote, secret and the two raw purchases; not the SDK's")
}
