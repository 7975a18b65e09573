package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/partnerinsure/insurance-go"
)

// This file is the partner's own code: a small service that sells cover for a school
// trip booking. Its tests (coverseller_test.go) show the two ways to test such code:
// the insurancetest sandbox, whose faults, request log and clock reach every failure
// path, and httpmock through WithHTTPClient.

// Errors the partner's service reports to its callers.
var (
	ErrAlreadyCovered  = errors.New("the booking is already covered")
	ErrCardDeclined    = errors.New("the card was declined")
	ErrCheckStatus     = errors.New("the purchase may have gone through: check before charging again")
	ErrCheckoutExpired = errors.New("the checkout took too long: start it again")
)

// Booking is the partner's own booking record.
type Booking struct {
	CustomerEmail string
	TripCost      float64
	Start, End    insurance.Date
	QuoteID       string // set once the booking has been quoted
}

// CoverSeller sells trip, tuition and gap-medical cover through the insurance SDK.
type CoverSeller struct {
	Insurance *insurance.Client
	// CallTimeout bounds each call to the insurer (0: only the caller's context).
	CallTimeout time.Duration
}

// bounded gives one call to the insurer its CallTimeout.
func (s *CoverSeller) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	if s.CallTimeout <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, s.CallTimeout)
}

// QuoteTrip quotes travel cover for the booking, or refreshes its quote.
func (s *CoverSeller) QuoteTrip(ctx context.Context, b *Booking) (premium float64, err error) {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
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
	if quote.QuoteID == "" {
		return 0, fmt.Errorf("quoting trip cover: the answer has no quote_id")
	}
	b.QuoteID = quote.QuoteID
	var body struct {
		Premium *float64 `json:"premium"` // the interface does not type it: check it came
	}
	if err := quote.Decode(&body); err != nil {
		return 0, fmt.Errorf("reading the premium: %w", err)
	}
	if body.Premium == nil {
		return 0, fmt.Errorf("quoting trip cover: the answer has no premium")
	}
	return *body.Premium, nil
}

// BuyTuitionCover buys tuition cover for a tuition quote with a card.
func (s *CoverSeller) BuyTuitionCover(ctx context.Context, quoteID string, card insurance.Card) (policyID string, err error) {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
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

// StartCheckout mints the short-lived customer secret a browser needs to buy
// gap-medical cover for email; the partner's client secret never leaves the server.
func (s *CoverSeller) StartCheckout(ctx context.Context, email string) (customerSecret string, err error) {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	secret, err := s.Insurance.CreateCustomerSecret(ctx, email)
	if err != nil {
		return "", fmt.Errorf("starting the checkout: %w", err)
	}
	if secret.Secret == "" {
		return "", fmt.Errorf("starting the checkout: the answer has no secret")
	}
	return secret.Secret, nil
}

// FinishCheckout buys gap-medical cover with the payment token the browser's component
// produced, under the checkout's customer secret.
func (s *CoverSeller) FinishCheckout(ctx context.Context, customerSecret, quoteID, paymentToken string) (policyID string, err error) {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	policy, err := s.Insurance.PurchaseGapMedical(ctx, customerSecret, &insurance.GapMedicalPurchaseRequest{
		QuoteID: quoteID, PaymentMethod: insurance.PaymentMethod{Token: paymentToken},
	})
	switch {
	case errors.Is(err, insurance.ErrUnauthorized): // the customer secret is short-lived
		return "", ErrCheckoutExpired
	case errors.Is(err, insurance.ErrPaymentFailed):
		return "", ErrCardDeclined
	case errors.Is(err, insurance.ErrOutcomeUnknown):
		return "", fmt.Errorf("%w: %w", ErrCheckStatus, err)
	case err != nil:
		return "", fmt.Errorf("finishing the checkout: %w", err)
	}
	return policy.PolicyID, nil
}
