package main

import (
	"bufio"
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/examples/internal/cli/clitest"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

func newApp(t *testing.T, backend *insurance.Client, srv *insurancetest.Server) *httptest.Server {
	t.Helper()
	app := httptest.NewServer((&checkout{
		backend: backend, clientID: srv.ClientID, apiBase: srv.URL, componentURL: srv.ComponentURL(),
	}).routes())
	t.Cleanup(app.Close)
	return app
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

var secretOnPage = regexp.MustCompile(`secret: "(cus_sec_[0-9a-f]+)"`)

func TestCheckoutPageCarriesOnlyWhatTheBrowserNeeds(t *testing.T) {
	srv := insurancetest.NewServer()
	defer srv.Close()
	app := newApp(t, srv.Client(), srv)

	status, page := get(t, app.URL+"/checkout?email=ada@example.com")
	require.Equal(t, http.StatusOK, status, page)
	assert.Contains(t, page, `client-id="`+srv.ClientID+`"`)
	assert.Contains(t, page, `customer-email-address="ada@example.com"`)
	assert.Contains(t, page, `<script src="`+srv.ComponentURL()+`" defer>`)
	assert.NotContains(t, page, srv.ClientSecret, "the partner secret must never reach the page")
	basic := base64.StdEncoding.EncodeToString([]byte(srv.ClientID + ":" + srv.ClientSecret))
	assert.NotContains(t, page, basic, "nor its Basic header value")
	assert.NotContains(t, page, "Basic ")

	first := secretOnPage.FindStringSubmatch(page)
	require.NotNil(t, first, "the page carries the customer secret for its script")
	_, again := get(t, app.URL+"/checkout?email=ada@example.com")
	second := secretOnPage.FindStringSubmatch(again)
	require.NotNil(t, second)
	assert.NotEqual(t, first[1], second[1], "a secret is minted per page")

	// The secret on the page buys for this customer.
	browser, err := insurance.NewClient(srv.URL, insurance.WithClientID(srv.ClientID))
	require.NoError(t, err)
	quote, err := browser.QuoteGapMedical(t.Context(), &insurance.GapMedicalQuoteRequest{
		Customer:         insurance.Customer{EmailAddress: "ada@example.com"},
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{CoverageStartDate: insurance.NewDate(2027, 1, 1)},
	})
	require.NoError(t, err)
	_, err = browser.PurchaseGapMedical(t.Context(), second[1], &insurance.GapMedicalPurchaseRequest{
		QuoteID: quote.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
	})
	assert.NoError(t, err)
}

func TestCheckoutShowsWhyItCannotStart(t *testing.T) {
	srv := insurancetest.NewServer()
	defer srv.Close()
	wrongSecret, err := insurance.NewClient(srv.URL, insurance.WithCredentials(srv.ClientID, "revoked"))
	require.NoError(t, err)
	app := newApp(t, wrongSecret, srv)

	status, page := get(t, app.URL+"/checkout?email=ada@example.com")
	assert.Equal(t, http.StatusBadGateway, status)
	assert.Contains(t, page, "The insurance service refused to start the checkout: this endpoint takes Basic auth")
	assert.NotContains(t, page, "revoked")

	status, page = get(t, app.URL+"/checkout?email=not-an-email")
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, page, "Sign in with a valid email address.")

	srv.Close()
	status, page = get(t, app.URL+"/checkout?email=ada@example.com")
	assert.Equal(t, http.StatusBadGateway, status)
	assert.Contains(t, page, "cannot be reached")
}

func TestSignInPage(t *testing.T) {
	srv := insurancetest.NewServer()
	defer srv.Close()
	status, page := get(t, newApp(t, srv.Client(), srv).URL+"/")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, `<form action="/checkout"`)
}

// TestRunServesTheCheckout runs the program as `go run` would, on a free port, and
// loads the page it prints.
func TestRunServesTheCheckout(t *testing.T) {
	t.Setenv(insurance.EnvBaseURL, "")
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0"}, pw)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	var url string
	for url == "" && lines.Scan() {
		if rest, ok := strings.CutPrefix(lines.Text(), "Checkout on "); ok {
			url, _, _ = strings.Cut(rest, " ")
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	require.NotEmpty(t, url)

	status, page := get(t, url+"checkout?email=ada@example.com")
	assert.Equal(t, http.StatusOK, status)
	assert.Contains(t, page, "Gap-medical cover for ada@example.com")

	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("the checkout did not stop")
	}
}

// TestHelp: -h, -help and --help print the usage and exit 0; a mistake exits 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, "gap-medical-checkout", func(args []string, out io.Writer) error {
		return run(t.Context(), args, out)
	}, "gap-medical-checkout is a small partner web app", "-component-url string", "INSURANCE_BASE_URL", "INSURANCE_CLIENT_ID", "INSURANCE_CLIENT_SECRET")
}
