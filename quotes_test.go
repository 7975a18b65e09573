package insurance_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// A quote answer without an id is an error at that call, naming the field and
// keeping the body: every later call about the quote would need the id.
func TestAQuoteWithoutAnIDIsAnErrorAtThatCall(t *testing.T) {
	for _, body := range []string{`{}`, `{"premium":12}`, `{"quote_id":""}`, `{"quote_id":null,"id":{"n":1}}`, ``} {
		c, mt := wiretest.NewMockClient(t)
		mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/quote/travel", httpmock.NewStringResponder(201, body))
		q, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
		assert.Nil(t, q, body)
		var reqErr *insurance.RequestError
		require.ErrorAs(t, err, &reqErr, body)
		assert.Contains(t, err.Error(), `no "quote_id"`, body)
		assert.Equal(t, 201, reqErr.StatusCode, body)
		assert.Equal(t, body, string(reqErr.Body), "what the server sent is kept")
		assert.NotErrorIs(t, err, insurance.ErrOutcomeUnknown, "a quote creates no record a partner pays for")
	}
}

func TestZeroFieldsAreNotSent(t *testing.T) {
	b, err := json.Marshal(&insurance.TravelQuoteRequest{Customer: insurance.Customer{EmailAddress: "a@b.example"}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"customer":{"email_address":"a@b.example"}}`, string(b))

	b, err = json.Marshal(&insurance.GapMedicalQuoteRequest{})
	require.NoError(t, err)
	assert.JSONEq(t, `{}`, string(b))
}
