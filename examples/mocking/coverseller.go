package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/partnerinsure/insurance-go"
)

// This file is the partner's own code: a small service that sells cover for a school
// trip booking. It calls the insurer through Insurer, its own interface over the SDK's
// client (insurer.go), records every purchase before it calls the insurer
// (purchases.go) and settles the ones whose outcome it could not learn
// (reconcile.go). Its tests show the three ways to test such code, each for its own
// kind of test:
//
//   - a mock of Insurer (coverseller_mock_test.go, with mock_insurer_test.go as
//     mockery generates it): unit tests of the service's own logic about outcomes,
//     fast and without HTTP, with any error the SDK can return built as the SDK
//     builds it (an *insurance.APIError or *insurance.RequestError);
//   - httpmock through insurance.WithHTTPClient (coverseller_test.go): what the SDK
//     sends for the service, and how it maps the raw answers you script;
//   - the insurancetest sandbox (coverseller_test.go, reconcile_test.go): flows and
//     failure paths end to end, with its faults, request log and fake time.

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
	// Insurance is the insurer: an *insurance.Client, or a fake in tests.
	Insurance Insurer
	// Purchases records each purchase before the insurer is called. Required to buy.
	Purchases PurchaseLog
	// CallTimeout bounds each call to the insurer (0: only the caller's context).
	CallTimeout time.Duration
}

// insurer returns the Insurer to call. Without one it returns a nil
// *insurance.Client, which refuses every call with an error rather than panicking.
func (s *CoverSeller) insurer() Insurer {
	if s.Insurance == nil {
		return (*insurance.Client)(nil)
	}
	return s.Insurance
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
	quote, err := s.insurer().QuoteTravel(ctx, &insurance.TravelQuoteRequest{
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
	// The interface does not show a quote's fields: "premium" is the sandbox's name
	// for it (insurancetest's package doc). Check what the service sends, and that
	// it came.
	var body struct {
		Premium *float64 `json:"premium"`
	}
	if err := quote.Decode(&body); err != nil {
		return 0, fmt.Errorf("reading the premium: %w", err)
	}
	if body.Premium == nil {
		return 0, fmt.Errorf("quoting trip cover: the answer has no premium")
	}
	return *body.Premium, nil
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
	policy, err := s.insurer().PurchaseTuition(callCtx, &insurance.TuitionPurchaseRequest{
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
	case errors.Is(err, insurance.ErrQuoteUnavailable): // a pending or active policy exists for the quote
		p.State, result = Bought, ErrAlreadyCovered // its id comes from the insurer, as Reconcile's does
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
	secret, err := s.insurer().CreateCustomerSecret(ctx, email)
	if err != nil {
		return "", fmt.Errorf("starting the checkout: %w", err)
	}
	if secret.Secret == "" {
		return "", fmt.Errorf("starting the checkout: the answer has no secret")
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
	policy, err := s.insurer().PurchaseGapMedical(callCtx, customerSecret, &insurance.GapMedicalPurchaseRequest{
		QuoteID: c.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: paymentToken},
	})
	return s.finish(ctx, p, policy, err)
}
