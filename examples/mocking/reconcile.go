package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/partnerinsure/insurance-go"
)

// Reconcile settles the purchases whose outcome the service could not learn: those
// in state Unknown, and those left in Sending by a process that stopped mid-call,
// last updated more than grace ago. grace must outlast any request still on its way
// to the insurer (CallTimeout and then some): a purchase still in flight must not be
// taken for one that never happened. Run it from a periodic job.
//
// A gap-medical purchase is settled by sending its quote again with its quote_id:
// 422 says a pending or active policy exists (Bought, its id to be had from the
// insurer); a quote answered as usual says no policy exists (Failed: the customer may
// buy again). The interface offers nothing of the kind for tuition: those become
// CheckWithInsurer, for a person, and are never sent again. It returns the purchases
// it settled, and the errors of those it could not settle this time.
func (s *CoverSeller) Reconcile(ctx context.Context, grace time.Duration) ([]Purchase, error) {
	open, err := s.Purchases.Open(ctx, time.Now().Add(-grace))
	if err != nil {
		return nil, fmt.Errorf("reading the open purchases: %w", err)
	}
	var settled []Purchase
	var errs []error
	for _, p := range open {
		switch p.Product {
		case ProductGapMedical:
			bought, err := s.policyExists(ctx, p)
			if err != nil {
				errs = append(errs, fmt.Errorf("quote %s: %w", p.QuoteID, err))
				continue // try again on the next run
			}
			p.State = Failed
			if bought {
				p.State = Bought
			}
		default:
			p.State = CheckWithInsurer
		}
		if err := s.Purchases.Update(ctx, p); err != nil {
			errs = append(errs, fmt.Errorf("recording quote %s as %s: %w", p.QuoteID, p.State, err))
			continue
		}
		settled = append(settled, p)
	}
	return settled, errors.Join(errs...)
}

// policyExists sends p's gap-medical quote again, unchanged, with its quote_id.
func (s *CoverSeller) policyExists(ctx context.Context, p Purchase) (bool, error) {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	_, err := s.insurer().QuoteGapMedical(ctx, &insurance.GapMedicalQuoteRequest{
		QuoteID:          p.QuoteID,
		Customer:         insurance.Customer{EmailAddress: p.CustomerEmail},
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{CoverageStartDate: p.CoverageStart},
	})
	switch {
	case errors.Is(err, insurance.ErrQuoteUnavailable):
		return true, nil
	case err != nil:
		return false, err
	}
	return false, nil
}
