package insurance_test

import (
	"encoding/base64"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

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
type sent struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

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
			DestinationCountries: []string{"FR", "IT"},
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
