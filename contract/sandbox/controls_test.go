package sandbox_test

// The sandbox's controls against api/sandbox.yaml, both ways, as interface_test.go
// checks the interface against api/openapi.yaml: every control request below is
// validated against the document (allowed, or refused for the reason the case
// states), and so is every answer, errors included.

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/contract/internal/contracttest"
	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

// newControlsHarness is a harness whose exchanges are checked against api/sandbox.yaml.
func newControlsHarness(t *testing.T) *sandboxHarness {
	h := newSandboxHarness(t)
	h.contract = contracttest.Controls(t)
	return h
}

// setUp sends a request of the interface, unchecked, and requires status.
func (h *sandboxHarness) setUp(req sent, status int) {
	h.t.Helper()
	got, _, body := h.serve(req)
	require.Equal(h.t, status, got, "%s %s: %s", req.Method, req.Path, body)
}

// bought sets up a tuition quote bought with a card, so that every list has a record
// with every field.
func (h *sandboxHarness) bought() {
	h.setUp(h.basic("POST", "/v1/purchase/tuition", tuitionPurchase(h.sandbox.NewTuitionQuote("ada@example.com"),
		`{"card": {"number": "`+sandbox.CardOK+`", "verification": "123"}}`)), http.StatusCreated)
	h.setUp(h.basic("POST", "/v1/quote/travel", travelQuoteBody), http.StatusCreated)
}

// TestControlsFollowTheirDocument covers every control's success and the errors each
// gives; it fails when the document gains an operation no case succeeds on.
func TestControlsFollowTheirDocument(t *testing.T) {
	tests := []exchangeCase{
		{"credentials", func(h *sandboxHarness) sent { return h.basic("POST", "/sandbox/credentials", "") }, 201, allowed},
		{"credentials without auth: 401", func(h *sandboxHarness) sent { return h.anonymous("POST", "/sandbox/credentials", "") }, 401, refusedAuth},
		{"credentials with the client id header: 401", func(h *sandboxHarness) sent { return h.clientID("POST", "/sandbox/credentials", "") }, 401, refusedAuth},
		{"credentials with a wrong secret: 401", func(h *sandboxHarness) sent {
			return h.request("POST", "/sandbox/credentials", "", "Authorization", "Basic "+basicCredential(h.sandbox.ClientID(), "wrong"))
		}, 401, allowed},
		{"a control with an added partner's credentials", func(h *sandboxHarness) sent {
			id, secret := h.sandbox.AddPartner()
			return h.request("GET", "/sandbox/quotes", "", "Authorization", "Basic "+basicCredential(id, secret))
		}, 200, allowed},

		{"tuition quote", func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/tuition-quotes", `{"customer_email_address": "ada@example.com"}`)
		}, 201, allowed},
		{"tuition quote without an email: 400", func(h *sandboxHarness) sent { return h.basic("POST", "/sandbox/tuition-quotes", `{}`) }, 400, refusedSchema},
		{"tuition quote for what is no email: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/tuition-quotes", `{"customer_email_address": "ada"}`)
		}, 400, refusedSchema},
		{"tuition quote with a misspelt field: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/tuition-quotes", `{"customer_email": "ada@example.com"}`)
		}, 400, refusedSchema},

		{"mark purchased", func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/mark-purchased", `{"quote_id": "`+h.sandbox.NewTuitionQuote("ada@example.com")+`"}`)
		}, 200, allowed},
		{"mark purchased with a misspelt field: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/mark-purchased", `{"quoteid": "`+h.sandbox.NewTuitionQuote("ada@example.com")+`"}`)
		}, 400, refusedSchema},
		{"mark purchased an unknown quote: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/mark-purchased", `{"quote_id": "q_unknown"}`)
		}, 400, allowed},
		{"mark purchased twice: 400", func(h *sandboxHarness) sent {
			id := h.sandbox.NewTuitionQuote("ada@example.com")
			require.NoError(h.t, h.sandbox.MarkPurchased(id))
			return h.basic("POST", "/sandbox/mark-purchased", `{"quote_id": "`+id+`"}`)
		}, 400, allowed},

		{"fault with every field", func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/faults", `{"route": "POST /v1/quote/travel", "times": 1, "process": false,
				"status": 503, "body": "<html>busy</html>", "header": {"Retry-After": "1"}, "delay_ms": 5, "drop": false}`)
		}, 201, allowed},
		{"fault that drops after processing", func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/faults", `{"route": "POST /v1/purchase/tuition", "times": 1, "process": true, "drop": true}`)
		}, 201, allowed},
		{"fault on no route of the interface: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/faults", `{"route": "GET /v1/nope", "status": 503}`)
		}, 400, allowed},
		{"fault that drops and answers: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/faults", `{"route": "GET /v1/products", "status": 503, "drop": true}`)
		}, 400, allowed},
		{"fault with a misspelt field: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/faults", `{"route": "GET /v1/products", "satus": 503}`)
		}, 400, refusedSchema},

		{"requests", func(h *sandboxHarness) sent {
			h.bought()
			h.setUp(h.anonymous("GET", "/v1/products", ""), http.StatusUnauthorized)
			return h.basic("GET", "/sandbox/requests", "")
		}, 200, allowed},
		{"requests, one answered with a warning", func(h *sandboxHarness) sent {
			h.setUp(h.clientID("POST", "/v1/quote/gap-medical", `{"customer": {"email_address": "ada@example.com"}, "policy_attributes": {"coverage_start_date": "2027-04-01", "deductible": 500}}`), http.StatusCreated)
			return h.basic("GET", "/sandbox/requests", "")
		}, 200, allowed},
		{"requests without auth: 401", func(h *sandboxHarness) sent { return h.anonymous("GET", "/sandbox/requests", "") }, 401, refusedAuth},
		{"policies", func(h *sandboxHarness) sent { h.bought(); return h.basic("GET", "/sandbox/policies", "") }, 200, allowed},
		{"quotes", func(h *sandboxHarness) sent { h.bought(); return h.basic("GET", "/sandbox/quotes", "") }, 200, allowed},
		{"partners", func(h *sandboxHarness) sent {
			h.setUp(h.basic("POST", "/v1/partners/onboard", onboardBody+`}`), http.StatusCreated)
			return h.basic("GET", "/sandbox/partners", "")
		}, 200, allowed},
		{"events", func(h *sandboxHarness) sent {
			h.setUp(h.basic("POST", "/v1/events", eventBody), http.StatusCreated)
			return h.basic("GET", "/sandbox/events", "")
		}, 200, allowed},

		{"clock", func(h *sandboxHarness) sent { return h.basic("POST", "/sandbox/clock", `{"advance": "16m"}`) }, 200, allowed},
		{"clock backwards: 400", func(h *sandboxHarness) sent { return h.basic("POST", "/sandbox/clock", `{"advance": "-1m"}`) }, 400, allowed},
		{"clock by what is no duration: 400", func(h *sandboxHarness) sent { return h.basic("POST", "/sandbox/clock", `{"advance": "soon"}`) }, 400, allowed},
		{"clock without advance: 400", func(h *sandboxHarness) sent { return h.basic("POST", "/sandbox/clock", `{}`) }, 400, refusedSchema},
		{"clock with a misspelt field: 400", func(h *sandboxHarness) sent { return h.basic("POST", "/sandbox/clock", `{"advnce": "16m"}`) }, 400, refusedSchema},
		{"clock with Advance, not advance: 400", func(h *sandboxHarness) sent { return h.basic("POST", "/sandbox/clock", `{"Advance": "16m"}`) }, 400, refusedSchema},
		{"clock with a misspelt field beside advance: 400", func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/clock", `{"advnce": "16m", "advance": "1h"}`)
		}, 400, refusedSchema},
		{"reset", func(h *sandboxHarness) sent { h.bought(); return h.basic("POST", "/sandbox/reset", "") }, 200, allowed},

		{"the interface's document", func(h *sandboxHarness) sent { return h.anonymous("GET", "/sandbox/openapi.yaml", "") }, 200, allowed},
		{"the controls' document", func(h *sandboxHarness) sent { return h.anonymous("GET", "/sandbox/sandbox.yaml", "") }, 200, allowed},
		{"the stand-in component", func(h *sandboxHarness) sent { return h.anonymous("GET", "/sandbox/gap-medical.js", "") }, 200, allowed},
	}
	runExchanges(t, contracttest.Controls(t), newControlsHarness, tests)
}

// TestControlsAreTheDocument: the document describes every control the sandbox
// serves and nothing else, and nothing of the interface.
func TestControlsAreTheDocument(t *testing.T) {
	served := append(sandbox.Controls(),
		"GET "+sandbox.OpenAPIPath, "GET "+sandbox.SandboxDocumentPath, "GET "+sandbox.ComponentPath)
	var described []string
	for _, op := range contracttest.Controls(t).Operations() {
		described = append(described, op.Method+" "+op.Path)
		assert.True(t, strings.HasPrefix(op.Path, "/sandbox/"), "%s %s is not a control", op.Method, op.Path)
	}
	slices.Sort(served)
	slices.Sort(described)
	assert.Equal(t, served, described)
}
