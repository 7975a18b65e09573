// Package wiretest is for tests only: the fixtures that the root package's tests (the
// public API) and internal/pipeline's tests (what reaches the wire) both need — test
// credentials, fully populated requests, every endpoint with its wire fixtures, mock
// and loopback clients, and loopback servers that misbehave on purpose.
//
// No package the SDK ships imports it: only _test.go files do. It is a package, not a
// _test.go file, only because test files of two packages cannot share code otherwise.
package wiretest

import (
	"context"
	"encoding/base64"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

// Test credentials and sensitive values: the secret scans look for every one of them.
const (
	ClientID       = "ci_partner_test_1"
	ClientSecret   = "cs_partner_SECRET_9f8e7d6c"
	CustomerSecret = "cus_sec_ONLY_FOR_ADA_41b2"
	CardNumber     = "4242424242424242"
	BankAccount    = "000123456789"
	ACHAccount     = "000987654321"
	BaseURL        = "https://api.insurance.test"
)

// BasicHeader is the Authorization header of ClientID and ClientSecret.
var BasicHeader = "Basic " + base64.StdEncoding.EncodeToString([]byte(ClientID+":"+ClientSecret))

// Credentials gives a Client ClientID and ClientSecret.
var Credentials = insurance.WithCredentials(ClientID, ClientSecret)

// FastRetries keeps retry tests quick.
var FastRetries = insurance.WithRetryWait(time.Millisecond, 4*time.Millisecond)

// CreatedBody is a 201's body that serves both a quote and a purchase.
const CreatedBody = `{"quote_id":"q_1","policy_id":"pol_1"}`

// NewMockClient returns a client of BaseURL with full credentials whose transport is
// a per-test httpmock transport (never the global one, so tests can run in parallel).
func NewMockClient(t *testing.T, opts ...insurance.Option) (*insurance.Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	base := []insurance.Option{
		insurance.WithCredentials(ClientID, ClientSecret),
		insurance.WithHTTPClient(&http.Client{Transport: mt}),
		FastRetries,
	}
	c, err := insurance.NewClient(BaseURL, append(base, opts...)...)
	require.NoError(t, err)
	return c, mt
}

// NewLoopbackClient returns a client of url with full credentials and quick retry
// waits; opts come last. Its idle connections close with the test.
func NewLoopbackClient(t *testing.T, url string, opts ...insurance.Option) *insurance.Client {
	t.Helper()
	c, err := insurance.NewClient(url, append([]insurance.Option{insurance.WithCredentials(ClientID, ClientSecret), FastRetries}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// Sent is what a mock server saw of one request. It has the fields of contracttest.Sent
// (in the module contract/), so that one converts to the other.
type Sent struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// Recorder answers every request with one canned answer and keeps what it saw.
type Recorder struct {
	mu       sync.Mutex
	requests []Sent
}

// Respond answers with status and body (as JSON, with a request id) and keeps the
// request.
func (r *Recorder) Respond(status int, body string) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		r.keep(req)
		resp := httpmock.NewStringResponse(status, body)
		resp.Header.Set("Content-Type", "application/json")
		resp.Header.Set("X-Request-Id", "req_test_1")
		return resp, nil
	}
}

func (r *Recorder) keep(req *http.Request) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, Sent{Method: req.Method, Path: req.URL.Path, Header: req.Header.Clone(), Body: body})
}

// Count is how many requests it saw.
func (r *Recorder) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.requests)
}

// Requests are the requests it saw, in order.
func (r *Recorder) Requests() []Sent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Sent(nil), r.requests...)
}

// Fixture is the wire fixture name of the SDK module's testdata/wire, whichever
// package's test reads it, in the SDK's module or in a module nested in it (contract/).
func Fixture(t testing.TB, name string) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for { // up to the SDK module's root
		if mod, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(mod), "module github.com/partnerinsure/insurance-go\n") {
			break
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no go.mod of the SDK's module above the test's directory")
		dir = parent
	}
	b, err := os.ReadFile(filepath.Join(dir, "testdata", "wire", name))
	require.NoError(t, err)
	return string(b)
}

// BuyTuition and QuoteTravel make one call for quoteID.
func BuyTuition(ctx context.Context, c *insurance.Client, quoteID string) error {
	req := FullTuitionPurchase()
	req.QuoteID = quoteID
	_, err := c.PurchaseTuition(ctx, req)
	return err
}

// QuoteTravel: see BuyTuition.
func QuoteTravel(ctx context.Context, c *insurance.Client, quoteID string) error {
	req := FullTravelQuote()
	req.QuoteID = quoteID
	_, err := c.QuoteTravel(ctx, req)
	return err
}

// InABurst runs call from 64 goroutines, each times each, all starting at once, and
// returns the errors.
func InABurst(each int, call func() error) []error {
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range 64 {
		wg.Go(func() {
			<-start
			for range each {
				if err := call(); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	close(start)
	wg.Wait()
	return errs
}
