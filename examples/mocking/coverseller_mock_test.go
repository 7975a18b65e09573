package main

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/mock"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// With a mock of Insurer, the service's own interface over the client
// (mock_insurer_test.go): no HTTP and no server, and any answer the SDK can give,
// built as the SDK builds it, down to the fields errors.Is reads (APIError.StatusCode,
// Path and OutcomeUnknown; RequestError.OutcomeUnknown and Err). These are the unit
// tests of the service's own logic about outcomes: what it tells the customer, what it
// records, and what it never sends twice. What the SDK sends and how it reads raw
// answers is httpmock's part; whole flows are the sandbox's (coverseller_test.go).

const mockQuoteID = "q_1"

// Each outcome of a tuition purchase the SDK can report, and what the service makes of
// it: its error, its record, and whether a second purchase of the quote reaches the
// insurer (never once the policy exists or may exist).
func TestBuyTuitionCoverWithMockRecordsEachOutcome(t *testing.T) {
	t.Parallel()
	card := insurance.Card{Number: insurancetest.CardOK}
	tests := []struct {
		name      string
		policy    *insurance.Policy
		err       error
		want      []error // the service's error matches each; none: no error
		state     PurchaseState
		policyID  string
		sentAgain bool  // a second purchase of the quote reaches the insurer
		again     error // and the second purchase's error matches this
	}{{
		name:   "issued",
		policy: &insurance.Policy{PolicyID: "pol_1", QuoteID: mockQuoteID},
		state:  Bought, policyID: "pol_1", again: ErrAlreadyCovered,
	}, {
		name:  "503 once the request may have arrived: the policy may exist",
		err:   &insurance.APIError{StatusCode: 503, Method: "POST", Path: "/v1/purchase/tuition", OutcomeUnknown: true},
		want:  []error{ErrCheckStatus, insurance.ErrOutcomeUnknown, insurance.ErrServer},
		state: Unknown, again: ErrCheckStatus,
	}, {
		name:  "deadline passed once the request went out: the policy may exist",
		err:   &insurance.RequestError{Method: "POST", Path: "/v1/purchase/tuition", Attempts: 1, OutcomeUnknown: true, Err: context.DeadlineExceeded},
		want:  []error{ErrCheckStatus, insurance.ErrOutcomeUnknown, context.DeadlineExceeded},
		state: Unknown, again: ErrCheckStatus,
	}, {
		name:  "402: the card was declined, the customer may try again",
		err:   &insurance.APIError{StatusCode: 402, Method: "POST", Path: "/v1/purchase/tuition"},
		want:  []error{ErrCardDeclined},
		state: Failed, sentAgain: true, again: ErrCardDeclined,
	}, {
		// The quote is gone because a pending or active policy exists for it: the
		// booking is covered (the policy's id comes from the insurer), and the quote
		// is not bought again.
		name:  "422: a policy exists for the quote",
		err:   &insurance.APIError{StatusCode: 422, Method: "POST", Path: "/v1/purchase/tuition", Code: "quote_unavailable"},
		want:  []error{ErrAlreadyCovered},
		state: Bought, again: ErrAlreadyCovered,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			calls := 1
			if tc.sentAgain {
				calls = 2
			}
			ins := NewMockInsurer(t)
			ins.On("PurchaseTuition", mock.Anything, mock.MatchedBy(func(req *insurance.TuitionPurchaseRequest) bool {
				return req.QuoteID == mockQuoteID && req.PaymentMethod.Card != nil && *req.PaymentMethod.Card == card
			})).Return(tc.policy, tc.err).Times(calls)
			log := NewMemoryLog()
			seller := &CoverSeller{Insurance: ins, Purchases: log}

			policyID, err := seller.BuyTuitionCover(context.Background(), mockQuoteID, card)

			if len(tc.want) == 0 {
				require.NoError(t, err)
			}
			for _, want := range tc.want {
				assert.ErrorIs(t, err, want)
			}
			assert.Equal(t, tc.state == Unknown, errors.Is(err, ErrCheckStatus), "ErrCheckStatus exactly when the outcome is unknown")
			assert.Equal(t, tc.policyID, policyID)
			recorded, ok := log.Get(mockQuoteID)
			require.True(t, ok, "the purchase is recorded")
			assert.Equal(t, tc.state, recorded.State)
			assert.Equal(t, tc.policyID, recorded.PolicyID)

			_, err = seller.BuyTuitionCover(context.Background(), mockQuoteID, card)
			assert.ErrorIs(t, err, tc.again)
			ins.AssertExpectations(t) // also run at the end by NewMockInsurer
		})
	}
}

// The purchase is made under the customer secret StartCheckout minted, with the
// browser's token; a 401 to it (the secret expired) tells the page to start again,
// and the customer may then buy the quote.
func TestCheckoutWithMockSecretExpired(t *testing.T) {
	t.Parallel()
	checkout := Checkout{QuoteID: mockQuoteID, CustomerEmail: "ada@example.com", CoverageStart: insurance.NewDate(2027, time.April, 1)}
	ins := NewMockInsurer(t)
	ins.On("CreateCustomerSecret", mock.Anything, checkout.CustomerEmail).
		Return(&insurance.CustomerSecret{Secret: "cs_1", EmailAddress: checkout.CustomerEmail}, nil).Once()
	ins.On("PurchaseGapMedical", mock.Anything, "cs_1", mock.MatchedBy(func(req *insurance.GapMedicalPurchaseRequest) bool {
		return req.QuoteID == mockQuoteID && req.PaymentMethod.Token == insurancetest.TokenOK
	})).Return(nil, &insurance.APIError{StatusCode: 401, Method: "POST", Path: "/v1/purchase/gap-medical"}).Once()
	log := NewMemoryLog()
	seller := &CoverSeller{Insurance: ins, Purchases: log}

	secret, err := seller.StartCheckout(context.Background(), checkout.CustomerEmail)
	require.NoError(t, err)
	_, err = seller.FinishCheckout(context.Background(), secret, checkout, insurancetest.TokenOK)

	assert.ErrorIs(t, err, ErrCheckoutExpired)
	recorded, ok := log.Get(mockQuoteID)
	require.True(t, ok)
	assert.Equal(t, Failed, recorded.State)
	ins.AssertExpectations(t)
}

// Reconcile reads the insurer's answer to a gap-medical quote sent again: a 422 says
// the policy exists, a quote says none does, any other error leaves the purchase for
// the next run. A tuition purchase goes to a person and is never sent again. In fake
// time, past the grace period.
func TestReconcileWithMockSettlesByTheQuotesAnswer(t *testing.T) {
	t.Parallel()
	start := insurance.NewDate(2027, time.April, 1)
	tests := []struct {
		name    string
		quote   *insurance.Quote
		err     error
		state   PurchaseState
		wantErr error
	}{
		{"422: a policy exists", nil, &insurance.APIError{StatusCode: 422, Method: "POST", Path: "/v1/quote/gap-medical"}, Bought, nil},
		{"a quote: no policy exists", &insurance.Quote{QuoteID: mockQuoteID}, nil, Failed, nil},
		{"503: settled on a later run", nil, &insurance.APIError{StatusCode: 503, Method: "POST", Path: "/v1/quote/gap-medical"}, Unknown, insurance.ErrServer},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ins := NewMockInsurer(t)
				ins.On("QuoteGapMedical", mock.Anything, mock.MatchedBy(func(req *insurance.GapMedicalQuoteRequest) bool {
					return req.QuoteID == mockQuoteID && req.Customer.EmailAddress == "ada@example.com" &&
						req.PolicyAttributes.CoverageStartDate == start
				})).Return(tc.quote, tc.err).Once()
				log := NewMemoryLog()
				seller := &CoverSeller{Insurance: ins, Purchases: log}
				ctx := context.Background()
				for _, p := range []Purchase{
					{QuoteID: mockQuoteID, Product: ProductGapMedical, CustomerEmail: "ada@example.com", CoverageStart: start},
					{QuoteID: "q_tuition", Product: ProductTuition},
				} {
					_, begun, err := log.Begin(ctx, p)
					require.True(t, begun)
					require.NoError(t, err)
					p.State = Unknown
					require.NoError(t, log.Update(ctx, p))
				}
				time.Sleep(2 * time.Minute)

				_, err := seller.Reconcile(ctx, time.Minute)

				if tc.wantErr == nil {
					require.NoError(t, err)
				} else {
					assert.ErrorIs(t, err, tc.wantErr)
				}
				gap, _ := log.Get(mockQuoteID)
				assert.Equal(t, tc.state, gap.State)
				tuition, _ := log.Get("q_tuition")
				assert.Equal(t, CheckWithInsurer, tuition.State)
				ins.AssertExpectations(t)
			})
		})
	}
}

// The service reads the premium from the quote's raw answer, which the SDK does not
// type: a quote without one is an error, not a free cover.
func TestQuoteTripWithMockNeedsAPremium(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]float64{`{"premium":88.5}`: 88.5, `{}`: 0} {
		ins := NewMockInsurer(t)
		ins.On("QuoteTravel", mock.Anything, mock.MatchedBy(func(req *insurance.TravelQuoteRequest) bool {
			return req.PolicyAttributes.TripCost == 1200 && req.Customer.EmailAddress == "ada@example.com"
		})).Return(&insurance.Quote{QuoteID: mockQuoteID, Response: insurance.Response{Raw: json.RawMessage(raw)}}, nil).Once()
		b := booking()

		premium, err := (&CoverSeller{Insurance: ins}).QuoteTrip(context.Background(), b)

		if want == 0 {
			assert.ErrorContains(t, err, "no premium", raw)
		} else {
			require.NoError(t, err, raw)
		}
		assert.Equal(t, want, premium, raw)
		assert.Equal(t, mockQuoteID, b.QuoteID, raw)
		ins.AssertExpectations(t)
	}
}

// A CoverSeller built without an Insurer reports it, as one given a zero
// *insurance.Client did, rather than panicking.
func TestCoverSellerWithoutInsurerFails(t *testing.T) {
	t.Parallel()
	seller := &CoverSeller{Purchases: NewMemoryLog()}
	require.NotPanics(t, func() {
		_, err := seller.QuoteTrip(context.Background(), booking())
		assert.Error(t, err)
		_, err = seller.BuyTuitionCover(context.Background(), mockQuoteID, insurance.Card{Number: insurancetest.CardOK})
		assert.Error(t, err)
	})
}
