package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

func booking() *Booking {
	return &Booking{
		CustomerEmail: "ada@example.com",
		TripCost:      1200,
		Start:         insurance.NewDate(2027, time.May, 2),
		End:           insurance.NewDate(2027, time.May, 9),
	}
}

// mockedClient gives each test its own httpmock transport through WithHTTPClient
// (never httpmock.Activate, which swaps the global transport and breaks t.Parallel).
func mockedClient(t *testing.T) (*insurance.Client, *httpmock.MockTransport) {
	t.Helper()
	mock := httpmock.NewMockTransport()
	client, err := insurance.NewClient("https://api.insurer.example",
		insurance.WithCredentials("ci_test", "cs_test"),
		insurance.WithHTTPClient(&http.Client{Transport: mock}),
	)
	require.NoError(t, err)
	return client, mock
}

// With httpmock you script each answer and can assert exactly what your code sent.
func TestQuoteTripWithHTTPMock(t *testing.T) {
	t.Parallel()
	client, mock := mockedClient(t)
	seller := &CoverSeller{Insurance: client}

	var sentCost float64
	mock.RegisterResponder(http.MethodPost, "https://api.insurer.example/v1/quote/travel",
		func(req *http.Request) (*http.Response, error) {
			var body struct {
				PolicyAttributes struct {
					TripCost float64 `json:"trip_cost"`
				} `json:"policy_attributes"`
			}
			raw, _ := io.ReadAll(req.Body)
			if err := json.Unmarshal(raw, &body); err != nil {
				return httpmock.NewStringResponse(400, `{"message":"bad json"}`), nil
			}
			sentCost = body.PolicyAttributes.TripCost
			return httpmock.NewStringResponse(201, `{"quote_id":"q_mock_1","premium":88.5}`), nil
		})

	b := booking()
	premium, err := seller.QuoteTrip(context.Background(), b)
	require.NoError(t, err)
	assert.Equal(t, 88.5, premium)
	assert.Equal(t, "q_mock_1", b.QuoteID)
	assert.Equal(t, 1200.0, sentCost)
	assert.Equal(t, 1, mock.GetTotalCallCount())
}

func TestQuoteTripAlreadyCoveredWithHTTPMock(t *testing.T) {
	t.Parallel()
	client, mock := mockedClient(t)
	mock.RegisterResponder(http.MethodPost, "https://api.insurer.example/v1/quote/travel",
		httpmock.NewStringResponder(422, `{"error_code":"quote_unavailable","message":"quote has an active policy"}`))

	b := booking()
	b.QuoteID = "q_bought"
	_, err := (&CoverSeller{Insurance: client}).QuoteTrip(context.Background(), b)
	assert.ErrorIs(t, err, ErrAlreadyCovered)
}

// With insurancetest: a real sandbox on loopback drives success, 402 and 422 with its
// test values, without scripting any answer.
func TestCoverSellerWithSandbox(t *testing.T) {
	t.Parallel()
	srv := insurancetest.NewServer()
	defer srv.Close()
	seller := &CoverSeller{Insurance: srv.Client()}
	ctx := context.Background()

	t.Run("quote, then refresh the same quote", func(t *testing.T) {
		b := booking()
		premium, err := seller.QuoteTrip(ctx, b)
		require.NoError(t, err)
		assert.Greater(t, premium, 0.0)
		first := b.QuoteID

		b.TripCost = 2400
		higher, err := seller.QuoteTrip(ctx, b)
		require.NoError(t, err)
		assert.Equal(t, first, b.QuoteID)
		assert.Greater(t, higher, premium)
	})

	t.Run("422: the booking is already covered", func(t *testing.T) {
		b := booking()
		_, err := seller.QuoteTrip(ctx, b)
		require.NoError(t, err)
		require.NoError(t, srv.MarkPurchased(b.QuoteID))

		_, err = seller.QuoteTrip(ctx, b)
		assert.ErrorIs(t, err, ErrAlreadyCovered)
	})

	t.Run("402: the card is declined", func(t *testing.T) {
		_, err := seller.BuyTuitionCover(ctx, srv.NewTuitionQuote("ada@example.com"), insurance.Card{Number: insurancetest.CardDeclined})
		assert.ErrorIs(t, err, ErrCardDeclined)
	})

	t.Run("success", func(t *testing.T) {
		policyID, err := seller.BuyTuitionCover(ctx, srv.NewTuitionQuote("ada@example.com"), insurance.Card{Number: insurancetest.CardOK})
		require.NoError(t, err)
		assert.NotEmpty(t, policyID)
	})
}

// A 503 on a purchase is never retried by the SDK (the policy may exist); the
// service turns it into ErrCheckStatus.
func TestBuyTuitionCoverOutcomeUnknown(t *testing.T) {
	t.Parallel()
	client, mock := mockedClient(t)
	mock.RegisterResponder(http.MethodPost, "https://api.insurer.example/v1/purchase/tuition",
		httpmock.NewStringResponder(503, `<html>upstream down</html>`))

	_, err := (&CoverSeller{Insurance: client}).BuyTuitionCover(context.Background(), "q_1", insurance.Card{Number: insurancetest.CardOK})
	assert.ErrorIs(t, err, ErrCheckStatus)
	assert.Equal(t, 1, mock.GetTotalCallCount(), "sent once")
}

func TestRun(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(context.Background(), nil, &out))
	assert.Contains(t, out.String(), "Tuition cover bought: policy pol_")
}
