package insurancetest_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

func TestPaymentTestValues(t *testing.T) {
	srv := newSandbox(t)
	c := srv.Client()
	card := func(n string) insurance.PaymentMethod {
		return insurance.PaymentMethod{Card: &insurance.Card{Name: "Ada", Number: n, Verification: "123", Month: "12", Year: "2030"}}
	}
	bank := func(account, routing string) insurance.PaymentMethod {
		return insurance.PaymentMethod{BankAccount: &insurance.BankAccount{AccountNumber: account, RoutingNumber: routing}}
	}
	tests := []struct {
		name string
		pm   insurance.PaymentMethod
		want error // nil: a policy is issued
	}{
		{"CardOK", card(insurancetest.CardOK), nil},
		{"another valid card", card("5555555555554444"), nil},
		{"CardDeclined", card(insurancetest.CardDeclined), insurance.ErrPaymentFailed},
		{"card failing Luhn", card("4242424242424241"), insurance.ErrBadRequest},
		{"TokenOK", insurance.PaymentMethod{Token: insurancetest.TokenOK}, nil},
		{"any tok_ token", insurance.PaymentMethod{Token: "tok_visa_debit"}, nil},
		{"TokenDeclined", insurance.PaymentMethod{Token: insurancetest.TokenDeclined}, insurance.ErrPaymentFailed},
		{"not a token", insurance.PaymentMethod{Token: "abc"}, insurance.ErrBadRequest},
		{"bank account", bank("000123456789", "110000000"), nil},
		{"bank account without routing number", bank("000123456789", ""), insurance.ErrBadRequest},
		{"no payment method", insurance.PaymentMethod{}, insurance.ErrBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			quoteID := srv.NewTuitionQuote("ada@example.com")
			policy, err := c.PurchaseTuition(ctx, &insurance.TuitionPurchaseRequest{QuoteID: quoteID, PaymentMethod: tt.pm})
			if tt.want != nil {
				assert.ErrorIs(t, err, tt.want)
				assert.NotErrorIs(t, err, insurance.ErrOutcomeUnknown, "a 4xx is a definite answer")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, http.StatusCreated, policy.StatusCode)
			assert.Equal(t, quoteID, policy.QuoteID)
			var body struct {
				Status, CustomerEmailAddress string
				Premium                      float64
			}
			require.NoError(t, json.Unmarshal(policy.Raw, &struct {
				Status  *string  `json:"status"`
				Email   *string  `json:"customer_email_address"`
				Premium *float64 `json:"premium"`
			}{&body.Status, &body.CustomerEmailAddress, &body.Premium}))
			assert.Equal(t, "ACTIVE", body.Status)
			assert.Equal(t, "ada@example.com", body.CustomerEmailAddress)
			assert.Equal(t, 120.00, body.Premium)
		})
	}

	t.Run("gap-medical TokenDeclined", func(t *testing.T) {
		quote, err := srv.Client(insurance.WithClientID(srv.ClientID)).QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
		require.NoError(t, err)
		secret, err := c.CreateCustomerSecret(ctx, "ada@example.com")
		require.NoError(t, err)
		_, err = c.PurchaseGapMedical(ctx, secret.Secret, &insurance.GapMedicalPurchaseRequest{
			QuoteID: quote.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenDeclined},
		})
		assert.ErrorIs(t, err, insurance.ErrPaymentFailed)
	})
}

func TestAQuoteIsBoughtOnce(t *testing.T) {
	srv := newSandbox(t)
	c := srv.Client()
	buy := func(quoteID string) error {
		_, err := c.PurchaseTuition(ctx, &insurance.TuitionPurchaseRequest{
			QuoteID: quoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
		})
		return err
	}

	quoteID := srv.NewTuitionQuote("ada@example.com")
	require.NoError(t, buy(quoteID))
	assert.ErrorIs(t, buy(quoteID), insurance.ErrQuoteUnavailable)
	assert.ErrorIs(t, buy("q_unknown"), insurance.ErrBadRequest)

	t.Run("concurrent purchases: exactly one wins", func(t *testing.T) {
		quoteID := srv.NewTuitionQuote("bob@example.com")
		var wg sync.WaitGroup
		errs := make([]error, 32)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = buy(quoteID)
			}()
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			if err == nil {
				won++
			} else {
				assert.ErrorIs(t, err, insurance.ErrQuoteUnavailable)
			}
		}
		assert.Equal(t, 1, won)
	})
}
