package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/examples/internal/cli/clitest"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// Each agency's quote is sent with that agency's own client id.
func TestEachAgencyQuotesWithItsOwnCredentials(t *testing.T) {
	t.Setenv(insurance.EnvBaseURL, "")
	var out strings.Builder
	require.NoError(t, run(context.Background(), []string{"-agencies", "4"}, &out))

	for n := 1; n <= 4; n++ {
		line := lineStarting(t, out.String(), fmt.Sprintf("agency-%d: quote ", n))
		_, clientID, ok := strings.Cut(line, "sent with client id ")
		require.True(t, ok, line)
		assert.Equal(t, 1, strings.Count(out.String(), "from client id "+clientID+"\n"), "one request carried %s", clientID)
	}
	assert.Equal(t, 4, strings.Count(out.String(), "the sandbox received POST /v1/quote/travel"))
}

func lineStarting(t *testing.T, text, prefix string) string {
	t.Helper()
	for line := range strings.Lines(text) {
		if strings.HasPrefix(line, prefix) {
			return strings.TrimSpace(line)
		}
	}
	t.Fatalf("no line starts with %q in:\n%s", prefix, text)
	return ""
}

// AgencyClients derives an agency's client once, shares it between goroutines,
// refuses an agency without credentials, and derives anew after Forget.
func TestAgencyClients(t *testing.T) {
	srv := insurancetest.NewServer(insurancetest.InMemory())
	id, secret := srv.AddPartner()
	lookups := 0
	var mu sync.Mutex
	agencies := NewAgencyClients(srv.Client(), func(_ context.Context, agency string) (string, string, error) {
		mu.Lock()
		defer mu.Unlock()
		lookups++
		if agency != "acme" {
			return "", "", insurance.ErrMissingCredentials
		}
		return id, secret, nil
	})

	var wg sync.WaitGroup
	clients := make([]*insurance.Client, 16)
	for i := range clients {
		wg.Go(func() {
			c, err := agencies.For(t.Context(), "acme")
			assert.NoError(t, err)
			clients[i] = c
		})
	}
	wg.Wait()
	for _, c := range clients {
		assert.Same(t, clients[0], c, "one client per agency")
	}

	_, err := agencies.For(t.Context(), "unknown")
	assert.ErrorIs(t, err, insurance.ErrMissingCredentials)

	agencies.Forget("acme")
	again, err := agencies.For(t.Context(), "acme")
	require.NoError(t, err)
	assert.NotSame(t, clients[0], again)
	_, err = again.QuoteTravel(t.Context(), &insurance.TravelQuoteRequest{Customer: insurance.Customer{EmailAddress: "a@acme.example", State: "IL", Country: "US"},
		PolicyAttributes: insurance.TravelPolicyAttributes{TripCost: 900, TripStartDate: insurance.NewDate(2027, 6, 1), TripEndDate: insurance.NewDate(2027, 6, 9)}})
	require.NoError(t, err)
	assert.Equal(t, id, srv.Requests()[0].ClientID)
}

// TestHelp: -h, -help and --help print the usage and exit 0; a mistake exits 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, "platform", func(args []string, out io.Writer) error {
		return run(t.Context(), args, out)
	}, "platform quotes travel cover", "-agencies", "INSURANCE_AGENCIES", "INSURANCE_BASE_URL")
}
