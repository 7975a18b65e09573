package contract_test

// Every request the SDK's own tests inspect, checked against api/openapi.yaml: the
// root tests look at what the SDK sends (TestEndpointWire, the User-Agent, masking,
// a client id only, retries resending the whole body) and this file sends the same
// requests through a transport that checks each one, and each answer, against the
// document. Then the SDK runs every operation against the sandbox through the same
// transport: the SDK's requests and the sandbox's answers, checked together.

import (
	"bytes"
	"context"
	"io"
	"maps"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/contract/internal/contracttest"
	"github.com/partnerinsure/insurance-go/insurancetest"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// sent is a request as a test sent it or saw it sent.
type sent = contracttest.Sent

// checkingTransport passes every request to base and checks it, and the answer to it,
// against the document; it counts the exchanges of each operation.
type checkingTransport struct {
	t        *testing.T
	contract *contracttest.Contract
	base     http.RoundTripper

	mu   sync.Mutex
	seen map[string]int // "METHOD /path" of the document's operation -> exchanges
}

func newCheckingTransport(t *testing.T, base http.RoundTripper) *checkingTransport {
	return &checkingTransport{t: t, contract: contracttest.Interface(t), base: base, seen: map[string]int{}}
}

// RoundTrip sends a copy of req whose body the check has read.
func (ct *checkingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	s := sent{Method: req.Method, Path: req.URL.Path, Header: req.Header.Clone()}
	out := req.Clone(req.Context())
	if req.Body != nil && req.Body != http.NoBody {
		body, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
		s.Body = body
		out.Body = io.NopCloser(bytes.NewReader(body))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	in, err := ct.contract.CheckRequest(s)
	assert.NoError(ct.t, err, "api/openapi.yaml refuses %s %s: %s", s.Method, s.Path, s.Body)

	resp, err := ct.base.RoundTrip(out)
	if err != nil || in == nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	assert.NoError(ct.t, ct.contract.CheckResponse(in, resp.StatusCode, resp.Header, body),
		"api/openapi.yaml refuses the answer %d to %s %s: %s", resp.StatusCode, s.Method, s.Path, body)

	ct.mu.Lock()
	defer ct.mu.Unlock()
	ct.seen[in.Route.Method+" "+in.Route.Path]++
	return resp, nil
}

// operations are the exchanges the transport checked, by operation.
func (ct *checkingTransport) operations() map[string]int {
	ct.mu.Lock()
	defer ct.mu.Unlock()
	return maps.Clone(ct.seen)
}

// inspected is a request a root test inspects, made as that test makes it.
type inspected struct {
	name      string
	opts      []insurance.Option // besides the transport and quick retries
	call      func(context.Context, *insurance.Client) error
	failFirst int // when set, the first attempt is answered this status, and retried
	operation string
	status    int
	response  string // wire fixture of the answer that ends the call
}

// TestTheRequestsTheSDKsTestsInspectAreAllowed sends, through httpmock, the requests
// the root tests inspect, and checks every attempt and every answer against the
// document.
func TestTheRequestsTheSDKsTestsInspectAreAllowed(t *testing.T) {
	full := insurance.WithCredentials(wiretest.ClientID, wiretest.ClientSecret)
	quoteTravel := func(ctx context.Context, c *insurance.Client) error {
		_, err := c.QuoteTravel(ctx, wiretest.FullTravelQuote())
		return err
	}
	buyTuition := func(ctx context.Context, c *insurance.Client) error {
		_, err := c.PurchaseTuition(ctx, wiretest.FullTuitionPurchase())
		return err
	}
	tests := []inspected{
		{"a client id only quotes travel", []insurance.Option{insurance.WithClientID(wiretest.ClientID)}, quoteTravel, 0,
			"POST /v1/quote/travel", 201, "quote_response.json"},
		{"a travel quote after a 503", []insurance.Option{full}, quoteTravel, http.StatusServiceUnavailable,
			"POST /v1/quote/travel", 201, "quote_response.json"},
		{"a tuition purchase after a 429", []insurance.Option{full}, buyTuition, http.StatusTooManyRequests,
			"POST /v1/purchase/tuition", 201, "policy_response.json"},
	}
	for _, ep := range wiretest.Endpoints() { // as TestEndpointWire makes them, with a partner's User-Agent too
		call := func(ctx context.Context, c *insurance.Client) error { _, err := ep.Call(ctx, c); return err }
		tests = append(tests, inspected{ep.Name, []insurance.Option{full, insurance.WithUserAgent("acme-shop/2.1")}, call, 0,
			ep.Method + " " + ep.Path, ep.Status, ep.Response})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mt := httpmock.NewMockTransport()
			var answered atomic.Int32
			mt.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
				status, body := tt.status, wiretest.Fixture(t, tt.response)
				if answered.Add(1) == 1 && tt.failFirst != 0 {
					status, body = tt.failFirst, `{"error": "`+http.StatusText(tt.failFirst)+`", "message": "try again"}`
				}
				resp := httpmock.NewStringResponse(status, body)
				resp.Header.Set("Content-Type", "application/json")
				return resp, nil
			})
			ct := newCheckingTransport(t, mt)
			opts := append([]insurance.Option{insurance.WithHTTPClient(&http.Client{Transport: ct}), wiretest.FastRetries}, tt.opts...)
			c, err := insurance.NewClient(wiretest.BaseURL, opts...)
			require.NoError(t, err)

			require.NoError(t, tt.call(context.Background(), c))
			attempts := 1
			if tt.failFirst != 0 {
				attempts = 2
			}
			assert.Equal(t, map[string]int{tt.operation: attempts}, ct.operations(), "every attempt checked")
		})
	}
}

// TestEveryOperationThroughTheSandbox: the SDK calls every operation of the document
// on the sandbox, with the fully populated requests of the wire tests, succeeding,
// updating and refused, and every request and answer is checked against the document.
func TestEveryOperationThroughTheSandbox(t *testing.T) {
	srv := insurancetest.NewServer()
	defer srv.Close()
	ct := newCheckingTransport(t, insurance.NewTransport())
	c := srv.Client(insurance.WithHTTPClient(&http.Client{Transport: ct}))
	ctx := context.Background()

	_, err := c.ListProducts(ctx)
	require.NoError(t, err)

	travel := wiretest.FullTravelQuote()
	travel.QuoteID = ""
	created, err := c.QuoteTravel(ctx, travel)
	require.NoError(t, err)
	travel.QuoteID = created.QuoteID
	updated, err := c.QuoteTravel(ctx, travel)
	require.NoError(t, err)
	assert.False(t, updated.Created, "the second call updates the quote")

	gapQuote := wiretest.FullGapMedicalQuote()
	gapQuote.QuoteID = ""
	quote, err := c.QuoteGapMedical(ctx, gapQuote)
	require.NoError(t, err)
	secret, err := c.CreateCustomerSecret(ctx, gapQuote.Customer.EmailAddress)
	require.NoError(t, err)
	gapPurchase := wiretest.FullGapMedicalPurchase()
	gapPurchase.QuoteID = quote.QuoteID
	_, err = c.PurchaseGapMedical(ctx, secret.Secret, gapPurchase)
	require.NoError(t, err)

	tuition := wiretest.FullTuitionPurchase()
	tuition.QuoteID = srv.NewTuitionQuote(tuition.Customer.EmailAddress)
	_, err = c.PurchaseTuition(ctx, tuition)
	require.NoError(t, err)
	_, err = c.PurchaseTuition(ctx, tuition)
	require.ErrorIs(t, err, insurance.ErrQuoteUnavailable, "a quote bought already")

	_, err = c.OnboardPartner(ctx, wiretest.FullOnboardPartner())
	require.NoError(t, err)
	event := wiretest.FullCreateEvent()
	_, err = c.CreateEvent(ctx, event)
	require.NoError(t, err)
	event.EventEndDate = insurance.DateOf(event.EventStartDate.Time().AddDate(0, 0, -1))
	_, err = c.CreateEvent(ctx, event)
	require.ErrorIs(t, err, insurance.ErrBadRequest, "an event ending before it starts")

	seen := ct.operations()
	for _, op := range ct.contract.Operations() {
		assert.Positive(t, seen[op.Method+" "+op.Path], "%s %s was not called", op.Method, op.Path)
	}
}
