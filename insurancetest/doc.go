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
// with card numbers, account numbers and verification codes masked, the partner's
// client id it carried (ClientID), and the status
// answered (0 when a fault dropped the connection). A request is logged by the time
// its caller has an answer or a broken connection.
//
// What the log holds is bounded, whoever sends the requests (a page in a browser can
// send them to examples/sandbox): the sandbox reads a body only once it knows the
// request is for an endpoint, by its method, with the credentials it takes, so a
// request to an unknown route or without valid credentials is logged without its
// body. Of a body it reads, the log keeps the first 64 KiB (BodyTruncated says when
// there was more), and of the path and headers 8 KiB (HeaderTruncated). The values
// under "number", "verification", "account_number" and "ach_account_number" are
// masked whatever the case of the key ("Number", "NUMBER"), as encoding/json matches
// a key to a field; a body that is not JSON has every digit masked. Policies, Quotes, Partners and
// Events list the records the sandbox holds; a policy and a quote say whose they
// are (ClientID).
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
// caller sees a failure: the case the SDK reports as insurance.ErrOutcomeUnknown
// (docs/outcome-unknown.md says what code can do about it in production, where no
// such peek exists).
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
// With InMemory the sandbox listens on no port: Client and HTTPClient reach it over
// in-memory connections to an http.Server, and a call takes the path it takes over
// loopback, with the same requests, headers, faults and decisions (InMemory lists
// what differs: the network, and no connection kept alive, which changes how a GET
// broken on a reused one is sent again). Inside a testing/synctest bubble, the SDK's
// retry waits, Delay faults and secret lifetimes then pass in fake time, at once:
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
// # Many partners
//
// A Server starts with one partner, ClientID and ClientSecret; AddPartner adds
// others, each with credentials of its own, as a platform that sells for many
// agencies needs. Each partner's quotes, customer secrets and policies are its own:
// another partner's quote_id is an unknown quote (400, error_code "quote_not_found",
// as for a quote never made, on quoting and on purchasing alike), and a customer
// secret buys only quotes of the partner that minted it (403, error_code
// "secret_scope"). NewTuitionQuoteFor makes a tuition quote of one partner. Reset
// forgets records, not partners.
//
//	agencyID, agencySecret := srv.AddPartner()
//	agency, _ := insurance.NewClient(srv.URL, insurance.WithCredentials(agencyID, agencySecret))
//	_, err := agency.PurchaseTuition(ctx, req) // req.QuoteID of another partner: ErrBadRequest
//	srv.Requests()[0].ClientID                 // agencyID: the request carried its credentials
//
// # Reproducible ids
//
// With WithSeed, every id and secret the sandbox makes (credentials, quote and policy
// ids, customer secrets, the uuids of partners and events, X-Request-Id) is drawn from
// the seed: the same calls in the same order give the same ids, so a golden file of
// your own output can hold a policy id. Each kind of id has a sequence of its own (a
// retried quote does not shift the policy ids); Reset does not rewind them. Calls made
// concurrently take ids in the order they reach the sandbox.
//
// # Over HTTP, for code in any language
//
// examples/sandbox serves the sandbox on a port (-seed N for reproducible ids).
// Beside the interface, it answers these controls, described by api/sandbox.yaml
// (OpenAPI 3.1, served at /sandbox/sandbox.yaml). They take Basic auth with any
// partner's credentials, act on the whole sandbox (every partner's records), and
// never answer CORS:
//
//	POST /sandbox/credentials     -> 201 {"client_id", "client_secret"} (AddPartner)
//	POST /sandbox/tuition-quotes  {"customer_email_address": "ada@example.com"} -> 201 {"quote_id"},
//	                              a quote of the calling partner
//	POST /sandbox/mark-purchased  {"quote_id": "q_..."} -> 200 (MarkPurchased)
//	POST /sandbox/faults          {"route": "POST /v1/quote/travel", "times": 1, "process": false,
//	                               "status": 503, "body": "...", "header": {"Retry-After": "1"},
//	                               "delay_ms": 0, "drop": false} -> 201 (Inject)
//	GET  /sandbox/requests        -> {"requests": [{"method", "path", "auth", "client_id", "header",
//	                                  "body", "status_code", "received_at"}]}
//	GET  /sandbox/policies        -> {"policies": [...]}, each as a purchase answers it, and "client_id"
//	GET  /sandbox/quotes          -> {"quotes": [...]}, each as a quote answers it, and "client_id"
//	GET  /sandbox/partners        -> {"partners": [{"id", "entity_name", "administrative_email_address",
//	                                  "country", "status", "type"}]}
//	GET  /sandbox/events          -> {"events": [{"id", "event_name", "event_start_date", "event_end_date"}]}
//	POST /sandbox/clock           {"advance": "16m"} -> 200 {"now"} (Advance)
//	POST /sandbox/reset           -> 200 (Reset)
//	GET  /sandbox/openapi.yaml    api/openapi.yaml, the description of the interface (no auth)
//	GET  /sandbox/sandbox.yaml    api/sandbox.yaml, the description of these controls (no auth)
//
// A misspelt control field ("advnce", or "Advance": names match exactly) is a 400
// unknown_parameter naming it, as on the interface, not a silent no-op.
//
// # Auth
//
// Basic auth with a partner's client id and secret on products, the tuition purchase,
// the customer secret, onboarding and events; only the x-api-client-id header (a
// partner's client id, no Authorization) on the gap-medical quote; either on the travel quote;
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
// policy_attributes.trip_start_date, trip_end_date and trip_cost; gap-medical:
// customer.email_address and policy_attributes.coverage_start_date. The interface
// shows no required flag, and its travel quote answers 400 "most likely a missing
// parameter" without naming one: the sandbox requires what it prices the trip from,
// and not the customer's email address, which a travel quote does not use (it has no
// purchase or customer secret) and api/openapi.yaml does not require; the quote's
// customer_email_address is then "". The gap-medical quote needs the email: its
// customer secret and purchase are bound to it. Dates are YYYY-MM-DD (anything else is 400
// naming the field). A trip that ends before it starts is 400. Without quote_id a
// quote is created (201); with a known quote_id it is updated (200); with an unknown
// one, or one of another product, 400; with one already bought, 422 (error_code
// "quote_unavailable"). The answer is {"quote_id", "product", "status":
// "QUOTED"|"PURCHASED", "premium", "currency" (default USD), "customer_email_address",
// "policy_id" (once bought), "created_at", "updated_at"}. The interface shows none of
// these fields: their names are the sandbox's choice (the quote_id excepted, which the
// interface names in its requests), and code that reads, say, "premium" must check
// what the service itself sends.
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
// the gap-medical purchase requires quote_id and payment_method.token, and pays by
// the token only (a card beside it is accepted unread, with a warning: see Errors and
// limits). Test values:
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
// country (US or CA) and website, none empty; billing_email_address, when given, is
// an address; bank_account.ach_account_type, when given, is
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
//   - 400: parameter_missing (the message names it), unknown_parameter (likewise),
//     invalid_parameter, invalid_type, invalid_json, invalid_dates, invalid_card,
//     invalid_token, quote_not_found, quote_product_mismatch, body_too_large,
//     invalid_body; from the controls, invalid_fault
//   - 401: unauthorized, secret_expired
//   - 402: payment_failed
//   - 403: secret_scope, cors_refused
//   - 404: not_found; 405: method_not_allowed
//   - 415: unsupported_media_type (a body not sent as application/json)
//   - 422: quote_unavailable
//   - 500: internal (a sandbox bug: please report it)
//   - any status of a Fault given no Body: injected_fault
//
// A request body is JSON sent with Content-Type: application/json, as the documents
// take it; parameters such as charset=utf-8 are ignored. Any other type, or none, is
// 415 unsupported_media_type, whose message names application/json (curl -d sends
// application/x-www-form-urlencoded: add -H 'Content-Type: application/json'). A
// request without a body (a GET, POST /sandbox/reset) needs none.
//
// Request bodies are read as api/openapi.yaml describes them. A field it does not
// name ("curency" for "currency", matched exactly) is 400 unknown_parameter naming
// it, except in the two bodies whose other fields the interface leaves "not shown",
// the gap-medical quote and purchase: there it is accepted unread, and the answer's
// X-Sandbox-Warning header (and Request.Warning in the log) names it. Email addresses
// (customer.email_address, email_address, the onboarding addresses) must be
// addresses, wherever given.
//
// Every answer has an X-Request-Id, and Content-Type: application/json with a JSON
// body, but for a Fault's own Body (sent as given, with its Header) and a Fault of a
// status below 400 with no Body (an empty body, no Content-Type). Malformed JSON, a
// wrong type (the message names the field) and bodies over 1 MiB are 400, never a
// 500. Each kind of record, and the request log, is capped at 10,000; the
// oldest are forgotten first.
package insurancetest
