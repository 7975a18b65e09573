package insurance_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// A partner who logs a purchase with slog (lg.Info("purchase", "req", req)) writes no
// card number, verification code, account number or secret, with the JSON handler or
// the text one, whether it logs a value or a pointer; what helps support (the last
// four digits, the quote) is still there.
func TestSlogShowsNoCardNumberAccountNumberOrSecret(t *testing.T) {
	tuition, gapMedical, partner := wiretest.FullTuitionPurchase(), wiretest.FullGapMedicalPurchase(), wiretest.FullOnboardPartner()
	gapMedical.PaymentMethod.Card = tuition.PaymentMethod.Card
	secret := insurance.CustomerSecret{Secret: "cs_live_abcdefghijklmnop", EmailAddress: "ada@example.com"}
	values := []any{
		tuition, *tuition, tuition.PaymentMethod, &tuition.PaymentMethod, *tuition.PaymentMethod.Card,
		tuition.PaymentMethod.Card, *tuition.PaymentMethod.BankAccount, gapMedical, *gapMedical,
		partner, *partner, *partner.BankAccount, secret, &secret,
	}
	for name, handler := range map[string]func(*bytes.Buffer) slog.Handler{
		"JSON": func(b *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(b, nil) },
		"text": func(b *bytes.Buffer) slog.Handler { return slog.NewTextHandler(b, nil) },
	} {
		var out bytes.Buffer
		lg := slog.New(handler(&out))
		for _, v := range values {
			lg.Info("purchase", "req", v)
		}
		scan(t, name+" log", out.String())
		assert.NotContains(t, out.String(), "!ERROR", "%s: every value resolves", name)
		assert.Contains(t, out.String(), "4242", "%s: the card's last four digits help support", name)
		assert.Contains(t, out.String(), tuition.QuoteID, name)
		assert.Contains(t, out.String(), "ada@example.com", name)
	}
	var out bytes.Buffer
	slog.New(slog.NewJSONHandler(&out, nil)).Info("purchase", "req", tuition)
	assert.Contains(t, out.String(), `"payment_method":{"card":{"name"`, "the JSON keeps the wire's names")
}

// The client secret and the Basic header are out of reflection's reach: fmt's %+v of
// a Client value, testify's diff of two Clients and Go syntax show neither.
func TestClientSecretsAreOutOfReflectionsReach(t *testing.T) {
	one, err := insurance.NewClient(wiretest.BaseURL, wiretest.Credentials)
	require.NoError(t, err)
	other, err := one.With(insurance.WithUserAgent("agency-2"))
	require.NoError(t, err)
	scan(t, "a Client value", fmt.Sprintf("%v|%+v|%#v", *one, *one, *one))
	scan(t, "testify's diff of two Clients", diffOf(*one, *other))
}
