// Command travel-quote quotes travel cover, or updates a quote with -quote-id
// (POST /v1/quote/travel).
//
//	go run ./examples/travel-quote -email ada@example.com -trip-cost 2500 -start 2027-03-01 -end 2027-03-15
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
)

// about is the usage's account of the program, as in the package doc.
const about = "travel-quote quotes travel cover, or updates a quote with -quote-id\n(POST /v1/quote/travel)."

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cli.ExitOnError("travel-quote", run(ctx, os.Args[1:], os.Stdout))
}

func run(ctx context.Context, args []string, out io.Writer) error {
	flags := flag.NewFlagSet("travel-quote", flag.ContinueOnError)
	email := flags.String("email", "ada@example.com", "customer email address")
	tripCost := flags.Float64("trip-cost", 2500, "trip cost")
	start := flags.String("start", "2027-03-01", "trip start date, YYYY-MM-DD")
	end := flags.String("end", "2027-03-15", "trip end date, YYYY-MM-DD")
	quoteID := flags.String("quote-id", "", "update this quote instead of creating one")
	if err := cli.Parse(flags, args, out, about, connect.Help); err != nil {
		return err
	}
	startDate, err := insurance.ParseDate(*start)
	if err != nil {
		return err
	}
	endDate, err := insurance.ParseDate(*end)
	if err != nil {
		return err
	}
	env, closeEnv, err := connect.Open(out)
	if err != nil {
		return err
	}
	defer closeEnv()

	quote, err := env.Backend.QuoteTravel(ctx, &insurance.TravelQuoteRequest{
		QuoteID:  *quoteID,
		Customer: insurance.Customer{EmailAddress: *email},
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:         *tripCost,
			TripCostCurrency: "USD",
			TripStartDate:    startDate,
			TripEndDate:      endDate,
			CoverageType:     insurance.CoverageBasic,
		},
	})
	var apiErr *insurance.APIError
	switch {
	case errors.Is(err, insurance.ErrQuoteUnavailable):
		return fmt.Errorf("quote %s is already bought: start a new quote without -quote-id", *quoteID)
	case errors.As(err, &apiErr) && apiErr.StatusCode == 400:
		return fmt.Errorf("the service refused the quote: %s", apiErr.Message)
	case err != nil:
		return err
	}
	if quote.QuoteID == "" {
		return fmt.Errorf("the quote answer (HTTP %d) has no quote_id to update or buy it by: %s", quote.StatusCode, quote.Raw)
	}
	verb := "updated"
	if quote.Created {
		verb = "created"
	}
	fmt.Fprintf(out, "Quote %s %s (HTTP %d)\n", quote.QuoteID, verb, quote.StatusCode)
	fmt.Fprintf(out, "Body: %s\n", quote.Raw)
	return nil
}
