// Command quickstart walks through the whole insurance interface in one run: products,
// a travel quote created then updated, a partner onboarded, an event recorded, the
// client-side gap-medical checkout, and a tuition purchase declined then paid.
//
//	go run ./examples/quickstart
//
// With no configuration it runs against an in-process sandbox; set INSURANCE_BASE_URL,
// INSURANCE_CLIENT_ID and INSURANCE_CLIENT_SECRET to run it against a real service.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/examples/internal/cli"
	"github.com/partnerinsure/insurance-go/examples/internal/connect"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// about is the usage's account of the program, as in the package doc.
const about = `quickstart walks through the whole insurance interface in one run: products, a
travel quote created then updated, a partner onboarded, an event recorded, the
client-side gap-medical checkout, and a tuition purchase declined then paid.`

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cli.ExitOnError("quickstart", run(ctx, os.Args[1:], os.Stdout))
}

func run(ctx context.Context, args []string, out io.Writer) error {
	flags := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	email := flags.String("email", "ada@example.com", "customer email address")
	tuitionQuote := flags.String("tuition-quote", "", "tuition quote id to buy (made for you on the sandbox)")
	if err := cli.Parse(flags, args, out, about, connect.Help); err != nil {
		return err
	}
	env, closeEnv, err := connect.Open(out)
	if err != nil {
		return err
	}
	defer closeEnv()
	say := func(format string, args ...any) { fmt.Fprintf(out, format+"\n", args...) }

	// 1. Products.
	products, err := env.Backend.ListProducts(ctx)
	if err != nil {
		return fmt.Errorf("listing products: %w", err)
	}
	var names []string
	for _, p := range products.Products {
		names = append(names, p.ID)
	}
	if len(names) == 0 {
		names = []string{"none listed"}
	}
	say("1. Products: %s", strings.Join(names, ", "))

	// 2. A travel quote, created then updated.
	trip := &insurance.TravelQuoteRequest{
		Customer: insurance.Customer{EmailAddress: *email, State: "IL", Country: insurance.CountryUS},
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:             1000,
			TripStartDate:        insurance.NewDate(2027, time.March, 1),
			TripEndDate:          insurance.NewDate(2027, time.March, 3),
			Origin:               insurance.Origin{State: "IL", Country: insurance.CountryUS},
			DestinationCountries: []insurance.Country{"FR"},
			CoverageType:         insurance.CoverageBasic,
		},
	}
	quote, err := env.Backend.QuoteTravel(ctx, trip)
	if err != nil {
		return fmt.Errorf("quoting travel: %w", err)
	}
	if quote.QuoteID == "" { // the update below would go out as a second create
		return fmt.Errorf("quoting travel: the answer (%d) has no quote_id to update the quote by: %s", quote.StatusCode, quote.Raw)
	}
	say("2. Travel quote %s %s (%d), premium %s", quote.QuoteID, createdOrUpdated(quote), quote.StatusCode, premium(quote))
	trip.QuoteID = quote.QuoteID
	trip.PolicyAttributes.TripCost = 2000
	if quote, err = env.Backend.QuoteTravel(ctx, trip); err != nil {
		return fmt.Errorf("updating the travel quote: %w", err)
	}
	say("   Trip cost raised: quote %s %s (%d), premium %s", quote.QuoteID, createdOrUpdated(quote), quote.StatusCode, premium(quote))

	// 3. A partner onboarded.
	partner, err := env.Backend.OnboardPartner(ctx, &insurance.OnboardPartnerRequest{
		EntityName:                 "Acme Travel",
		AdministrativeEmailAddress: "admin@acme.example",
		Country:                    insurance.CountryUS,
		Website:                    "https://acme.example",
		TravelRetailer:             insurance.Bool(true),
	})
	if err != nil {
		return fmt.Errorf("onboarding a partner: %w", err)
	}
	say("3. Partner %q onboarded: %s, %s, %s", partner.EntityName, partner.ID, partner.Type, partner.Status)

	// 4. An insured event recorded.
	event, err := env.Backend.CreateEvent(ctx, &insurance.CreateEventRequest{
		EventName:      "Partner Summit",
		EventStartDate: insurance.NewDate(2027, time.June, 1),
		EventEndDate:   insurance.NewDate(2027, time.June, 3),
		EventCity:      "Chicago",
		EventState:     "IL",
		EventCountry:   "US",
	})
	if err != nil {
		return fmt.Errorf("recording an event: %w", err)
	}
	say("4. Event %q recorded: %s", event.EventName, event.ID)

	// 5. The client-side gap-medical checkout. The backend mints a customer secret
	// with its full credentials; the browser holds only the client id and that secret.
	secret, err := env.Backend.CreateCustomerSecret(ctx, *email)
	if err != nil {
		return fmt.Errorf("minting a customer secret: %w", err)
	}
	if secret.Secret == "" {
		return errors.New("minting a customer secret: the answer has no secret")
	}
	say("5. Gap-medical checkout")
	say("   Backend minted a customer secret for %s; the partner secret stays on the server", *email)
	gapQuote, err := env.Browser.QuoteGapMedical(ctx, &insurance.GapMedicalQuoteRequest{
		Customer:         insurance.Customer{EmailAddress: *email},
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{CoverageStartDate: insurance.NewDate(2027, time.April, 1)},
	})
	if err != nil {
		return fmt.Errorf("quoting gap-medical with the client id: %w", err)
	}
	if gapQuote.QuoteID == "" {
		return fmt.Errorf("quoting gap-medical: the answer (%d) has no quote_id to buy: %s", gapQuote.StatusCode, gapQuote.Raw)
	}
	say("   Browser (client id only) quoted %s (%d), premium %s", gapQuote.QuoteID, gapQuote.StatusCode, premium(gapQuote))
	gapPolicy, err := env.Browser.PurchaseGapMedical(ctx, secret.Secret, &insurance.GapMedicalPurchaseRequest{
		QuoteID:       gapQuote.QuoteID,
		PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
	})
	if err != nil {
		return fmt.Errorf("buying gap-medical with the customer secret: %w", err)
	}
	say("   Browser bought policy %s with the Bearer customer secret", orNotGiven(gapPolicy.PolicyID))

	// 6. A tuition purchase: declined, then paid.
	if *tuitionQuote == "" && env.Sandbox != nil {
		*tuitionQuote = env.Sandbox.NewTuitionQuote(*email)
	}
	if *tuitionQuote == "" {
		say("6. Tuition purchase skipped: pass -tuition-quote with a quote id from your service")
		say("Done.")
		return nil
	}
	say("6. Tuition purchase of quote %s", *tuitionQuote)
	purchase := &insurance.TuitionPurchaseRequest{
		QuoteID:  *tuitionQuote,
		Customer: insurance.Customer{EmailAddress: *email},
		PaymentMethod: insurance.PaymentMethod{Card: &insurance.Card{
			Name: "Ada Lovelace", Number: insurancetest.CardDeclined, Verification: "123", Month: "12", Year: "2030",
		}},
	}
	_, err = env.Backend.PurchaseTuition(ctx, purchase)
	switch {
	case errors.Is(err, insurance.ErrOutcomeUnknown): // first: a 503 or a deadline matches it too
		return fmt.Errorf("the tuition purchase may or may not have gone through; check before trying again: %w", err)
	case errors.Is(err, insurance.ErrPaymentFailed):
		say("   Card ending %s declined (402): asking the customer for another card", last4(purchase.PaymentMethod.Card.Number))
	case err != nil:
		return fmt.Errorf("buying tuition cover: %w", err)
	default:
		return errors.New("the declined test card was accepted")
	}
	purchase.PaymentMethod.Card.Number = insurancetest.CardOK
	policy, err := env.Backend.PurchaseTuition(ctx, purchase)
	if err != nil {
		return fmt.Errorf("buying tuition cover: %w", err)
	}
	say("   Paid with card ending %s: policy %s issued (%d)", last4(purchase.PaymentMethod.Card.Number), orNotGiven(policy.PolicyID), policy.StatusCode)
	say("Done.")
	return nil
}

func createdOrUpdated(q *insurance.Quote) string {
	if q.Created {
		return "created"
	}
	return "updated"
}

// premium reads the premium from the raw quote. The interface does not show a quote's
// fields: "premium" and "currency" are the sandbox's choice (see insurancetest's
// package doc), and the service's own names may differ.
func premium(q *insurance.Quote) string {
	var body struct {
		Premium  float64 `json:"premium"`
		Currency string  `json:"currency"`
	}
	if err := q.Decode(&body); err != nil || body.Currency == "" {
		return "not given"
	}
	return fmt.Sprintf("%.2f %s", body.Premium, body.Currency)
}

// orNotGiven stands in for an id the answer lacks: the interface does not show the
// policy record's fields.
func orNotGiven(id string) string {
	if id == "" {
		return "(id not given)"
	}
	return id
}

func last4(number string) string { return number[max(0, len(number)-4):] }
