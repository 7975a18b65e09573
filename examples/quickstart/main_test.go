package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/examples/internal/cli/clitest"
)

func TestQuickstartTellsTheWholeStory(t *testing.T) {
	t.Setenv(insurance.EnvBaseURL, "") // no configuration: the embedded sandbox
	var out strings.Builder
	require.NoError(t, run(context.Background(), nil, &out))

	for _, line := range []string{
		"Using the in-process sandbox at http://127.0.0.1:",
		"1. Products: gap-medical, travel, tuition",
		"created (201), premium 52.50 USD",
		"updated (200), premium 97.50 USD",
		`3. Partner "Acme Travel" onboarded: `,
		", LIMITED, PENDING_ONBOARDING",
		`4. Event "Partner Summit" recorded: `,
		"Backend minted a customer secret for ada@example.com",
		"Browser (client id only) quoted q_",
		"Browser bought policy pol_",
		"Card ending 0002 declined (402)",
		"Paid with card ending 4242: policy pol_",
		"Done.",
	} {
		assert.Contains(t, out.String(), line)
	}
}

func TestQuickstartFailsClearlyOnABadService(t *testing.T) {
	t.Setenv(insurance.EnvBaseURL, "http://127.0.0.1:1") // nothing listens there
	t.Setenv(insurance.EnvClientID, "id")
	t.Setenv(insurance.EnvClientSecret, "secret")
	var out strings.Builder
	err := run(context.Background(), nil, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "listing products")
	assert.Contains(t, err.Error(), "connection refused")
}

// TestHelp: -h, -help and --help print the usage and exit 0; a mistake exits 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, "quickstart", func(args []string, out io.Writer) error {
		return run(t.Context(), args, out)
	}, "quickstart walks through the whole insurance interface", "-tuition-quote string", "INSURANCE_BASE_URL", "INSURANCE_CLIENT_ID", "INSURANCE_CLIENT_SECRET")
}

// TestQuickstartStopsAtAQuoteWithoutAnID: a 2xx travel quote with no quote_id (what a
// mock made from a loose document answers) stops the quickstart there, naming the
// field, before its update can go out as a second create.
func TestQuickstartStopsAtAQuoteWithoutAnID(t *testing.T) {
	var mu sync.Mutex
	quotes := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/products":
			_, _ = io.WriteString(w, `{"products": []}`)
		case "/v1/quote/travel":
			mu.Lock()
			quotes++
			mu.Unlock()
			w.WriteHeader(http.StatusCreated)
			_, _ = io.WriteString(w, `{}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	t.Setenv(insurance.EnvBaseURL, srv.URL)
	t.Setenv(insurance.EnvClientID, "id")
	t.Setenv(insurance.EnvClientSecret, "secret")

	var out strings.Builder
	err := run(context.Background(), nil, &out)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "quote_id")
	assert.Contains(t, out.String(), "1. Products: none listed")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, 1, quotes, "the travel quote was sent again without an id")
}
