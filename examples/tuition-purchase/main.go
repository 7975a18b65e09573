// Command tuition-purchase buys tuition cover by card (POST /v1/purchase/tuition).
// On the sandbox it makes the tuition quote for you; on a real service pass -quote-id.
//
//	go run ./examples/tuition-purchase -card 4000000000000002   # declined
//	go run ./examples/tuition-purchase -card 4242424242424242   # paid
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
	"github.com/partnerinsure/insurance-go/examples/internal/connect"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// about is the usage's account of the program, as in the package doc.
const about = `tuition-purchase buys tuition cover by card (POST /v1/purchase/tuition). On the
sandbox it makes the tuition quote for you; on a real service pass -quote-id.`

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cli.ExitOnError("tuition-purchase", run(ctx, os.Args[1:], os.Stdout))
}

func run(ctx context.Context, args []string, out io.Writer) error {
	flags := flag.NewFlagSet("tuition-purchase", flag.ContinueOnError)
	email := flags.String("email", "ada@example.com", "customer email address")
	card := flags.String("card", insurancetest.CardOK, "card number")
	quoteID := flags.String("quote-id", "", "tuition quote to buy (made for you on the sandbox)")
	if err := cli.Parse(flags, args, out, about, connect.Help); err != nil {
		return err
	}
	env, closeEnv, err := connect.Open(out)
	if err != nil {
		return err
	}
	defer closeEnv()
	if *quoteID == "" {
		if env.Sandbox == nil {
			return errors.New("pass -quote-id: tuition quotes come from outside the interface")
		}
		*quoteID = env.Sandbox.NewTuitionQuote(*email)
	}

	policy, err := env.Backend.PurchaseTuition(ctx, &insurance.TuitionPurchaseRequest{
		QuoteID:  *quoteID,
		Customer: insurance.Customer{EmailAddress: *email},
		PaymentMethod: insurance.PaymentMethod{Card: &insurance.Card{
			Name: "Ada Lovelace", Number: *card, Verification: "123", Month: "12", Year: "2030",
		}},
	})
	switch {
	case errors.Is(err, insurance.ErrOutcomeUnknown):
		// First: a 503 or a deadline matches it too. Never buy again blindly: the
		// policy may exist.
		return fmt.Errorf("the purchase may have gone through; check quote %s before trying again: %w", *quoteID, err)
	case errors.Is(err, insurance.ErrPaymentFailed):
		fmt.Fprintln(out, "Payment declined (402): ask the customer for another card.")
		return nil
	case errors.Is(err, insurance.ErrQuoteUnavailable):
		fmt.Fprintf(out, "Quote %s is already bought.\n", *quoteID)
		return nil
	case err != nil:
		return err
	}
	fmt.Fprintf(out, "Policy %s issued for quote %s (HTTP %d)\n", policy.PolicyID, policy.QuoteID, policy.StatusCode)
	return nil
}
