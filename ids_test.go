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

func TestIDsFallBackToID(t *testing.T) {
	tests := []struct {
		name, quote, policy         string
		quoteID, policyID, policysQ string
	}{
		{"named ids", `{"quote_id":"q_1","id":"x"}`, `{"policy_id":"pol_1","quote_id":"q_1","id":"x"}`, "q_1", "pol_1", "q_1"},
		{"only id", `{"id":"q_9"}`, `{"id":"pol_1","quote_id":"q_9"}`, "q_9", "pol_1", "q_9"},
		{"id not a string", `{"quote_id":"q_1","id":7}`, `{"policy_id":"pol_1","id":{"n":7}}`, "q_1", "pol_1", ""},
		{"ids as JSON numbers", `{"quote_id":12345}`, `{"policy_id":98765,"quote_id":12345}`, "12345", "98765", "12345"},
		{"a number as id", `{"id":7}`, `{"id":8.0,"quote_id":"q_1"}`, "7", "8.0", "q_1"},
		{"no policy id at all", `{"quote_id":"q_1"}`, `{"status":"ACTIVE"}`, "q_1", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := wiretest.NewMockClient(t)
			mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/quote/travel", httpmock.NewStringResponder(201, tt.quote))
			mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/purchase/tuition", httpmock.NewStringResponder(201, tt.policy))

			q, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
			require.NoError(t, err)
			assert.Equal(t, tt.quoteID, q.QuoteID)
			assert.JSONEq(t, tt.quote, string(q.Raw))
			p, err := c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
			require.NoError(t, err)
			assert.Equal(t, tt.policyID, p.PolicyID)
			assert.Equal(t, tt.policysQ, p.QuoteID)
		})
	}
}

// A named id that is neither a string nor a number is a malformed answer, not an
// empty id.
func TestAnIDOfTheWrongTypeIsADecodeError(t *testing.T) {
	c, mt := wiretest.NewMockClient(t)
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/quote/travel", httpmock.NewStringResponder(201, `{"quote_id":true}`))
	_, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	var reqErr *insurance.RequestError
	require.ErrorAs(t, err, &reqErr)
	assert.Contains(t, err.Error(), "decoding response body")
	assert.Equal(t, 201, reqErr.StatusCode)
	assert.JSONEq(t, `{"quote_id":true}`, string(reqErr.Body), "what the server sent is kept")
}

// An id in a string is the string encoding/json decodes: escapes undone, invalid UTF-8
// replaced.
func TestAnIDIsDecodedAsAJSONString(t *testing.T) {
	for _, raw := range []string{`"q_1"`, `""`, `"q_\u00e9\"1\\"`, `"q_\ud83d\ude00"`, "\"q_\xff\xfe1\"", "\"q_\u00e9\xff\""} {
		t.Run(raw, func(t *testing.T) {
			var want string
			require.NoError(t, json.Unmarshal([]byte(raw), &want))
			c, mt := wiretest.NewMockClient(t)
			mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/purchase/tuition", httpmock.NewStringResponder(201, `{"policy_id":`+raw+`,"quote_id":`+raw+`}`))
			p, err := c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
			require.NoError(t, err)
			assert.Equal(t, want, p.PolicyID)
			assert.Equal(t, want, p.QuoteID)
		})
	}
}
