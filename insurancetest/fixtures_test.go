package insurancetest_test

// Fixtures shared by this package's tests. The tests use the sandbox as a partner's
// test would: through the SDK (or net/http alone, for the HTTP controls), over loopback
// and, with bothWays, in memory too. Each file tests one part of the package doc.

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

var ctx = context.Background()

func newSandbox(t *testing.T, opts ...insurancetest.Option) *insurancetest.Server {
	t.Helper()
	srv := insurancetest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv
}

func travelQuote(email string) *insurance.TravelQuoteRequest {
	return &insurance.TravelQuoteRequest{
		Customer: insurance.Customer{EmailAddress: email},
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:      1000,
			TripStartDate: insurance.NewDate(2027, time.March, 1),
			TripEndDate:   insurance.NewDate(2027, time.March, 3),
			CoverageType:  insurance.CoverageBasic,
		},
	}
}

func gapMedicalQuote(email string) *insurance.GapMedicalQuoteRequest {
	return &insurance.GapMedicalQuoteRequest{
		Customer:         insurance.Customer{EmailAddress: email},
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{CoverageStartDate: insurance.NewDate(2027, time.April, 1)},
	}
}

func apiError(t *testing.T, err error) *insurance.APIError {
	t.Helper()
	var apiErr *insurance.APIError
	require.ErrorAs(t, err, &apiErr)
	return apiErr
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// bothWays runs test against a sandbox on loopback and one in memory.
func bothWays(t *testing.T, test func(t *testing.T, srv *insurancetest.Server)) {
	for _, way := range []struct {
		name string
		opts []insurancetest.Option
	}{
		{"loopback", nil},
		{"in memory", []insurancetest.Option{insurancetest.InMemory()}},
	} {
		t.Run(way.name, func(t *testing.T) { test(t, newSandbox(t, way.opts...)) })
	}
}

func tuitionByCard(quoteID, number string) *insurance.TuitionPurchaseRequest {
	return &insurance.TuitionPurchaseRequest{
		QuoteID: quoteID,
		PaymentMethod: insurance.PaymentMethod{Card: &insurance.Card{
			Name: "Ada Lovelace", Number: number, Verification: "987", Month: "12", Year: "2030",
		}},
	}
}
