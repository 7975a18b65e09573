// Command mocking is a small partner service, CoverSeller, and the reference for
// testing partner code against the SDK: read coverseller_test.go, which tests every
// failure path (declined card, quote already bought, a 503 on a purchase, a
// connection dropped after the policy was issued, a timeout on one route, an expired
// checkout) with the insurancetest sandbox alone, in fake time where time matters,
// and shows the httpmock way too. Run it to see the service work against the
// in-process sandbox:
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
sandbox: a trip quoted, tuition cover declined then bought, then a purchase whose
connection drops after the policy was issued. It needs no configuration and never
calls a real service.

Its tests are the reference for testing partner code against the SDK: read
examples/mocking/coverseller_test.go and run go test ./examples/mocking.`

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
	seller := &CoverSeller{Insurance: srv.Client()}

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

	// The hard case, staged with a fault: the insurer issues the policy, then the
	// connection drops before the answer.
	srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Process: true, Drop: true})
	quoteID := srv.NewTuitionQuote(booking.CustomerEmail)
	_, err = seller.BuyTuitionCover(ctx, quoteID, insurance.Card{Number: insurancetest.CardOK})
	if !errors.Is(err, ErrCheckStatus) {
		return fmt.Errorf("expected an unknown outcome, got %v", err)
	}
	fmt.Fprintln(out, "Tuition cover, connection dropped after the insurer issued the policy:", ErrCheckStatus)
	for _, p := range srv.Policies() {
		if p.QuoteID == quoteID {
			fmt.Fprintf(out, "The sandbox holds that policy (%s): a test can check what the service could not.\n", p.PolicyID)
		}
	}
	return nil
}
