package insurance_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// A boolean request field left nil is not sent; Bool(false) sends false, and
// Bool(true) true: the interface shows no defaults, so false must be sayable.
func TestBooleanFieldsSendFalseWhenAsked(t *testing.T) {
	for name, value := range map[string]*bool{"nil": nil, "false": insurance.Bool(false), "true": insurance.Bool(true)} {
		t.Run(name, func(t *testing.T) {
			c, mt := wiretest.NewMockClient(t)
			var rec wiretest.Recorder
			mt.RegisterNoResponder(rec.Respond(201, wiretest.CreatedBody))
			ctx := context.Background()

			_, err := c.QuoteTravel(ctx, &insurance.TravelQuoteRequest{EmailQuote: value})
			require.NoError(t, err)
			_, err = c.PurchaseTuition(ctx, &insurance.TuitionPurchaseRequest{QuoteID: "q_1", Subscription: value,
				PaymentMethod: insurance.PaymentMethod{Token: "tok_ok", SaveForFutureUse: value}})
			require.NoError(t, err)
			partner := wiretest.FullOnboardPartner()
			partner.TravelRetailer = value
			_, err = c.OnboardPartner(ctx, partner)
			require.NoError(t, err)

			want := map[string]any{} // what each request's field is, when sent
			if value != nil {
				want["sent"] = *value
			}
			sent := rec.Requests()
			require.Len(t, sent, 3)
			assert.Equal(t, want, field(t, sent[0].Body, "email_quote"), "email_quote")
			assert.Equal(t, want, field(t, sent[1].Body, "subscription"), "subscription")
			assert.Equal(t, want, field(t, sent[1].Body, "payment_method", "save_for_future_use"), "save_for_future_use")
			assert.Equal(t, want, field(t, sent[2].Body, "travel_retailer"), "travel_retailer")
		})
	}
}

// field returns {"sent": value} for the JSON field at path in body, or {} when the
// body does not carry it.
func field(t *testing.T, body []byte, path ...string) map[string]any {
	t.Helper()
	var object map[string]any
	require.NoError(t, json.Unmarshal(body, &object))
	for i, name := range path {
		value, ok := object[name]
		switch {
		case !ok:
			return map[string]any{}
		case i == len(path)-1:
			return map[string]any{"sent": value}
		}
		object, ok = value.(map[string]any)
		require.True(t, ok, "%s is an object", name)
	}
	return map[string]any{}
}
