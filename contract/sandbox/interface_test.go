package sandbox_test

// The sandbox against api/openapi.yaml: every exchange below, the requests that set a
// case up included, is sent to the sandbox over its http.Handler and checked both
// ways: the document must allow the request (or refuse it for the reason the case
// states), and must allow the sandbox's answer, errors included. The sandbox is driven
// black-box, through its exported API only.

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/contract/internal/contracttest"
	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

// refusal is what the document says of a request a case sends.
type refusal string

const (
	allowed       refusal = ""            // the document allows the request
	refusedAuth   refusal = "credentials" // its credentials are not what the operation's security asks for
	refusedSchema refusal = "body"        // its body breaks the operation's request schema
)

// secretTTL is the lifetime of the harness sandbox's customer secrets.
const secretTTL = 15 * time.Minute

// sent is a request a case sends.
type sent = contracttest.Sent

// sandboxHarness sends requests to one sandbox and checks each exchange.
type sandboxHarness struct {
	t        *testing.T
	contract *contracttest.Contract
	sandbox  *sandbox.Sandbox
	now      time.Time // the sandbox's clock
}

func newSandboxHarness(t *testing.T) *sandboxHarness {
	h := &sandboxHarness{t: t, contract: contracttest.Interface(t), now: time.Date(2027, time.January, 4, 9, 0, 0, 0, time.UTC)}
	h.sandbox = sandbox.New(sandbox.Config{
		ClientID: "ci_contract", ClientSecret: "cs_contract",
		SecretTTL: secretTTL, Now: func() time.Time { return h.now },
	})
	return h
}

// A request with each way of authenticating.

func (h *sandboxHarness) basic(method, path, body string) sent {
	return h.request(method, path, body, "Authorization", "Basic "+basicCredential(h.sandbox.ClientID(), h.sandbox.ClientSecret()))
}

func (h *sandboxHarness) clientID(method, path, body string) sent {
	return h.request(method, path, body, "X-Api-Client-Id", h.sandbox.ClientID())
}

func (h *sandboxHarness) bearer(secret, method, path, body string) sent {
	return h.request(method, path, body, "Authorization", "Bearer "+secret)
}

func (h *sandboxHarness) anonymous(method, path, body string) sent {
	return h.request(method, path, body, "", "")
}

func (h *sandboxHarness) request(method, path, body, authHeader, authValue string) sent {
	s := sent{Method: method, Path: path, Header: http.Header{"Accept": {"application/json"}}, Body: []byte(body)}
	if body != "" {
		s.Header.Set("Content-Type", "application/json")
	}
	if authHeader != "" {
		s.Header.Set(authHeader, authValue)
	}
	return s
}

func basicCredential(id, secret string) string {
	return base64.StdEncoding.EncodeToString([]byte(id + ":" + secret))
}

// exchange sends req to the sandbox, checks the request against the document (want
// says what the document must say of it) and the answer, and returns the answer.
func (h *sandboxHarness) exchange(req sent, want refusal) (int, map[string]any) {
	t := h.t
	t.Helper()
	in, err := h.contract.CheckRequest(req)
	require.NotNil(t, in, "%s %s: %v", req.Method, req.Path, err)
	switch want {
	case allowed:
		require.NoError(t, err, "%s refuses the request %s %s", h.contract.Name, req.Method, req.Path)
	case refusedAuth:
		var security *openapi3filter.SecurityRequirementsError
		require.ErrorAs(t, err, &security, "%s must refuse the credentials of %s %s", h.contract.Name, req.Method, req.Path)
	case refusedSchema:
		var bad *openapi3filter.RequestError
		require.ErrorAs(t, err, &bad, "%s must refuse the body of %s %s", h.contract.Name, req.Method, req.Path)
		require.NotNil(t, bad.RequestBody, "refused for its body: %v", err)
	}

	status, header, body := h.serve(req)
	assert.NoError(t, h.contract.CheckResponse(in, status, header, body),
		"the sandbox's answer %d to %s %s: %s", status, req.Method, req.Path, body)

	var answer map[string]any
	_ = json.Unmarshal(body, &answer) // a products list may be an array: answer stays nil
	if req.Path == "/v1/events" && status >= 400 {
		for _, field := range []string{"error", "error_code", "message", "reason", "status"} {
			assert.Contains(t, answer, field, "the events error body")
		}
	}
	return status, answer
}

// exchangeCase is one exchange of a table and what must come of it.
type exchangeCase struct {
	name    string
	request func(h *sandboxHarness) sent // may set up records first
	status  int
	refused refusal
}

// runExchanges makes every case's exchange, in parallel and each on a fresh harness
// from newHarness, and fails when the document c has an operation no case succeeds on.
func runExchanges(t *testing.T, c *contracttest.Contract, newHarness func(*testing.T) *sandboxHarness, tests []exchangeCase) {
	t.Helper()
	var mu sync.Mutex
	succeeded := map[string]bool{} // "METHOD /path" of the operations a case succeeded on
	t.Run("exchanges", func(t *testing.T) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				h := newHarness(t)
				req := tt.request(h)
				status, answer := h.exchange(req, tt.refused)
				assert.Equal(t, tt.status, status, "answer: %v", answer)
				if status < 300 {
					mu.Lock()
					succeeded[req.Method+" "+req.Path] = true
					mu.Unlock()
				}
			})
		}
	})
	for _, op := range c.Operations() {
		assert.True(t, succeeded[op.Method+" "+op.Path], "no case succeeds on %s %s (%s): add one", op.Method, op.Path, op.ID)
	}
}

// serve sends req to the sandbox, unchecked, and returns its answer.
func (h *sandboxHarness) serve(req sent) (int, http.Header, []byte) {
	rec := httptest.NewRecorder()
	h.sandbox.ServeHTTP(rec, req.Request())
	return rec.Code, rec.Header(), rec.Body.Bytes()
}

// create makes an exchange the document allows and that must succeed with status,
// and returns the string field of the answer named by field.
func (h *sandboxHarness) create(req sent, status int, field string) string {
	h.t.Helper()
	got, answer := h.exchange(req, allowed)
	require.Equal(h.t, status, got, "%s %s: %v", req.Method, req.Path, answer)
	value, _ := answer[field].(string)
	require.NotEmpty(h.t, value, "%s in the answer to %s %s", field, req.Method, req.Path)
	return value
}

// faulted is a products request, the next answer to which is fault.
func (h *sandboxHarness) faulted(fault sandbox.Fault) sent {
	require.NoError(h.t, h.sandbox.Inject("GET /v1/products", fault))
	return h.basic("GET", "/v1/products", "")
}

// Records a case starts from.

func (h *sandboxHarness) travelQuote() string {
	return h.create(h.basic("POST", "/v1/quote/travel", travelQuoteBody), http.StatusCreated, "quote_id")
}

func (h *sandboxHarness) gapMedicalQuote(email string) string {
	return h.create(h.clientID("POST", "/v1/quote/gap-medical",
		`{"customer": {"email_address": "`+email+`"}, "policy_attributes": {"coverage_start_date": "2027-04-01"}}`),
		http.StatusCreated, "quote_id")
}

func (h *sandboxHarness) customerSecret(email string) string {
	return h.create(h.basic("POST", "/v1/auth/customer/secret", `{"email_address": "`+email+`"}`), http.StatusCreated, "secret")
}

// payGapMedical sets up a gap-medical quote for ada@example.com and returns its
// purchase with token, under a customer secret issued for secretFor.
func (h *sandboxHarness) payGapMedical(secretFor, token string) sent {
	id := h.gapMedicalQuote("ada@example.com")
	return h.bearer(h.customerSecret(secretFor), "POST", "/v1/purchase/gap-medical", gapMedicalPurchase(id, token))
}

const (
	travelQuoteBody = `{
		"customer": {"email_address": "ada@example.com", "first_name": "Ada", "last_name": "Lovelace"},
		"metadata": {"booking_id": "bk_42"},
		"policy_attributes": {
			"trip_cost": 2500, "trip_cost_currency": "USD",
			"trip_start_date": "2027-03-01", "trip_end_date": "2027-03-15",
			"destination_countries": ["FR"], "coverage_type": "BASIC",
			"additional_travelers": [{"first_name": "Charles", "last_name": "Babbage"}]
		},
		"currency": "USD"
	}`
	onboardBody = `{"entity_name": "Acme Travel", "administrative_email_address": "admin@acme.example",
		"country": "CA", "website": "https://acme.example"`
	eventBody = `{"event_name": "Partner Summit", "event_start_date": "2027-06-01", "event_end_date": "2027-06-03",
		"event_street": "3 Harbour Rd", "event_city": "Chicago", "event_state": "IL", "event_postal_code": "60601", "event_country": "US"}`
)

func tuitionPurchase(quoteID, paymentMethod string) string {
	return `{"customer": {"email_address": "ada@example.com"}, "quote_id": "` + quoteID + `", "payment_method": ` + paymentMethod + `}`
}

func gapMedicalPurchase(quoteID, token string) string {
	return `{"quote_id": "` + quoteID + `", "payment_method": {"token": "` + token + `"}}`
}

// TestSandboxFollowsTheDocument covers every operation's success and every error the
// sandbox gives on the interface's operations; it fails when the document gains an
// operation no case succeeds on.
func TestSandboxFollowsTheDocument(t *testing.T) {
	tests := []exchangeCase{
		// Products.
		{"products", func(h *sandboxHarness) sent { return h.basic("GET", "/v1/products", "") }, 200, allowed},
		{"products without credentials: 401", func(h *sandboxHarness) sent { return h.anonymous("GET", "/v1/products", "") }, 401, refusedAuth},
		{"products with only the client id: 401", func(h *sandboxHarness) sent { return h.clientID("GET", "/v1/products", "") }, 401, refusedAuth},
		{"products under an injected 503", func(h *sandboxHarness) sent { return h.faulted(sandbox.Fault{Times: 1, Status: 503}) }, 503, allowed},
		{"products under an injected 429 with Retry-After", func(h *sandboxHarness) sent {
			return h.faulted(sandbox.Fault{Times: 1, Status: 429, Header: http.Header{"Retry-After": {"2"}}})
		}, 429, allowed},
		{"products under an injected 500", func(h *sandboxHarness) sent { return h.faulted(sandbox.Fault{Times: 1, Status: 500}) }, 500, allowed},

		// Travel quote.
		{"travel quote created with Basic", func(h *sandboxHarness) sent { return h.basic("POST", "/v1/quote/travel", travelQuoteBody) }, 201, allowed},
		{"travel quote created with the client id", func(h *sandboxHarness) sent { return h.clientID("POST", "/v1/quote/travel", travelQuoteBody) }, 201, allowed},
		{"travel quote updated", func(h *sandboxHarness) sent {
			id := h.travelQuote()
			return h.clientID("POST", "/v1/quote/travel", strings.Replace(travelQuoteBody, `"currency": "USD"`, `"currency": "USD", "quote_id": "`+id+`"`, 1))
		}, 200, allowed},
		{"travel quote missing a parameter: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/quote/travel", `{"policy_attributes": {"trip_cost": 100}}`)
		}, 400, allowed},
		{"travel quote without the customer's email address", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/quote/travel", strings.Replace(travelQuoteBody, `"email_address": "ada@example.com", `, "", 1))
		}, 201, allowed},
		{"travel quote of an unknown quote: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/quote/travel", strings.Replace(travelQuoteBody, `"currency": "USD"`, `"currency": "USD", "quote_id": "q_unknown"`, 1))
		}, 400, allowed},
		{"travel quote with a misspelt field: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/quote/travel", `{"curency": "USD"}`)
		}, 400, refusedSchema},
		{"travel quote with a misspelt customer field: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/quote/travel", `{"customer": {"emial_address": "ada@example.com"}}`)
		}, 400, refusedSchema},
		{"travel quote whose trip cost is text: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/quote/travel", `{"policy_attributes": {"trip_cost": "a lot"}}`)
		}, 400, refusedSchema},
		{"travel quote with neither header: 401", func(h *sandboxHarness) sent { return h.anonymous("POST", "/v1/quote/travel", travelQuoteBody) }, 401, refusedAuth},
		{"travel quote with a wrong client secret: 401", func(h *sandboxHarness) sent {
			return h.request("POST", "/v1/quote/travel", travelQuoteBody, "Authorization", "Basic "+basicCredential(h.sandbox.ClientID(), "wrong"))
		}, 401, allowed},
		{"travel quote of a quote already bought: 422", func(h *sandboxHarness) sent {
			id := h.travelQuote()
			require.NoError(h.t, h.sandbox.MarkPurchased(id))
			return h.basic("POST", "/v1/quote/travel", strings.Replace(travelQuoteBody, `"currency": "USD"`, `"currency": "USD", "quote_id": "`+id+`"`, 1))
		}, 422, allowed},

		// Gap-medical quote.
		{"gap-medical quote created", func(h *sandboxHarness) sent {
			return h.clientID("POST", "/v1/quote/gap-medical", `{"customer": {"email_address": "ada@example.com"}, "policy_attributes": {"coverage_start_date": "2027-04-01", "deductible": 500}}`)
		}, 201, allowed},
		{"gap-medical quote updated", func(h *sandboxHarness) sent {
			id := h.gapMedicalQuote("ada@example.com")
			return h.clientID("POST", "/v1/quote/gap-medical", `{"quote_id": "`+id+`", "customer": {"email_address": "ada@example.com"}, "policy_attributes": {"coverage_start_date": "2027-05-01"}}`)
		}, 200, allowed},
		{"gap-medical quote missing its coverage start date: 400", func(h *sandboxHarness) sent {
			return h.clientID("POST", "/v1/quote/gap-medical", `{"customer": {"email_address": "ada@example.com"}}`)
		}, 400, allowed},
		{"gap-medical quote with Basic: 401", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/quote/gap-medical", `{"customer": {"email_address": "ada@example.com"}, "policy_attributes": {"coverage_start_date": "2027-04-01"}}`)
		}, 401, refusedAuth},
		{"gap-medical quote of a quote already bought: 422", func(h *sandboxHarness) sent {
			id := h.gapMedicalQuote("ada@example.com")
			h.create(h.bearer(h.customerSecret("ada@example.com"), "POST", "/v1/purchase/gap-medical", gapMedicalPurchase(id, sandbox.TokenOK)), 201, "policy_id")
			return h.clientID("POST", "/v1/quote/gap-medical", `{"quote_id": "`+id+`", "customer": {"email_address": "ada@example.com"}, "policy_attributes": {"coverage_start_date": "2027-05-01"}}`)
		}, 422, allowed},

		// Tuition purchase.
		{"tuition purchase by card", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/purchase/tuition", tuitionPurchase(h.sandbox.NewTuitionQuote("ada@example.com"),
				`{"card": {"name": "Ada Lovelace", "number": "`+sandbox.CardOK+`", "verification": "123", "month": "12", "year": "2030", "address_postal_code": "62701"}}`))
		}, 201, allowed},
		{"tuition purchase by bank account", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/purchase/tuition", tuitionPurchase(h.sandbox.NewTuitionQuote("ada@example.com"),
				`{"bank_account": {"currency": "USD", "account_owner_name": "Ada Lovelace", "routing_number": "110000000", "account_number": "000123456789", "account_type": "checking", "account_owner_type": "individual", "country": "US"}}`))
		}, 201, allowed},
		{"tuition purchase by token, saved for future use", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/purchase/tuition", tuitionPurchase(h.sandbox.NewTuitionQuote("ada@example.com"), `{"token": "tok_ok", "save_for_future_use": true}`))
		}, 201, allowed},
		{"tuition purchase missing quote_id: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/purchase/tuition", `{"payment_method": {"token": "tok_ok"}}`)
		}, 400, allowed},
		{"tuition purchase without a payment method: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/purchase/tuition", `{"quote_id": "`+h.sandbox.NewTuitionQuote("ada@example.com")+`"}`)
		}, 400, allowed},
		{"tuition purchase with a declined card: 402", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/purchase/tuition", tuitionPurchase(h.sandbox.NewTuitionQuote("ada@example.com"), `{"card": {"number": "`+sandbox.CardDeclined+`"}}`))
		}, 402, allowed},
		{"tuition purchase with a declined token: 402", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/purchase/tuition", tuitionPurchase(h.sandbox.NewTuitionQuote("ada@example.com"), `{"token": "`+sandbox.TokenDeclined+`"}`))
		}, 402, allowed},
		{"tuition purchase of a quote already bought: 422", func(h *sandboxHarness) sent {
			id := h.sandbox.NewTuitionQuote("ada@example.com")
			h.create(h.basic("POST", "/v1/purchase/tuition", tuitionPurchase(id, `{"token": "tok_ok"}`)), 201, "policy_id")
			return h.basic("POST", "/v1/purchase/tuition", tuitionPurchase(id, `{"token": "tok_ok"}`))
		}, 422, allowed},
		{"tuition purchase with the client id: 401", func(h *sandboxHarness) sent {
			return h.clientID("POST", "/v1/purchase/tuition", tuitionPurchase(h.sandbox.NewTuitionQuote("ada@example.com"), `{"token": "tok_ok"}`))
		}, 401, refusedAuth},
		{"tuition purchase with malformed JSON: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/purchase/tuition", `{"quote_id": `)
		}, 400, refusedSchema},

		// Customer secret and gap-medical purchase.
		{"customer secret", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/auth/customer/secret", `{"email_address": "ada@example.com"}`)
		}, 201, allowed},
		{"customer secret without an email address: 400", func(h *sandboxHarness) sent { return h.basic("POST", "/v1/auth/customer/secret", `{}`) }, 400, refusedSchema},
		{"customer secret for a number: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/auth/customer/secret", `{"email_address": 5}`)
		}, 400, refusedSchema},
		{"customer secret with malformed JSON: 400", func(h *sandboxHarness) sent { return h.basic("POST", "/v1/auth/customer/secret", `not json`) }, 400, refusedSchema},
		{"customer secret with only the client id: 401", func(h *sandboxHarness) sent {
			return h.clientID("POST", "/v1/auth/customer/secret", `{"email_address": "ada@example.com"}`)
		}, 401, refusedAuth},
		{"gap-medical purchase", func(h *sandboxHarness) sent { return h.payGapMedical("ada@example.com", sandbox.TokenOK) }, 201, allowed},
		{"gap-medical purchase without a token: 400", func(h *sandboxHarness) sent {
			id := h.gapMedicalQuote("ada@example.com")
			return h.bearer(h.customerSecret("ada@example.com"), "POST", "/v1/purchase/gap-medical", `{"quote_id": "`+id+`"}`)
		}, 400, refusedSchema},
		{"gap-medical purchase by card: 400", func(h *sandboxHarness) sent {
			id := h.gapMedicalQuote("ada@example.com")
			return h.bearer(h.customerSecret("ada@example.com"), "POST", "/v1/purchase/gap-medical", `{"quote_id": "`+id+`", "payment_method": {"card": {"number": "`+sandbox.CardOK+`"}}}`)
		}, 400, refusedSchema},
		{"gap-medical purchase with a declined token: 402", func(h *sandboxHarness) sent { return h.payGapMedical("ada@example.com", sandbox.TokenDeclined) }, 402, allowed},
		{"gap-medical purchase with a secret for another email: 403", func(h *sandboxHarness) sent { return h.payGapMedical("mallory@example.com", sandbox.TokenOK) }, 403, allowed},
		{"gap-medical purchase with an unknown secret: 401", func(h *sandboxHarness) sent {
			id := h.gapMedicalQuote("ada@example.com")
			return h.bearer("cus_sec_unknown", "POST", "/v1/purchase/gap-medical", gapMedicalPurchase(id, sandbox.TokenOK))
		}, 401, allowed},
		{"gap-medical purchase with an expired secret: 401", func(h *sandboxHarness) sent {
			id := h.gapMedicalQuote("ada@example.com")
			secret := h.customerSecret("ada@example.com")
			h.now = h.now.Add(secretTTL + time.Minute)
			return h.bearer(secret, "POST", "/v1/purchase/gap-medical", gapMedicalPurchase(id, sandbox.TokenOK))
		}, 401, allowed},
		{"gap-medical purchase with Basic: 401", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/purchase/gap-medical", gapMedicalPurchase(h.gapMedicalQuote("ada@example.com"), sandbox.TokenOK))
		}, 401, refusedAuth},

		// Onboarding.
		{"onboarding a travel retailer", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/partners/onboard", onboardBody+`, "billing_email_address": "billing@acme.example",
				"address": "2 Market St", "city": "Toronto", "state": "ON", "postal_code": "M5V 2T6", "travel_retailer": true,
				"bank_account": {"ach_account_number": "000987654321", "ach_routing_number": "021000021", "ach_account_type": "CHECKING", "ach_account_name": "Acme", "eft_bank_code": "001"}}`)
		}, 201, allowed},
		{"onboarding with the required fields only", func(h *sandboxHarness) sent { return h.basic("POST", "/v1/partners/onboard", onboardBody+`}`) }, 201, allowed},
		{"onboarding without entity_name: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/partners/onboard", `{"administrative_email_address": "admin@acme.example", "country": "US", "website": "https://acme.example"}`)
		}, 400, refusedSchema},
		{"onboarding in FR: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/partners/onboard", strings.Replace(onboardBody, `"CA"`, `"FR"`, 1)+`}`)
		}, 400, refusedSchema},
		{"onboarding with an administrative email that is none: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/partners/onboard", strings.Replace(onboardBody, "admin@acme.example", "admin", 1)+`}`)
		}, 400, refusedSchema},
		{"onboarding without credentials: 401", func(h *sandboxHarness) sent { return h.anonymous("POST", "/v1/partners/onboard", onboardBody+`}`) }, 401, refusedAuth},

		// Events: every error carries the events error body.
		{"event", func(h *sandboxHarness) sent { return h.basic("POST", "/v1/events", eventBody) }, 201, allowed},
		{"event missing its name: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/events", `{"event_start_date": "2027-06-01", "event_end_date": "2027-06-03"}`)
		}, 400, allowed},
		{"event ending before it starts: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/events", strings.Replace(eventBody, "2027-06-03", "2027-05-30", 1))
		}, 400, allowed},
		{"event with a date not YYYY-MM-DD: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/events", strings.Replace(eventBody, "2027-06-01", "06/01/2027", 1))
		}, 400, refusedSchema},
		{"event with malformed JSON: 400", func(h *sandboxHarness) sent { return h.basic("POST", "/v1/events", `{`) }, 400, refusedSchema},
		{"event with only the client id: 401", func(h *sandboxHarness) sent { return h.clientID("POST", "/v1/events", eventBody) }, 401, refusedAuth},
	}
	runExchanges(t, contracttest.Interface(t), newSandboxHarness, tests)
}
