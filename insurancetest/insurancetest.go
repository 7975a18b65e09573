// Package insurancetest runs a stateful sandbox of the whole insurance partner
// interface on 127.0.0.1, for partners' own tests: no account, no network.
//
//	srv := insurancetest.NewServer()
//	defer srv.Close()
//	client := srv.Client()
//	quote, err := client.QuoteTravel(ctx, req) // a real HTTP round trip over loopback
//
// The sandbox is faithful to the interface and strict where the interface is. Where
// the interface says "not shown", it picks one plausible behaviour, listed here; the
// SDK keeps every raw body, so code that reads Raw or Decode sees these shapes.
//
// # Auth
//
// Basic auth with ClientID and ClientSecret on products, the tuition purchase, the
// customer secret, onboarding and events; only the x-api-client-id header (a known
// client id, no Authorization) on the gap-medical quote; either on the travel quote;
// only "Authorization: Bearer <customer secret>" (no x-api-client-id) on the
// gap-medical purchase. Anything else answers 401.
//
// # Customer secrets
//
// POST /v1/auth/customer/secret answers 201 with
// {"secret": "cus_sec_<48 hex>", "email_address", "expires_at"}. A secret is random,
// buys only quotes whose customer email is the one it was minted for (another email
// answers 403, error_code "secret_scope"), and expires after the TTL (WithSecretTTL,
// default 15 minutes; then 401, error_code "secret_expired").
//
// # Quotes
//
// Required parameters (400 "missing required parameter: <name>" otherwise): travel:
// customer.email_address, policy_attributes.trip_start_date, trip_end_date and
// trip_cost; gap-medical: customer.email_address and
// policy_attributes.coverage_start_date. A trip that ends before it starts is 400.
// Without quote_id a quote is created (201); with a known quote_id it is updated
// (200); with an unknown one, or one of another product, 400; with one already
// bought, 422 (error_code "quote_unavailable"). The answer is
// {"quote_id", "product", "status": "QUOTED"|"PURCHASED", "premium", "currency"
// (default USD), "customer_email_address", "policy_id" (once bought), "created_at",
// "updated_at"}.
//
// Premiums: travel = 4.5% of trip_cost + 2.50 per traveller (the customer plus
// additional_travelers) per trip day (start and end included), rounded to cents;
// gap-medical = 39.00 a month; tuition = 120.00.
//
// # Purchases
//
// A purchase answers 201 with {"policy_id", "quote_id", "product", "status": "ACTIVE",
// "premium", "currency", "customer_email_address", "created_at"}. The tuition purchase
// takes payment_method.token, card or bank_account (the first given, in that order);
// the gap-medical purchase takes only payment_method.token. Test values:
//
//   - CardOK and any other Luhn-valid card number succeed; CardDeclined answers 402.
//     A number that fails the Luhn check is 400.
//   - TokenOK and any token starting "tok_" succeed; TokenDeclined answers 402.
//     Any other token is 400.
//   - A bank account needs account_number and routing_number.
//
// An unknown quote_id is 400; a quote already bought is 422, so of two concurrent
// purchases of one quote exactly one wins. Tuition quotes come from outside the
// interface: make one with NewTuitionQuote. MarkPurchased binds a quote as a policy
// bought outside the interface would (a travel quote, say).
//
// # Partners, events, products
//
// Onboarding requires entity_name, administrative_email_address (an address),
// country (US or CA) and website; it answers 201 with a fresh uuid, type LIMITED,
// status PENDING_ONBOARDING, travel_retailer_onboarding_complete false, and
// travel_retailer_onboarding_url only when travel_retailer was true.
//
// Events require event_name, event_start_date and event_end_date (YYYY-MM-DD, end not
// before start); they answer 201 with a fresh uuid, the request's fields, empty
// metadata and additional_insured, insurance_required true,
// insurance_requirements_type "GENERAL_LIABILITY", purpose "EVENT" and
// room_block_protection {rate 0.05, enabled false, event_type INDOOR}.
//
// GET /v1/products answers {"products": [...]} with the three product lines that
// have a path: gap-medical, travel and tuition, each with "id", "name" and its
// "quote_path" and/or "purchase_path".
//
// # Browsers
//
// For pages on the origins given to WithAllowedOrigins, the sandbox answers CORS
// preflights and requests for the endpoints a browser may call, and only those: the
// gap-medical quote and the travel quote (with Accept, Content-Type and
// x-api-client-id: no Authorization, so no Basic auth from a page) and the gap-medical
// purchase (with Authorization for the Bearer customer secret). Any other origin, and
// every Basic-auth endpoint, gets no CORS headers and a 403 to its preflight.
//
// ComponentURL serves a small JavaScript custom element, <insurance-gap-medical>, a
// SANDBOX STAND-IN for the insurer's client-side gap-medical component, not that
// component. It takes the attributes client-id, customer-email-address,
// coverage-start-date and include-payment-element (card number, expiry and CVC
// fields), quotes through POST /v1/quote/gap-medical with the x-api-client-id header,
// and offers validate() (resolving to {isValid, errors}), getPaymentToken(cardHolderName,
// cardHolderPostalCode) (resolving to "tok_<random>", or "tok_declined" for
// CardDeclined) and the quoteId property. Card numbers never leave the page.
//
// # Errors and limits
//
// Every error on every endpoint carries the events error body: {"error" (the status
// text), "error_code", "message", "reason", "status"}. Every answer has
// Content-Type: application/json and an X-Request-Id. Malformed JSON, a wrong type
// (the message names the field) and bodies over 1 MiB are 400, never a 500. Each kind
// of record is capped at 10,000; the oldest are forgotten first.
package insurancetest

import (
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

// Test values of the sandbox's payment processor.
const (
	CardOK        = sandbox.CardOK        // any other valid card number also succeeds
	CardDeclined  = sandbox.CardDeclined  // 402
	TokenOK       = sandbox.TokenOK       // any token starting tok_ succeeds, but:
	TokenDeclined = sandbox.TokenDeclined // 402
)

// Server is a sandbox of the interface listening on 127.0.0.1.
type Server struct {
	URL          string // base URL, e.g. http://127.0.0.1:41234
	ClientID     string // the partner client id the sandbox accepts
	ClientSecret string // the partner client secret the sandbox accepts

	sandbox *sandbox.Sandbox
	http    *httptest.Server
}

// Option configures a Server.
type Option func(*sandbox.Config)

// WithSecretTTL sets the lifetime of customer secrets (default 15 minutes).
func WithSecretTTL(d time.Duration) Option {
	return func(c *sandbox.Config) { c.SecretTTL = d }
}

// WithAllowedOrigins lets pages served from these web origins (for example
// "http://127.0.0.1:8090") call the endpoints a browser may call: the gap-medical
// quote and purchase and the travel quote. No origin may call the others.
func WithAllowedOrigins(origins ...string) Option {
	return func(c *sandbox.Config) { c.AllowedOrigins = append(c.AllowedOrigins, origins...) }
}

// ComponentURL is the address of the sandbox's stand-in for the insurer's
// client-side gap-medical component (see the package doc).
func (s *Server) ComponentURL() string { return s.URL + sandbox.ComponentPath }

// WithLatency makes every answer wait d, for timeout tests.
func WithLatency(d time.Duration) Option {
	return func(c *sandbox.Config) { c.Latency = d }
}

// NewServer starts a sandbox with fresh random credentials. Close it when done.
func NewServer(opts ...Option) *Server {
	var cfg sandbox.Config
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	sb := sandbox.New(cfg)
	hs := httptest.NewServer(sb)
	return &Server{URL: hs.URL, ClientID: sb.ClientID(), ClientSecret: sb.ClientSecret(), sandbox: sb, http: hs}
}

// Close shuts the sandbox down and blocks until its requests have finished.
func (s *Server) Close() { s.http.Close() }

// Client returns an *insurance.Client for the sandbox with its credentials; opts are
// applied after them (WithClientID, say, for a client-side client). Like httptest,
// it panics on an invalid option, a mistake in the test itself.
func (s *Server) Client(opts ...insurance.Option) *insurance.Client {
	base := []insurance.Option{
		insurance.WithCredentials(s.ClientID, s.ClientSecret),
		insurance.WithRetryWait(10*time.Millisecond, 100*time.Millisecond),
	}
	c, err := insurance.NewClient(s.URL, append(base, opts...)...)
	if err != nil {
		panic(fmt.Sprintf("insurancetest: Server.Client: %v", err))
	}
	return c
}

// NewTuitionQuote creates a tuition quote for customerEmail, as happens outside the
// interface, and returns its quote id for PurchaseTuition.
func (s *Server) NewTuitionQuote(customerEmail string) string {
	return s.sandbox.NewTuitionQuote(customerEmail)
}

// MarkPurchased binds a policy to the quote, as when it is bought outside the
// interface; quoting it again then answers 422.
func (s *Server) MarkPurchased(quoteID string) error { return s.sandbox.MarkPurchased(quoteID) }
