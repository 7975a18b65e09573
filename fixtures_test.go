package insurance_test

import (
	"context"
	"crypto/tls"
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/contracttest"
)

// The fixtures the root tests share: credentials, a mock client and what it saw,
// fully populated requests, every endpoint with its wire fixtures, and loopback
// servers that misbehave on purpose.

// Test credentials and sensitive values: the secret scans look for every one of them.
const (
	testClientID       = "ci_partner_test_1"
	testClientSecret   = "cs_partner_SECRET_9f8e7d6c"
	testCustomerSecret = "cus_sec_ONLY_FOR_ADA_41b2"
	testCardNumber     = "4242424242424242"
	testBankAccount    = "000123456789"
	testACHAccount     = "000987654321"
	testBaseURL        = "https://api.insurance.test"
)

var testBasicHeader = "Basic " + base64.StdEncoding.EncodeToString([]byte(testClientID+":"+testClientSecret))

// fastRetries keeps retry tests quick.
var fastRetries = insurance.WithRetryWait(time.Millisecond, 4*time.Millisecond)

// newMockClient returns a client with full credentials whose transport is a
// per-test httpmock transport (never the global one, so tests can run in parallel).
func newMockClient(t *testing.T, opts ...insurance.Option) (*insurance.Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	base := []insurance.Option{
		insurance.WithCredentials(testClientID, testClientSecret),
		insurance.WithHTTPClient(&http.Client{Transport: mt}),
		fastRetries,
	}
	c, err := insurance.NewClient(testBaseURL, append(base, opts...)...)
	require.NoError(t, err)
	return c, mt
}

// sent is what a mock server saw of one request.
type sent = contracttest.Sent

// recorder answers every request with one canned answer and keeps what it saw.
type recorder struct {
	mu       sync.Mutex
	requests []sent
}

func (r *recorder) respond(status int, body string) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		r.keep(req)
		resp := httpmock.NewStringResponse(status, body)
		resp.Header.Set("Content-Type", "application/json")
		resp.Header.Set("X-Request-Id", "req_test_1")
		return resp, nil
	}
}

func (r *recorder) keep(req *http.Request) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.requests = append(r.requests, sent{Method: req.Method, Path: req.URL.Path, Header: req.Header.Clone(), Body: body})
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.requests)
}

func (r *recorder) only(t *testing.T) sent {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	require.Len(t, r.requests, 1)
	requireAllowed(t, r.requests[0]) // api/openapi.yaml must allow every request a test inspects
	return r.requests[0]
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "wire", name))
	require.NoError(t, err)
	return string(b)
}

// roundTripFunc answers every request itself: the fuzzers feed the client arbitrary
// answers without a socket.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Fully populated requests, matching the wire fixtures field for field.

func fullCustomer() insurance.Customer {
	return insurance.Customer{
		EmailAddress: "ada@example.com", FirstName: "Ada", MiddleName: "M", LastName: "Lovelace",
		PhoneNumber: "+15555550100", Street: "1 Main St", City: "Springfield", State: "IL",
		PostalCode: "62701", Country: "US",
	}
}

func fullTravelQuote() *insurance.TravelQuoteRequest {
	return &insurance.TravelQuoteRequest{
		Customer:  fullCustomer(),
		Metadata:  map[string]any{"booking_id": "bk_42"},
		PartnerID: "partner_1",
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:             2500.5,
			TripCostCurrency:     "USD",
			TripStartDate:        insurance.NewDate(2027, time.March, 1),
			TripEndDate:          insurance.NewDate(2027, time.March, 15),
			InitialDepositDate:   insurance.NewDate(2027, time.January, 10),
			Origin:               insurance.Origin{State: "IL", Country: "US"},
			DestinationCountries: []insurance.Country{"FR", "IT"},
			AdditionalTravelers:  []insurance.Traveler{{FirstName: "Charles", MiddleName: "B", LastName: "Babbage"}},
			CoverageType:         insurance.CoverageBasic,
		},
		QuoteID:    "q_123",
		EmailQuote: true,
		Language:   "en",
		Currency:   "USD",
	}
}

func fullGapMedicalQuote() *insurance.GapMedicalQuoteRequest {
	return &insurance.GapMedicalQuoteRequest{
		Customer: insurance.Customer{
			EmailAddress: "ada@example.com", FirstName: "Ada", LastName: "Lovelace",
			State: "IL", Country: "US", PostalCode: "62701",
		},
		Metadata:  map[string]any{"checkout": "web"},
		PartnerID: "partner_1",
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{
			CoverageStartDate: insurance.NewDate(2027, time.April, 1),
			Extra:             map[string]any{"deductible": 500},
		},
		QuoteID:  "q_gm_1",
		Language: "en",
		Currency: "USD",
	}
}

func fullTuitionPurchase() *insurance.TuitionPurchaseRequest {
	return &insurance.TuitionPurchaseRequest{
		Customer: insurance.Customer{EmailAddress: "ada@example.com", FirstName: "Ada", LastName: "Lovelace"},
		Metadata: map[string]any{"term": "fall-2027"},
		QuoteID:  "q_tu_1",
		PaymentMethod: insurance.PaymentMethod{
			Card: &insurance.Card{
				Name: "Ada Lovelace", Number: testCardNumber, Verification: "123",
				Month: "12", Year: "2030", AddressPostalCode: "62701",
			},
			BankAccount: &insurance.BankAccount{
				Currency: "USD", AccountOwnerName: "Ada Lovelace", RoutingNumber: "110000000",
				AccountNumber: testBankAccount, AccountType: "checking", AccountOwnerType: "individual", Country: "US",
			},
			Token:            "tok_ok",
			SaveForFutureUse: true,
		},
		Subscription: true,
	}
}

func fullGapMedicalPurchase() *insurance.GapMedicalPurchaseRequest {
	return &insurance.GapMedicalPurchaseRequest{QuoteID: "q_gm_1", PaymentMethod: insurance.PaymentMethod{Token: "tok_ok"}}
}

func fullOnboardPartner() *insurance.OnboardPartnerRequest {
	return &insurance.OnboardPartnerRequest{
		EntityName:                 "Acme Travel",
		AdministrativeEmailAddress: "admin@acme.example",
		BillingEmailAddress:        "billing@acme.example",
		Address:                    "2 Market St",
		City:                       "Toronto",
		State:                      "ON",
		PostalCode:                 "M5V 2T6",
		TravelRetailer:             true,
		Country:                    insurance.CountryCA,
		Website:                    "https://acme.example",
		BankAccount: &insurance.PartnerBankAccount{
			ACHAccountNumber: testACHAccount, ACHRoutingNumber: "021000021",
			ACHAccountType: insurance.ACHChecking, ACHAccountName: "Acme Travel", EFTBankCode: "001",
		},
	}
}

func fullCreateEvent() *insurance.CreateEventRequest {
	return &insurance.CreateEventRequest{
		EventName:       "Partner Summit",
		EventStartDate:  insurance.NewDate(2027, time.June, 1),
		EventEndDate:    insurance.NewDate(2027, time.June, 3),
		EventStreet:     "3 Harbour Rd",
		EventCity:       "Chicago",
		EventState:      "IL",
		EventPostalCode: "60601",
		EventCountry:    "US",
	}
}

// endpoint is one SDK method with what the wire must look like for it.
type endpoint struct {
	name          string
	method, path  string
	authHeader    string // the one auth header the call carries
	authValue     string
	createsRecord bool   // purchases, onboarding, events: never sent twice once sent
	request       string // wire fixture of the request body; "" for none
	status        int    // success status the mock answers
	response      string // wire fixture of the answer
	call          func(ctx context.Context, c *insurance.Client) (any, error)
}

func endpoints() []endpoint {
	return []endpoint{
		{
			name: "ListProducts", method: "GET", path: "/v1/products",
			authHeader: "Authorization", authValue: testBasicHeader,
			status: 200, response: "products_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) { return c.ListProducts(ctx) },
		},
		{
			name: "QuoteTravel", method: "POST", path: "/v1/quote/travel",
			authHeader: "Authorization", authValue: testBasicHeader,
			request: "quote_travel_request.json", status: 201, response: "quote_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.QuoteTravel(ctx, fullTravelQuote())
			},
		},
		{
			name: "QuoteGapMedical", method: "POST", path: "/v1/quote/gap-medical",
			authHeader: insurance.HeaderClientID, authValue: testClientID,
			request: "quote_gap_medical_request.json", status: 200, response: "quote_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.QuoteGapMedical(ctx, fullGapMedicalQuote())
			},
		},
		{
			name: "PurchaseTuition", method: "POST", path: "/v1/purchase/tuition",
			authHeader: "Authorization", authValue: testBasicHeader, createsRecord: true,
			request: "purchase_tuition_request.json", status: 201, response: "policy_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.PurchaseTuition(ctx, fullTuitionPurchase())
			},
		},
		{
			name: "PurchaseGapMedical", method: "POST", path: "/v1/purchase/gap-medical",
			authHeader: "Authorization", authValue: "Bearer " + testCustomerSecret, createsRecord: true,
			request: "purchase_gap_medical_request.json", status: 201, response: "policy_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.PurchaseGapMedical(ctx, testCustomerSecret, fullGapMedicalPurchase())
			},
		},
		{
			name: "CreateCustomerSecret", method: "POST", path: "/v1/auth/customer/secret",
			authHeader: "Authorization", authValue: testBasicHeader,
			request: "customer_secret_request.json", status: 201, response: "customer_secret_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.CreateCustomerSecret(ctx, "ada@example.com")
			},
		},
		{
			name: "OnboardPartner", method: "POST", path: "/v1/partners/onboard",
			authHeader: "Authorization", authValue: testBasicHeader, createsRecord: true,
			request: "onboard_partner_request.json", status: 201, response: "partner_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.OnboardPartner(ctx, fullOnboardPartner())
			},
		},
		{
			name: "CreateEvent", method: "POST", path: "/v1/events",
			authHeader: "Authorization", authValue: testBasicHeader, createsRecord: true,
			request: "create_event_request.json", status: 201, response: "event_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.CreateEvent(ctx, fullCreateEvent())
			},
		},
	}
}

// fault is what a scripted server does with one request.
type fault func(w http.ResponseWriter, r *http.Request)

func status(code int, header ...string) fault {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		_, _ = io.WriteString(w, `{"message":"scripted"}`)
	}
}

// reset reads the whole request, then drops the connection before any response byte.
func reset(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0) // RST, not FIN
	}
	_ = conn.Close()
}

// hang never answers; it returns when the client gives up.
func hang(_ http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

// stall sends the headers and half the body, then stops until the client gives up.
func stall(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Length", "200")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, `{"quote_id":"q_stalled","prem`)
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

// truncated promises a body and sends only part of it.
func truncated(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Length", "200")
	w.WriteHeader(http.StatusCreated)
	_, _ = io.WriteString(w, `{"quote_id":"q_`)
	w.(http.Flusher).Flush()
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	_ = conn.Close() // FIN: the client reads an early end of body
}

// scriptedServer plays faults in order, then answers every further request with the
// endpoint's success fixture. It counts the requests that reached it.
type scriptedServer struct {
	*httptest.Server
	mu       sync.Mutex
	script   []fault
	received atomic.Int32
}

func newScriptedServer(t *testing.T, ep endpoint, script ...fault) *scriptedServer {
	t.Helper()
	ok := fixture(t, ep.response)
	s := &scriptedServer{script: script}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		s.received.Add(1)
		s.mu.Lock()
		var next fault
		if len(s.script) > 0 {
			next, s.script = s.script[0], s.script[1:]
		}
		s.mu.Unlock()
		if next != nil {
			next(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(ep.status)
		_, _ = io.WriteString(w, ok)
	}))
	t.Cleanup(s.Close)
	return s
}

func newLoopbackClient(t *testing.T, url string, opts ...insurance.Option) *insurance.Client {
	t.Helper()
	c, err := insurance.NewClient(url, append([]insurance.Option{insurance.WithCredentials(testClientID, testClientSecret), fastRetries}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// countingTLSServer answers every request 201 with body over TLS, with HTTP/2 when h2
// is true; it counts the connections whose TLS handshake completed (net/http may
// abandon a dial midway when another connection served its request) and the
// requests that came over HTTP/2.
func countingTLSServer(tb testing.TB, h2 bool, body string) (srv *httptest.Server, opened, overH2 *atomic.Int32) {
	tb.Helper()
	opened, overH2 = new(atomic.Int32), new(atomic.Int32)
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.ProtoMajor == 2 {
			overH2.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, body)
	}))
	srv.EnableHTTP2 = h2
	srv.TLS = &tls.Config{VerifyConnection: func(tls.ConnectionState) error {
		opened.Add(1)
		return nil
	}}
	srv.StartTLS()
	tb.Cleanup(srv.Close)
	return srv, opened, overH2
}

// inABurst runs call from 64 goroutines, each times each, all starting at once, and
// returns the errors.
func inABurst(each int, call func() error) []error {
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
