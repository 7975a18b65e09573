package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/partnerinsure/insurance-go"
)

// This file is the partner's own code: a small service that sells cover for a school
// trip booking. Its tests (coverseller_test.go) show the two ways to test such code:
// httpmock through WithHTTPClient, and the insurancetest sandbox.

// Errors the partner's service reports to its callers.
var (
	ErrAlreadyCovered = errors.New("the booking is already covered")
	ErrCardDeclined   = errors.New("the card was declined")
	ErrCheckStatus    = errors.New("the purchase may have gone through: check before charging again")
)

// Booking is the partner's own booking record.
type Booking struct {
	CustomerEmail string
	TripCost      float64
	Start, End    insurance.Date
	QuoteID       string // set once the booking has been quoted
}

// CoverSeller sells trip and tuition cover through the insurance SDK.
type CoverSeller struct {
	Insurance *insurance.Client
}

// QuoteTrip quotes travel cover for the booking, or refreshes its quote.
func (s *CoverSeller) QuoteTrip(ctx context.Context, b *Booking) (premium float64, err error) {
	quote, err := s.Insurance.QuoteTravel(ctx, &insurance.TravelQuoteRequest{
		QuoteID:  b.QuoteID,
		Customer: insurance.Customer{EmailAddress: b.CustomerEmail},
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:      b.TripCost,
			TripStartDate: b.Start,
			TripEndDate:   b.End,
			CoverageType:  insurance.CoverageBasic,
		},
	})
	if errors.Is(err, insurance.ErrQuoteUnavailable) {
		return 0, ErrAlreadyCovered
	}
	if err != nil {
		return 0, fmt.Errorf("quoting trip cover: %w", err)
	}
	b.QuoteID = quote.QuoteID
	var body struct {
		Premium float64 `json:"premium"`
	}
	if err := quote.Decode(&body); err != nil {
		return 0, fmt.Errorf("reading the premium: %w", err)
	}
	return body.Premium, nil
}

// BuyTuitionCover buys tuition cover for a tuition quote with a card.
func (s *CoverSeller) BuyTuitionCover(ctx context.Context, quoteID string, card insurance.Card) (policyID string, err error) {
	policy, err := s.Insurance.PurchaseTuition(ctx, &insurance.TuitionPurchaseRequest{
		QuoteID:       quoteID,
		PaymentMethod: insurance.PaymentMethod{Card: &card},
	})
	switch {
	case errors.Is(err, insurance.ErrPaymentFailed):
		return "", ErrCardDeclined
	case errors.Is(err, insurance.ErrOutcomeUnknown):
		return "", fmt.Errorf("%w: %w", ErrCheckStatus, err)
	case err != nil:
		return "", fmt.Errorf("buying tuition cover: %w", err)
	}
	return policy.PolicyID, nil
}
