package main

import (
	"context"

	"github.com/partnerinsure/insurance-go"
)

// Insurer is what CoverSeller needs of the SDK: the five methods of *insurance.Client
// it calls, with the SDK's exact signatures (options per call last), so that the
// client satisfies it as it is and a test can hand CoverSeller a fake instead
// (mock_insurer_test.go, what mockery generates). It is the partner's interface, not
// the SDK's: keep it to the methods your code calls, and let the compiler check below
// that the real client still fits when you upgrade the SDK.
type Insurer interface {
	QuoteTravel(ctx context.Context, req *insurance.TravelQuoteRequest, opts ...insurance.Option) (*insurance.Quote, error)
	QuoteGapMedical(ctx context.Context, req *insurance.GapMedicalQuoteRequest, opts ...insurance.Option) (*insurance.Quote, error)
	PurchaseTuition(ctx context.Context, req *insurance.TuitionPurchaseRequest, opts ...insurance.Option) (*insurance.Policy, error)
	PurchaseGapMedical(ctx context.Context, customerSecret string, req *insurance.GapMedicalPurchaseRequest, opts ...insurance.Option) (*insurance.Policy, error)
	CreateCustomerSecret(ctx context.Context, emailAddress string, opts ...insurance.Option) (*insurance.CustomerSecret, error)
}

var _ Insurer = (*insurance.Client)(nil)
