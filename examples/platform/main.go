// Command platform quotes travel cover for several agencies at once, as a platform
// acting for many partners does: each agency's calls carry its own credentials, and
// every agency's client is derived from one base client with With, so they all ride
// one connection pool (see AgencyClients in agencies.go, the part to copy).
//
//	go run ./examples/platform -agencies 5
//
// Against a real service, give the agencies' credentials in INSURANCE_AGENCIES:
// "agency-a=client_id:client_secret,agency-b=client_id:client_secret".
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/examples/internal/cli"
	"github.com/partnerinsure/insurance-go/examples/internal/connect"
)

// about is the usage's account of the program, as in the package doc.
const about = "platform quotes travel cover for several agencies at once, each with its own credentials, over one connection pool."

// envAgencies names the agencies' credentials when running against a real service.
const envAgencies = "INSURANCE_AGENCIES"

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cli.ExitOnError("platform", run(ctx, os.Args[1:], os.Stdout))
}

func run(ctx context.Context, args []string, out io.Writer) error {
	flags := flag.NewFlagSet("platform", flag.ContinueOnError)
	count := flags.Int("agencies", 3, "how many agencies to create in the sandbox (1 to 50)")
	if err := cli.Parse(flags, args, out, about, connect.Help+"\n  "+envAgencies+"   agency=client_id:client_secret,... (real service only)"); err != nil {
		return err
	}
	if *count < 1 || *count > 50 {
		return fmt.Errorf("-agencies %d: want 1 to 50", *count)
	}
	env, closeEnv, err := connect.Open(out)
	if err != nil {
		return err
	}
	defer closeEnv()

	// The platform's secret store: here a map, in production a vault.
	store := map[string][2]string{}
	if env.Sandbox != nil {
		for n := range *count {
			id, secret := env.Sandbox.AddPartner()
			store[fmt.Sprintf("agency-%d", n+1)] = [2]string{id, secret}
		}
	} else if store, err = parseAgencies(os.Getenv(envAgencies)); err != nil {
		return err
	}
	agencies := NewAgencyClients(env.Backend, func(_ context.Context, agency string) (string, string, error) {
		creds, ok := store[agency]
		if !ok {
			return "", "", fmt.Errorf("no credentials on file: %w", insurance.ErrMissingCredentials)
		}
		return creds[0], creds[1], nil
	})

	names := slices.Sorted(maps.Keys(store))
	quotes := make([]string, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, agency := range names {
		wg.Go(func() { quotes[i], errs[i] = quoteFor(ctx, agencies, agency) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for i, agency := range names {
		fmt.Fprintf(out, "%s: quote %s, sent with client id %s\n", agency, quotes[i], store[agency][0])
	}
	if env.Sandbox != nil {
		for _, r := range env.Sandbox.Requests() {
			fmt.Fprintf(out, "the sandbox received %s %s from client id %s\n", r.Method, r.Path, r.ClientID)
		}
	}
	return nil
}

// quoteFor quotes a trip for one agency with that agency's client.
func quoteFor(ctx context.Context, agencies *AgencyClients, agency string) (string, error) {
	client, err := agencies.For(ctx, agency)
	if err != nil {
		return "", err
	}
	quote, err := client.QuoteTravel(ctx, &insurance.TravelQuoteRequest{
		Customer: insurance.Customer{EmailAddress: "traveller@" + agency + ".example", State: "IL", Country: "US"},
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:      1800,
			TripStartDate: insurance.NewDate(2027, time.June, 1),
			TripEndDate:   insurance.NewDate(2027, time.June, 12),
			CoverageType:  insurance.CoverageBasic,
		},
	})
	if err != nil {
		return "", fmt.Errorf("%s: %w", agency, err)
	}
	return quote.QuoteID, nil
}

// parseAgencies reads "agency=client_id:client_secret,..." (never printed: it holds
// secrets).
func parseAgencies(v string) (map[string][2]string, error) {
	if v == "" {
		return nil, fmt.Errorf("set %s to the agencies' credentials: agency=client_id:client_secret,...", envAgencies)
	}
	store := map[string][2]string{}
	for entry := range strings.SplitSeq(v, ",") {
		agency, creds, ok := strings.Cut(strings.TrimSpace(entry), "=")
		id, secret, ok2 := strings.Cut(creds, ":")
		if !ok || !ok2 || agency == "" {
			return nil, fmt.Errorf("%s: an entry is not agency=client_id:client_secret", envAgencies)
		}
		store[agency] = [2]string{id, secret}
	}
	return store, nil
}
