package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/partnerinsure/insurance-go"
)

// This file is the partner's own code: a small service that sells cover for a school
// trip booking. It records every purchase before it calls the insurer
// (purchases.go) and settles the ones whose outcome it could not learn
// (reconcile.go). Its tests (coverseller_test.go, reconcile_test.go) show the two ways
// to test such code: the insurancetest sandbox, whose faults, request log and clock
// reach every failure path, and httpmock through WithHTTPClient.

// Errors the partner's service reports to its callers.
var (
	ErrAlreadyCovered  = errors.New("the booking is already covered")
	ErrCardDeclined    = errors.New("the card was declined")
	ErrCheckStatus     = errors.New("the purchase may have gone through: check before charging again")
	ErrInProgress      = errors.New("a purchase of this quote is under way")
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
	// Purchases records each purchase before the insurer is called. Required to buy.
	Purchases PurchaseLog
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
	b.QuoteID = quote.QuoteID
	var body struct {
		Premium float64 `json:"premium"`
	}
	if err := quote.Decode(&body); err != nil {
		return 0, fmt.Errorf("reading the premium: %w", err)
	}
	return body.Premium, nil
}

// BuyTuitionCover buys tuition cover for a tuition quote with a card, once: a quote
// whose purchase is under way, bought or of unknown outcome is not sent again.
func (s *CoverSeller) BuyTuitionCover(ctx context.Context, quoteID string, card insurance.Card) (policyID string, err error) {
	p := Purchase{QuoteID: quoteID, Product: ProductTuition}
	if err := s.begin(ctx, p); err != nil {
		return "", err
	}
	callCtx, cancel := s.bounded(ctx)
	defer cancel()
	policy, err := s.Insurance.PurchaseTuition(callCtx, &insurance.TuitionPurchaseRequest{
		QuoteID:       quoteID,
		PaymentMethod: insurance.PaymentMethod{Card: &card},
	})
	return s.finish(ctx, p, policy, err)
}

// begin records the intent to buy p's quote, or says why it must not be bought now.
func (s *CoverSeller) begin(ctx context.Context, p Purchase) error {
	if s.Purchases == nil {
		return errors.New("CoverSeller.Purchases is not set: purchases must be recorded")
	}
	existing, begun, err := s.Purchases.Begin(ctx, p)
	switch {
	case err != nil:
		return fmt.Errorf("recording the purchase: %w", err)
	case begun:
		return nil
	case existing.State == Bought:
		return ErrAlreadyCovered
	case existing.State == Sending:
		return ErrInProgress
	}
	return ErrCheckStatus // Unknown or CheckWithInsurer: settle it first
}

// finish records what the insurer's answer (policy, err) says of p, and reports it.
func (s *CoverSeller) finish(ctx context.Context, p Purchase, policy *insurance.Policy, err error) (policyID string, _ error) {
	var result error
	switch {
	case err == nil:
		p.State, p.PolicyID = Bought, policy.PolicyID
	case errors.Is(err, insurance.ErrOutcomeUnknown):
		p.State, result = Unknown, fmt.Errorf("%w: %w", ErrCheckStatus, err)
	case errors.Is(err, insurance.ErrPaymentFailed):
		p.State, result = Failed, ErrCardDeclined
	case errors.Is(err, insurance.ErrUnauthorized) && p.Product == ProductGapMedical: // the customer secret is short-lived
		p.State, result = Failed, ErrCheckoutExpired
	default: // an answer that refuses the purchase, or a failure before it was sent
		p.State, result = Failed, fmt.Errorf("buying %s cover: %w", p.Product, err)
	}
	if err := s.Purchases.Update(ctx, p); err != nil {
		return p.PolicyID, errors.Join(result, fmt.Errorf("recording the purchase as %s (policy %q): %w", p.State, p.PolicyID, err))
	}
	return p.PolicyID, result
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
	return secret.Secret, nil
}

// Checkout is one gap-medical checkout: the quote the browser's component made, and
// what it was made with.
type Checkout struct {
	QuoteID       string
	CustomerEmail string
	CoverageStart insurance.Date
}

// FinishCheckout buys gap-medical cover with the payment token the browser's component
// produced, under the checkout's customer secret, once per quote.
func (s *CoverSeller) FinishCheckout(ctx context.Context, customerSecret string, c Checkout, paymentToken string) (policyID string, err error) {
	p := Purchase{QuoteID: c.QuoteID, Product: ProductGapMedical, CustomerEmail: c.CustomerEmail, CoverageStart: c.CoverageStart}
	if err := s.begin(ctx, p); err != nil {
		return "", err
	}
	callCtx, cancel := s.bounded(ctx)
	defer cancel()
	policy, err := s.Insurance.PurchaseGapMedical(callCtx, customerSecret, &insurance.GapMedicalPurchaseRequest{
		QuoteID: c.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: paymentToken},
	})
	return s.finish(ctx, p, policy, err)
}
