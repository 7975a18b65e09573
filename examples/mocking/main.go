// Command mocking is a small partner service, CoverSeller, and the reference for
// testing partner code against the SDK. Its tests show the three ways, each for the
// test it fits:
//
//   - A mock of Insurer, the service's own interface over the client (insurer.go:
//     the five methods it calls, which *insurance.Client satisfies), written with
//     testify's mock package as mockery generates it (mock_insurer_test.go): for unit
//     tests of the partner's own logic about outcomes. Fast, no HTTP, and any error
//     the SDK can return, built as the SDK builds it: coverseller_mock_test.go gives
//     it a 503 and a deadline of unknown outcome, a 402, a 422 and a 401, and checks
//     what the service says and records.
//   - httpmock through insurance.WithHTTPClient (coverseller_test.go): for what the
//     SDK sends for your code, and how it maps the raw answers you script.
//   - The insurancetest sandbox (coverseller_test.go, reconcile_test.go): for flows
//     and failure paths end to end, with its faults (a declined card, a 503 on a
//     purchase, a connection dropped after the policy was issued, a slow route), its
//     request log and fake time. reconcile_test.go settles purchases of unknown
//     outcome as docs/outcome-unknown.md describes.
//
// Run it to see the service work against the in-process sandbox:
//
//	go run ./examples/mocking
//	go test ./examples/mocking
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/examples/internal/cli"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// about is the usage's account of the program, as in the package doc.
const about = `mocking runs CoverSeller, a small partner service, against the in-process
sandbox: a trip quoted, tuition cover declined then bought, then two purchases whose
connection drops after the policy was issued, settled by its reconciliation. It
needs no configuration and never calls a real service.

Its tests are the reference for testing partner code against the SDK, three
ways: read examples/mocking/coverseller_mock_test.go (a mock of the service's own
interface over the client), coverseller_test.go (httpmock, and the sandbox) and
reconcile_test.go, and run go test ./examples/mocking.`

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cli.ExitOnError("mocking", run(ctx, os.Args[1:], os.Stdout))
}

func run(ctx context.Context, args []string, out io.Writer) error {
	if err := cli.Parse(flag.NewFlagSet("mocking", flag.ContinueOnError), args, out, about); err != nil {
		return err
	}
	srv := insurancetest.NewServer()
	defer srv.Close()
	fmt.Fprintf(out, "Using the in-process sandbox at %s.\n", srv.URL)
	seller := &CoverSeller{Insurance: srv.Client(), Purchases: NewMemoryLog()}

	booking := &Booking{
		CustomerEmail: "ada@example.com",
		TripCost:      1200,
		Start:         insurance.NewDate(2027, time.May, 2),
		End:           insurance.NewDate(2027, time.May, 9),
	}
	premium, err := seller.QuoteTrip(ctx, booking)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Trip cover for booking quoted at %.2f (quote %s)\n", premium, booking.QuoteID)

	_, err = seller.BuyTuitionCover(ctx, srv.NewTuitionQuote(booking.CustomerEmail), insurance.Card{Number: insurancetest.CardDeclined})
	if !errors.Is(err, ErrCardDeclined) {
		return fmt.Errorf("expected a declined card, got %v", err)
	}
	fmt.Fprintln(out, "Tuition cover with the declined test card:", err)
	policyID, err := seller.BuyTuitionCover(ctx, srv.NewTuitionQuote(booking.CustomerEmail), insurance.Card{Number: insurancetest.CardOK})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Tuition cover bought: policy %s\n", policyID)

	// The hard case, staged with faults: the insurer issues the policy, then the
	// connection drops before the answer; once for tuition, once for gap-medical.
	srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Process: true, Drop: true})
	quoteID := srv.NewTuitionQuote(booking.CustomerEmail)
	_, err = seller.BuyTuitionCover(ctx, quoteID, insurance.Card{Number: insurancetest.CardOK})
	if !errors.Is(err, ErrCheckStatus) {
		return fmt.Errorf("expected an unknown outcome, got %v", err)
	}
	fmt.Fprintln(out, "Tuition cover, connection dropped after the insurer issued the policy:", ErrCheckStatus)
	if err := checkoutDropped(ctx, srv, seller, booking.CustomerEmail); err != nil {
		return err
	}

	settled, err := seller.Reconcile(ctx, 0) // in production: a periodic job, with a grace period
	if err != nil {
		return err
	}
	for _, p := range settled {
		fmt.Fprintf(out, "Reconciled the %s purchase of quote %s: %s\n", p.Product, p.QuoteID, p.State)
	}
	for _, p := range srv.Policies() {
		if p.QuoteID == quoteID {
			fmt.Fprintf(out, "The sandbox holds that policy (%s): a test can check what the interface could not tell.\n", p.PolicyID)
		}
	}
	return nil
}

// checkoutDropped runs a gap-medical checkout whose purchase connection drops after
// the insurer issued the policy.
func checkoutDropped(ctx context.Context, srv *insurancetest.Server, seller *CoverSeller, email string) error {
	checkout := Checkout{CustomerEmail: email, CoverageStart: insurance.NewDate(2027, time.May, 1)}
	quote, err := srv.Client(insurance.WithClientID(srv.ClientID)).QuoteGapMedical(ctx, &insurance.GapMedicalQuoteRequest{
		Customer:         insurance.Customer{EmailAddress: email},
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{CoverageStartDate: checkout.CoverageStart},
	}) // in production the browser's component makes this quote
	if err != nil {
		return err
	}
	checkout.QuoteID = quote.QuoteID
	secret, err := seller.StartCheckout(ctx, email)
	if err != nil {
		return err
	}
	srv.Inject("POST /v1/purchase/gap-medical", insurancetest.Fault{Times: 1, Process: true, Drop: true})
	if _, err := seller.FinishCheckout(ctx, secret, checkout, insurancetest.TokenOK); !errors.Is(err, ErrCheckStatus) {
		return fmt.Errorf("expected an unknown outcome, got %v", err)
	}
	return nil
}
