// Command gap-medical-checkout runs the client-side purchase flow of the interface:
//
//  1. the partner backend mints a customer client secret with its Basic credentials;
//
//  2. only the client id, the customer email and that secret reach the browser;
//
//  3. the browser quotes with the x-api-client-id header and gets a payment token;
//
//  4. the browser buys with "Authorization: Bearer <customer secret>".
//
//     go run ./examples/gap-medical-checkout -email ada@example.com
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
	"github.com/partnerinsure/insurance-go/examples/internal/connect"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := run(ctx, os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "gap-medical-checkout:", err)
		os.Exit(1)
	}
}

// checkoutPage is everything the backend hands to the browser. It has no field for
// the partner's client secret.
type checkoutPage struct {
	ClientID          string
	CustomerEmail     string
	CoverageStartDate insurance.Date
	CustomerSecret    string // short-lived, buys only for CustomerEmail
}

func run(ctx context.Context, args []string, out io.Writer) error {
	flags := flag.NewFlagSet("gap-medical-checkout", flag.ContinueOnError)
	email := flags.String("email", "ada@example.com", "signed-in customer's email address")
	token := flags.String("token", insurancetest.TokenOK, "payment token from the client-side component")
	if err := flags.Parse(args); err != nil {
		return err
	}
	env, closeEnv, err := connect.Open(out)
	if err != nil {
		return err
	}
	defer closeEnv()

	// Backend: Basic credentials stay here.
	secret, err := env.Backend.CreateCustomerSecret(ctx, *email)
	if err != nil {
		return fmt.Errorf("backend: minting the customer secret: %w", err)
	}
	page := checkoutPage{
		ClientID:          clientIDOf(env),
		CustomerEmail:     secret.EmailAddress,
		CoverageStartDate: insurance.DateOf(time.Now().AddDate(0, 0, 14)),
		CustomerSecret:    secret.Secret,
	}
	fmt.Fprintf(out, "Backend minted a customer secret for %s and rendered the checkout page.\n", page.CustomerEmail)
	fmt.Fprintf(out, "The page carries: client id, customer email, coverage start %s, customer secret. No partner secret.\n", page.CoverageStartDate)

	// Browser: knows only what the page carries.
	policy, err := browserCheckout(ctx, env.Browser, page, *token)
	switch {
	case errors.Is(err, insurance.ErrPaymentFailed):
		fmt.Fprintln(out, "Browser: payment declined (402). Try another card.")
		return nil
	case errors.Is(err, insurance.ErrUnauthorized):
		fmt.Fprintln(out, "Browser: the customer secret expired (401). Reload the page for a new one.")
		return nil
	case err != nil:
		return err
	}
	fmt.Fprintf(out, "Browser bought policy %s for quote %s.\n", policy.PolicyID, policy.QuoteID)
	return nil
}

// browserCheckout is what the page's script does, written with the SDK: a client
// that holds only the client id quotes, then buys with the Bearer customer secret.
func browserCheckout(ctx context.Context, browser *insurance.Client, page checkoutPage, token string) (*insurance.Policy, error) {
	quote, err := browser.QuoteGapMedical(ctx, &insurance.GapMedicalQuoteRequest{
		Customer:         insurance.Customer{EmailAddress: page.CustomerEmail},
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{CoverageStartDate: page.CoverageStartDate},
	})
	if err != nil {
		return nil, fmt.Errorf("browser: quoting: %w", err)
	}
	return browser.PurchaseGapMedical(ctx, page.CustomerSecret, &insurance.GapMedicalPurchaseRequest{
		QuoteID:       quote.QuoteID,
		PaymentMethod: insurance.PaymentMethod{Token: token},
	})
}

func clientIDOf(env *connect.Env) string {
	if env.Sandbox != nil {
		return env.Sandbox.ClientID
	}
	return strings.TrimSpace(os.Getenv(insurance.EnvClientID))
}
