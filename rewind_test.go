package insurance_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

// TestRetriesResendTheWholeBody: a retried call sends the same body and headers on
// every attempt. The pipeline rewinds the body itself (net/http's own resend, which
// rewinds too, plays no part behind a mock transport).
func TestRetriesResendTheWholeBody(t *testing.T) {
	for _, tc := range []struct {
		name   string
		path   string
		status int // answer to the first attempt
		call   func(context.Context, *insurance.Client) error
	}{
		{"quote after 503", "/v1/quote/travel", http.StatusServiceUnavailable, func(ctx context.Context, c *insurance.Client) error {
			_, err := c.QuoteTravel(ctx, fullTravelQuote())
			return err
		}},
		{"purchase after 429", "/v1/purchase/tuition", http.StatusTooManyRequests, func(ctx context.Context, c *insurance.Client) error {
			_, err := c.PurchaseTuition(ctx, fullTuitionPurchase())
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := newMockClient(t)
			rec := &recorder{}
			var calls atomic.Int32
			failFirst := rec.respond(tc.status, `{}`)
			succeed := rec.respond(http.StatusCreated, `{"quote_id":"q_1","policy_id":"pol_1"}`)
			mt.RegisterResponder(http.MethodPost, testBaseURL+tc.path, func(req *http.Request) (*http.Response, error) {
				if calls.Add(1) == 1 {
					return failFirst(req)
				}
				return succeed(req)
			})

			require.NoError(t, tc.call(context.Background(), c))
			require.Len(t, rec.requests, 2)
			first, retry := rec.requests[0], rec.requests[1]
			assert.NotEmpty(t, first.Body)
			assert.Equal(t, string(first.Body), string(retry.Body), "the retry's body")
			assert.Equal(t, first.Header, retry.Header, "the retry's headers")
			requireAllowed(t, retry)
		})
	}
}
