// Package insurancetest is a complete test double of the insurance partner interface
// for partners' own tests: a stateful sandbox of every endpoint, on 127.0.0.1 or with
// no network at all, that shows what it received, fails on demand the way networks and
// proxies fail, and keeps a clock the test can move. No account, no configuration.
//
//	srv := insurancetest.NewServer()
//	defer srv.Close()
//	client := srv.Client() // an *insurance.Client with the sandbox's credentials
//	quote, err := client.QuoteTravel(ctx, req) // a real HTTP round trip over loopback
//
// The sandbox is faithful to the interface and strict where the interface is. Where
// the interface says "not shown", it picks one plausible behaviour, listed here; the
// SDK keeps every raw body, so code that reads Raw or Decode sees these shapes.
//
// # What the sandbox received and holds
//
// Requests lists every request of the interface the sandbox received, oldest first:
// method, path, the auth scheme it carried ("basic", "client-id", "bearer", "none";
// "basic+client-id" when it carried two), its headers without credentials, its body
// with card numbers, account numbers and verification codes masked, and the status
// answered (0 when a fault dropped the connection). A request is logged by the time
// its caller has an answer or a broken connection. Policies, Quotes, Partners and
// Events list the records the sandbox holds.
//
//	_, err := client.PurchaseTuition(ctx, req)
//	policies := srv.Policies() // len 1, policies[0].QuoteID == req.QuoteID
//
// # Faults
//
// Inject makes the next requests of one route fail as networks and proxies make them
// fail: answer a status with a body and headers (a gateway's HTML page, a 429 with
// Retry-After), wait before answering, or drop the connection without an answer; with
// Process, after the sandbox has handled the request, so the policy exists while the
// caller sees a failure: the case the SDK reports as insurance.ErrOutcomeUnknown.
//
//	srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Process: true, Drop: true})
//	_, err := client.PurchaseTuition(ctx, req)  // errors.Is(err, insurance.ErrOutcomeUnknown)
//	len(srv.Policies())                          // 1: the purchase went through
//
// Faults on one route apply in the order injected, each to the next Times requests
// (0: every request until Reset); routes are independent; each of many concurrent
// requests claims a whole fault or none. A route that is not one of the interface's
// panics, like a mistake in the test it is. A request the caller abandons during a
// Delay is not handled (unless Process handled it first).
//
// # Time
//
// Advance moves the sandbox's clock forward: customer secrets expire and new records
// are stamped as if the time had passed. Reset forgets every record, fault and logged
// request (the credentials and the clock stay).
//
// # No network: InMemory and testing/synctest
//
// With InMemory the sandbox listens on no port: Client and HTTPClient reach it
// through an in-memory transport with HTTP's semantics (status, headers, body; a
// Drop is a broken connection). Inside a testing/synctest bubble, the SDK's retry
// waits, Delay faults and secret lifetimes then pass in fake time, at once:
//
//	func TestCheckoutSurvivesAnOutage(t *testing.T) {
//		synctest.Test(t, func(t *testing.T) {
//			srv := insurancetest.NewServer(insurancetest.InMemory())
//			client := srv.Client(insurance.WithRetryWait(time.Second, 30*time.Second))
//			secret, _ := client.CreateCustomerSecret(ctx, "ada@example.com")
//			time.Sleep(16 * time.Minute) // the 15-minute secret expires: no real wait
//			srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: 2, Status: 503})
//			_, err := client.QuoteTravel(ctx, req) // two retry waits in fake time: succeeds
//		})
//	}
//
// The same test over loopback would wait out the real time.
//
// # Over HTTP, for code in any language
//
// examples/sandbox serves the sandbox on a port. Beside the interface, it answers
// these controls, with Basic auth (the partner credentials) and never CORS:
//
//	POST /sandbox/tuition-quotes  {"customer_email_address": "ada@example.com"} -> 201 {"quote_id"}
//	POST /sandbox/mark-purchased  {"quote_id": "q_..."} -> 200 (MarkPurchased)
//	POST /sandbox/faults          {"route": "POST /v1/quote/travel", "times": 1, "process": false,
//	                               "status": 503, "body": "...", "header": {"Retry-After": "1"},
//	                               "delay_ms": 0, "drop": false} -> 201 (Inject)
//	GET  /sandbox/requests        -> {"requests": [{"method", "path", "auth", "header", "body",
//	                                  "status_code", "received_at"}]}
//	GET  /sandbox/policies        -> {"policies": [...]}, each as a purchase answers it
//	GET  /sandbox/quotes          -> {"quotes": [...]}, each as a quote answers it
//	GET  /sandbox/partners        -> {"partners": [{"id", "entity_name", "administrative_email_address",
//	                                  "country", "status", "type"}]}
//	GET  /sandbox/events          -> {"events": [{"id", "event_name", "event_start_date", "event_end_date"}]}
//	POST /sandbox/clock           {"advance": "16m"} -> 200 {"now"} (Advance)
//	POST /sandbox/reset           -> 200 (Reset)
//	GET  /sandbox/openapi.yaml    the OpenAPI 3.1 description of the interface (no auth)
//
// A misspelt control field is a 400, not a silent no-op.
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
// default 15 minutes, on the sandbox's clock; then 401, error_code "secret_expired").
//
// # Quotes
//
// Required parameters (400 "missing required parameter: <name>" otherwise): travel:
// customer.email_address, policy_attributes.trip_start_date, trip_end_date and
// trip_cost; gap-medical: customer.email_address and
// policy_attributes.coverage_start_date. Dates are YYYY-MM-DD (anything else is 400
// naming the field). A trip that ends before it starts is 400. Without quote_id a
// quote is created (201); with a known quote_id it is updated (200); with an unknown
// one, or one of another product, 400; with one already bought, 422 (error_code
// "quote_unavailable"). The answer is {"quote_id", "product", "status":
// "QUOTED"|"PURCHASED", "premium", "currency" (default USD), "customer_email_address",
// "policy_id" (once bought), "created_at", "updated_at"}.
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
// country (US or CA) and website; bank_account.ach_account_type, when given, is
// CHECKING or SAVINGS. It answers 201 with a fresh uuid, type LIMITED, status
// PENDING_ONBOARDING, travel_retailer_onboarding_complete false, and
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
// text), "error_code", "message", "reason", "status"}. The error codes, by status:
//
//   - 400: parameter_missing (the message names it), invalid_parameter, invalid_type,
//     invalid_json, invalid_dates, invalid_card, invalid_token,
//     invalid_payment_method, quote_not_found, quote_product_mismatch, body_too_large,
//     invalid_body; from the controls, invalid_fault
//   - 401: unauthorized, secret_expired
//   - 402: payment_failed
//   - 403: secret_scope, cors_refused
//   - 404: not_found; 405: method_not_allowed
//   - 422: quote_unavailable
//   - 500: internal (a sandbox bug: please report it)
//
// Every answer has Content-Type: application/json and an X-Request-Id. Malformed
// JSON, a wrong type (the message names the field) and bodies over 1 MiB are 400,
// never a 500. Each kind of record, and the request log, is capped at 10,000; the
// oldest are forgotten first.
package insurancetest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

// Test values of the sandbox's payment processor.
const (
	CardOK        = "4242424242424242" // any other Luhn-valid card number also succeeds
	CardDeclined  = "4000000000000002" // 402
	TokenOK       = "tok_ok"           // any token starting tok_ succeeds, but:
	TokenDeclined = "tok_declined"     // 402
)

// Server is a sandbox of the interface, listening on 127.0.0.1 or, with InMemory,
// reachable only through Client and HTTPClient.
type Server struct {
	URL          string // base URL, e.g. http://127.0.0.1:41234; http://insurancetest.invalid in memory
	ClientID     string // the partner client id the sandbox accepts
	ClientSecret string // the partner client secret the sandbox accepts

	sandbox  *sandbox.Sandbox
	listener *httptest.Server // nil in memory
	memory   *http.Client     // set in memory
}

// Option configures a Server.
type Option struct {
	apply func(*settings)
}

type settings struct {
	sandbox  sandbox.Config
	inMemory bool
}

// WithSecretTTL sets the lifetime of customer secrets (default 15 minutes).
func WithSecretTTL(d time.Duration) Option {
	return Option{func(s *settings) { s.sandbox.SecretTTL = d }}
}

// WithLatency makes every answer of every endpoint wait d. To slow one route only,
// Inject a Fault with a Delay.
func WithLatency(d time.Duration) Option {
	return Option{func(s *settings) { s.sandbox.Latency = d }}
}

// WithAllowedOrigins lets pages served from these web origins (for example
// "http://127.0.0.1:8090") call the endpoints a browser may call: the gap-medical
// quote and purchase and the travel quote. No origin may call the others.
func WithAllowedOrigins(origins ...string) Option {
	return Option{func(s *settings) { s.sandbox.AllowedOrigins = append(s.sandbox.AllowedOrigins, origins...) }}
}

// InMemory makes a Server that listens on no port: Client and HTTPClient reach it
// through an in-memory transport, so it works inside a testing/synctest bubble, where
// retry waits, Delay faults and secret lifetimes pass in fake time. URL is then not
// reachable over the network.
func InMemory() Option {
	return Option{func(s *settings) { s.inMemory = true }}
}

// NewServer starts a sandbox with fresh random credentials. Close it when done.
func NewServer(opts ...Option) *Server {
	var set settings
	for _, opt := range opts {
		if opt.apply != nil {
			opt.apply(&set)
		}
	}
	sb := sandbox.New(set.sandbox)
	s := &Server{ClientID: sb.ClientID(), ClientSecret: sb.ClientSecret(), sandbox: sb}
	if set.inMemory {
		s.URL = "http://insurancetest.invalid"
		s.memory = &http.Client{Transport: &sandbox.MemoryTransport{Handler: sb}}
	} else {
		s.listener = httptest.NewServer(sb)
		s.URL = s.listener.URL
	}
	return s
}

// Close shuts a listening sandbox down and blocks until its requests have finished.
// In memory there is nothing to shut down: Close does nothing, and the sandbox answers
// as long as a client holds it.
func (s *Server) Close() {
	if s.listener != nil {
		s.listener.Close()
	}
}

// Client returns an *insurance.Client for the sandbox with its credentials and short
// retry waits (10ms to 100ms); opts are applied after them (WithClientID, say, for a
// client-side client). Like httptest, it panics on an invalid option, a mistake in
// the test itself.
func (s *Server) Client(opts ...insurance.Option) *insurance.Client {
	base := []insurance.Option{
		insurance.WithCredentials(s.ClientID, s.ClientSecret),
		insurance.WithRetryWait(10*time.Millisecond, 100*time.Millisecond),
	}
	if s.memory != nil {
		base = append(base, insurance.WithHTTPClient(s.memory), insurance.WithInsecureHTTP())
	}
	c, err := insurance.NewClient(s.URL, append(base, opts...)...)
	if err != nil {
		panic(fmt.Sprintf("insurancetest: Server.Client: %v", err))
	}
	return c
}

// HTTPClient returns an *http.Client that reaches the sandbox, for code that calls
// the interface without the SDK: through the in-memory transport with InMemory, over
// loopback otherwise. In memory, an *insurance.Client of your own built on it also
// needs insurance.WithInsecureHTTP, as URL is plain http to a host that is not
// loopback (and never reached); Client does that for you.
func (s *Server) HTTPClient() *http.Client {
	if s.memory != nil {
		return s.memory
	}
	return s.listener.Client()
}

// ComponentURL is the address of the sandbox's stand-in for the insurer's
// client-side gap-medical component (see the package doc).
func (s *Server) ComponentURL() string { return s.URL + sandbox.ComponentPath }

// NewTuitionQuote creates a tuition quote for customerEmail, as happens outside the
// interface, and returns its quote id for PurchaseTuition.
func (s *Server) NewTuitionQuote(customerEmail string) string {
	return s.sandbox.NewTuitionQuote(customerEmail)
}

// MarkPurchased binds a policy to the quote, as when it is bought outside the
// interface; quoting it again then answers 422.
func (s *Server) MarkPurchased(quoteID string) error { return s.sandbox.MarkPurchased(quoteID) }

// Fault makes requests of one route fail as networks and proxies make them fail. Give
// it to Inject.
type Fault struct {
	// Times is how many matching requests it applies to, from the next one; 0: every
	// one until Reset.
	Times int
	// Process has the sandbox handle the request first (the record is created), then
	// the fault applies: the caller sees a failure for a purchase that went through.
	Process bool
	// Status answers this status, with Body and Header, instead of the real answer.
	Status int
	Body   string
	Header http.Header
	// Delay waits this long before answering; a caller that gives up meanwhile gets
	// no answer (and, without Process, nothing is handled).
	Delay time.Duration
	// Drop closes the connection without an answer.
	Drop bool
}

// Inject makes the next requests of route ("METHOD /path", one of the interface's,
// e.g. "POST /v1/purchase/tuition") fail as f says, after any fault already injected
// for that route. It panics on a route that is not the interface's or on a fault
// that makes no sense (a Drop with a Status, say): a mistake in the test itself.
func (s *Server) Inject(route string, f Fault) {
	if err := s.sandbox.Inject(route, sandbox.Fault(f)); err != nil {
		panic(fmt.Sprintf("insurancetest: Inject: %v", err))
	}
}

// Request is one request of the interface the sandbox received. It never holds a
// secret.
type Request struct {
	Method string
	Path   string
	// Auth is the scheme the request carried: "basic", "client-id", "bearer" or
	// "none" ("basic+client-id" when it carried two; "other" for another scheme).
	Auth string
	// Header holds the request's headers but Authorization, Proxy-Authorization,
	// x-api-client-id and Cookie.
	Header http.Header
	// Body is the body as received, with card numbers, account numbers and
	// verification codes masked.
	Body []byte
	// StatusCode is what the sandbox answered; 0 when a fault dropped the connection
	// or the caller gave up during a Delay.
	StatusCode int
	ReceivedAt time.Time // on the sandbox's clock
}

// Requests returns every request of the interface the sandbox received, oldest first.
func (s *Server) Requests() []Request {
	return convert(s.sandbox.Requests(), func(r sandbox.Request) Request { return Request(r) })
}

// Policy is a policy the sandbox issued.
type Policy struct {
	PolicyID, QuoteID, Product string
	Status                     string // ACTIVE
	CustomerEmail              string
	Premium                    float64
	Currency                   string
	CreatedAt                  time.Time // on the sandbox's clock
}

// Policies returns every policy issued, oldest first: through the interface or
// MarkPurchased.
func (s *Server) Policies() []Policy {
	return convert(s.sandbox.Policies(), func(p sandbox.Policy) Policy { return Policy(p) })
}

// Quote is a quote the sandbox holds.
type Quote struct {
	QuoteID, Product, Status, CustomerEmail string
	PolicyID                                string // once bought
	Premium                                 float64
	Currency                                string
	CreatedAt, UpdatedAt                    time.Time
}

// Quotes returns every quote, oldest first: bought or not, from the interface or
// NewTuitionQuote.
func (s *Server) Quotes() []Quote {
	return convert(s.sandbox.Quotes(), func(q sandbox.Quote) Quote { return Quote(q) })
}

// Partner is a partner the sandbox onboarded.
type Partner struct {
	ID, EntityName, AdministrativeEmailAddress, Country, Status, Type string
}

// Partners returns every partner onboarded, oldest first.
func (s *Server) Partners() []Partner {
	return convert(s.sandbox.Partners(), func(p sandbox.Partner) Partner { return Partner(p) })
}

// Event is an insured event the sandbox recorded.
type Event struct {
	ID, EventName, EventStartDate, EventEndDate string
}

// Events returns every insured event recorded, oldest first.
func (s *Server) Events() []Event {
	return convert(s.sandbox.Events(), func(e sandbox.Event) Event { return Event(e) })
}

// Advance moves the sandbox's clock forward by d: customer secrets expire, and new
// records are stamped, as if d had passed. It panics on a negative d.
func (s *Server) Advance(d time.Duration) { s.sandbox.Advance(d) }

// Now is the time on the sandbox's clock.
func (s *Server) Now() time.Time { return s.sandbox.Now() }

// Reset forgets every record, fault and logged request. The credentials and the clock
// stay.
func (s *Server) Reset() { s.sandbox.Reset() }

// convert copies the sandbox's records into this package's types of the same fields.
func convert[S, T any](in []S, to func(S) T) []T {
	out := make([]T, len(in))
	for i, r := range in {
		out[i] = to(r)
	}
	return out
}
