package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
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
// test values, without scripting any answer; the failure paths follow below.
func TestCoverSellerWithSandbox(t *testing.T) {
	t.Parallel()
	srv := insurancetest.NewServer()
	defer srv.Close()
	seller := &CoverSeller{Insurance: srv.Client(), Purchases: NewMemoryLog()}
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

// The failure paths partner code must get right, with the sandbox alone: its faults,
// request log and clock stand in for the network, the insurer and time.

// A 503 on a purchase is not retried by the SDK (the policy may exist): the service
// says "check before charging again", and the insurer saw one request.
func TestBuyTuitionCover503IsSentOnce(t *testing.T) {
	t.Parallel()
	srv := insurancetest.NewServer()
	defer srv.Close()
	srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Status: 503, Body: "<html>upstream down</html>"})

	_, err := (&CoverSeller{Insurance: srv.Client(), Purchases: NewMemoryLog()}).BuyTuitionCover(context.Background(), srv.NewTuitionQuote("ada@example.com"), insurance.Card{Number: insurancetest.CardOK})

	assert.ErrorIs(t, err, ErrCheckStatus)
	assert.Len(t, srv.Requests(), 1, "sent once")
	assert.Empty(t, srv.Policies(), "this 503 came before the insurer handled it")
}

// The hard case: the insurer issued the policy, then the connection dropped before the
// answer. The service cannot know; the test can, and finds the policy.
func TestBuyTuitionCoverDroppedAfterThePolicyWasIssued(t *testing.T) {
	t.Parallel()
	srv := insurancetest.NewServer()
	defer srv.Close()
	srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Process: true, Drop: true})
	quoteID := srv.NewTuitionQuote("ada@example.com")

	_, err := (&CoverSeller{Insurance: srv.Client(), Purchases: NewMemoryLog()}).BuyTuitionCover(context.Background(), quoteID, insurance.Card{Number: insurancetest.CardOK})

	assert.ErrorIs(t, err, ErrCheckStatus, "the customer must not be charged again blindly")
	require.Len(t, srv.Policies(), 1, "the policy exists")
	assert.Equal(t, quoteID, srv.Policies()[0].QuoteID)
	assert.Len(t, srv.Requests(), 1, "and the SDK did not send the purchase again")
}

// A slow purchase (one route only) runs into the service's own call timeout; quotes
// stay fast. In fake time: the minute-long delay costs no real time.
func TestBuyTuitionCoverTimesOutWhileQuotesStayFast(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := insurancetest.NewServer(insurancetest.InMemory())
		srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Delay: time.Minute})
		seller := &CoverSeller{Insurance: srv.Client(), Purchases: NewMemoryLog(), CallTimeout: 10 * time.Second}
		start := time.Now()

		_, err := seller.QuoteTrip(context.Background(), booking())
		require.NoError(t, err)
		assert.Zero(t, time.Since(start), "the quote is not delayed")

		_, err = seller.BuyTuitionCover(context.Background(), srv.NewTuitionQuote("ada@example.com"), insurance.Card{Number: insurancetest.CardOK})
		assert.ErrorIs(t, err, ErrCheckStatus)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, 10*time.Second, time.Since(start), "gave up at the service's timeout")
	})
}

// A checkout left open past the customer secret's lifetime is refused; the service
// tells the page to start again, and a fresh secret works.
func TestCheckoutSecretExpires(t *testing.T) {
	t.Parallel()
	srv := insurancetest.NewServer()
	defer srv.Close()
	seller := &CoverSeller{Insurance: srv.Client(), Purchases: NewMemoryLog()}
	ctx := context.Background()
	checkout := gapMedicalCheckout(t, srv)

	secret, err := seller.StartCheckout(ctx, checkout.CustomerEmail)
	require.NoError(t, err)
	srv.Advance(16 * time.Minute) // the customer went for lunch
	_, err = seller.FinishCheckout(ctx, secret, checkout, insurancetest.TokenOK)
	assert.ErrorIs(t, err, ErrCheckoutExpired)

	secret, err = seller.StartCheckout(ctx, "ada@example.com")
	require.NoError(t, err)
	policyID, err := seller.FinishCheckout(ctx, secret, checkout, insurancetest.TokenOK)
	require.NoError(t, err)
	assert.NotEmpty(t, policyID)

	sent := len(srv.Requests())
	_, err = seller.FinishCheckout(ctx, secret, checkout, insurancetest.TokenOK)
	assert.ErrorIs(t, err, ErrAlreadyCovered, "bought once: the service does not buy it again")
	assert.Len(t, srv.Requests(), sent, "and sends nothing")
}

// Two 503s on a quote: the SDK waits and retries, the service sees a quote. With
// second-long retry waits, in fake time.
func TestQuoteTripRidesOutAShortOutage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := insurancetest.NewServer(insurancetest.InMemory())
		srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: 2, Status: 503})
		seller := &CoverSeller{Insurance: srv.Client(insurance.WithRetryWait(time.Second, 30*time.Second))}
		start := time.Now()

		premium, err := seller.QuoteTrip(context.Background(), booking())

		require.NoError(t, err)
		assert.Greater(t, premium, 0.0)
		assert.Len(t, srv.Requests(), 3)
		assert.GreaterOrEqual(t, time.Since(start), 1500*time.Millisecond, "two retry waits (with jitter)")
	})
}

// The same failure with httpmock: you script the answer yourself.
func TestBuyTuitionCoverOutcomeUnknown(t *testing.T) {
	t.Parallel()
	client, mock := mockedClient(t)
	mock.RegisterResponder(http.MethodPost, "https://api.insurer.example/v1/purchase/tuition",
		httpmock.NewStringResponder(503, `<html>upstream down</html>`))

	_, err := (&CoverSeller{Insurance: client, Purchases: NewMemoryLog()}).BuyTuitionCover(context.Background(), "q_1", insurance.Card{Number: insurancetest.CardOK})
	assert.ErrorIs(t, err, ErrCheckStatus)
	assert.Equal(t, 1, mock.GetTotalCallCount(), "sent once")
}

func TestRun(t *testing.T) {
	var out strings.Builder
	require.NoError(t, run(context.Background(), nil, &out))
	assert.Contains(t, out.String(), "Tuition cover bought: policy pol_")
	assert.Contains(t, out.String(), "The sandbox holds that policy (pol_")
	assert.Contains(t, out.String(), "Reconciled the tuition purchase of quote q_")
	assert.Contains(t, out.String(), ": check-with-insurer\n")
	assert.Contains(t, out.String(), "Reconciled the gap-medical purchase of quote q_")
	assert.Contains(t, out.String(), ": bought\n")
}
