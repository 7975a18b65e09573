// Command onboard-partner onboards a new limited partner (POST /v1/partners/onboard).
//
//	go run ./examples/onboard-partner -name "Acme Travel" -email admin@acme.example -country US -travel-retailer
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
const about = "onboard-partner onboards a new limited partner (POST /v1/partners/onboard)."

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cli.ExitOnError("onboard-partner", run(ctx, os.Args[1:], os.Stdout))
}

func run(ctx context.Context, args []string, out io.Writer) error {
	flags := flag.NewFlagSet("onboard-partner", flag.ContinueOnError)
	name := flags.String("name", "Acme Travel", "partner entity name")
	email := flags.String("email", "admin@acme.example", "administrative email address")
	country := flags.String("country", "US", "country: US or CA")
	website := flags.String("website", "https://acme.example", "partner website")
	travelRetailer := flags.Bool("travel-retailer", false, "ask for the steps to become a certified travel retailer")
	if err := cli.Parse(flags, args, out, about, connect.Help); err != nil {
		return err
	}
	env, closeEnv, err := connect.Open(out)
	if err != nil {
		return err
	}
	defer closeEnv()

	req := &insurance.OnboardPartnerRequest{
		EntityName:                 *name,
		AdministrativeEmailAddress: *email,
		Country:                    insurance.Country(*country),
		Website:                    *website,
	}
	flags.Visit(func(f *flag.Flag) { // sent only when given: -travel-retailer=false sends false
		if f.Name == "travel-retailer" {
			req.TravelRetailer = insurance.Bool(*travelRetailer)
		}
	})
	partner, err := env.Backend.OnboardPartner(ctx, req)
	var invalid *insurance.ValidationError
	switch {
	case errors.As(err, &invalid):
		return fmt.Errorf("fix the flags: %w", err) // checked locally, nothing was sent
	case errors.Is(err, insurance.ErrOutcomeUnknown):
		return fmt.Errorf("the partner may have been created; check before trying again: %w", err)
	case err != nil:
		return err
	}
	fmt.Fprintf(out, "Partner %s onboarded: id %s, type %s, status %s\n", partner.EntityName, partner.ID, partner.Type, partner.Status)
	if partner.TravelRetailerOnboardingURL != "" {
		fmt.Fprintf(out, "Travel retailer onboarding: %s\n", partner.TravelRetailerOnboardingURL)
	}
	return nil
}
