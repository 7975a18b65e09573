package contract_test

import (
	"maps"
	"net/http"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/contract/internal/contracttest"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// TestDocumentExamplesUseOnlyNamedFields: a mock server (Prism's static mode) answers
// with the document's examples, so each example must be valid against its schema and
// use only the fields that schema names, that is, fields the interface shows or implies.
func TestDocumentExamplesUseOnlyNamedFields(t *testing.T) {
	c := contracttest.Interface(t)
	seen := 0
	for _, name := range slices.Sorted(maps.Keys(c.Doc.Components.Schemas)) {
		schema := c.Doc.Components.Schemas[name].Value
		for i, example := range schema.Examples {
			seen++
			assert.NoError(t, schema.VisitJSON(example), "example %d of %s", i, name)
			object, ok := example.(map[string]any)
			if !assert.True(t, ok, "example %d of %s is a JSON object", i, name) {
				continue
			}
			for field := range object {
				assert.Contains(t, schema.Properties, field, "example %d of %s uses a field its schema does not name", i, name)
			}
		}
	}
	assert.NotZero(t, seen, "the document has examples for a mock to answer with")
}

// TestDocumentSaysWhatGeneratorsNeed: what the interface shows or implies is typed and
// required where a generated client depends on it, and the exclusive credentials are
// written where a tool can read them.
func TestDocumentSaysWhatGeneratorsNeed(t *testing.T) {
	c := contracttest.Interface(t)
	for _, op := range c.Operations() {
		// OpenAPI cannot say "this scheme and no other credential": the extension does.
		assert.Equal(t, true, c.Doc.Paths.Find(op.Path).GetOperation(op.Method).Extensions["x-exclusive-security"],
			"%s %s takes only the credentials its security lists: it needs x-exclusive-security: true", op.Method, op.Path)
	}
	answers := []struct {
		name, method, path string
		status             int
		body               string
	}{
		{"a quote without quote_id", "POST", "/v1/quote/travel", 201, `{"premium": 52.5}`},
		{"a quote whose quote_id is a number", "POST", "/v1/quote/gap-medical", 200, `{"quote_id": 12345}`},
		{"a customer secret without secret", "POST", "/v1/auth/customer/secret", 201, `{"email_address": "ada@example.com"}`},
		{"an error whose error_code is a number", "POST", "/v1/purchase/tuition", 400, `{"error_code": 42}`},
	}
	for _, tt := range answers {
		t.Run("answer: "+tt.name, func(t *testing.T) {
			req := sent{Method: tt.method, Path: tt.path, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{}`)}
			in, _ := c.CheckRequest(req) // routed; the request itself does not matter here
			require.NotNil(t, in)
			assert.Error(t, c.CheckResponse(in, tt.status, http.Header{"Content-Type": {"application/json"}}, []byte(tt.body)))
		})
	}
}

// TestDocumentRefusesWhatTheInterfaceDoesNot shows the referee has teeth: requests
// and answers that break the interface are refused, so a misspelt JSON name in the
// SDK or a wrong answer from the sandbox cannot pass unseen.
func TestDocumentRefusesWhatTheInterfaceDoesNot(t *testing.T) {
	c := contracttest.Interface(t)
	basic := func(method, path, body string) sent {
		s := sent{Method: method, Path: path, Header: http.Header{}, Body: []byte(body)}
		s.Header.Set("Authorization", wiretest.BasicHeader)
		if body != "" {
			s.Header.Set("Content-Type", "application/json")
		}
		return s
	}
	withHeader := func(s sent, name, value string) sent {
		s.Header.Del("Authorization")
		s.Header.Set(name, value)
		return s
	}

	requests := []struct {
		name string
		req  sent
	}{
		{"a misspelt field", basic("POST", "/v1/quote/travel", `{"policy_attributes": {"trip_costs": 100}}`)},
		{"a customer field the interface does not name", basic("POST", "/v1/quote/travel", `{"customer": {"email": "ada@example.com"}}`)},
		{"a date not YYYY-MM-DD", basic("POST", "/v1/events", `{"event_start_date": "06/01/2027"}`)},
		{"onboarding without entity_name", basic("POST", "/v1/partners/onboard", `{"administrative_email_address": "a@example.com", "country": "US", "website": "w"}`)},
		{"onboarding in a country other than US or CA", basic("POST", "/v1/partners/onboard", `{"entity_name": "E", "administrative_email_address": "a@example.com", "country": "FR", "website": "w"}`)},
		{"an ACH account type other than CHECKING or SAVINGS", basic("POST", "/v1/partners/onboard", `{"entity_name": "E", "administrative_email_address": "a@example.com", "country": "US", "website": "w", "bank_account": {"ach_account_type": "MONEY_MARKET"}}`)},
		{"a body on GET /v1/products", basic("GET", "/v1/products", `{}`)},
		{"a travel quote without a body", basic("POST", "/v1/quote/travel", ``)},
		{"a travel quote without credentials", withHeader(basic("POST", "/v1/quote/travel", `{}`), "Accept", "application/json")},
		{"Basic on the gap-medical quote", basic("POST", "/v1/quote/gap-medical", `{}`)},
		{"Bearer beside the client id header", withHeader(withHeader(basic("POST", "/v1/purchase/gap-medical", `{}`), "Authorization", "Bearer cus_sec_1"), insurance.HeaderClientID, wiretest.ClientID)},
		{"a product line the interface does not show", basic("POST", "/v1/quote/pet", `{}`)},
		{"a sandbox control", basic("POST", "/sandbox/reset", `{}`)},
	}
	for _, tt := range requests {
		t.Run("request: "+tt.name, func(t *testing.T) {
			_, err := c.CheckRequest(tt.req)
			assert.Error(t, err)
		})
	}

	answers := []struct {
		name, method, path string
		status             int
		body               string
	}{
		{"a partner without travel_retailer_onboarding_complete", "POST", "/v1/partners/onboard", 201, `{"entity_name": "E", "administrative_email_address": "a@example.com", "country": "US", "website": "w"}`},
		{"a partner status the interface does not list", "POST", "/v1/partners/onboard", 201, `{"status": "ARCHIVED", "entity_name": "E", "administrative_email_address": "a@example.com", "country": "US", "website": "w", "travel_retailer_onboarding_complete": false}`},
		{"a partner id that is no uuid", "POST", "/v1/partners/onboard", 201, `{"id": "p_1", "entity_name": "E", "administrative_email_address": "a@example.com", "country": "US", "website": "w", "travel_retailer_onboarding_complete": false}`},
		{"an event date not YYYY-MM-DD", "POST", "/v1/events", 201, `{"event_start_date": "June 1st"}`},
		{"an events error whose status is text", "POST", "/v1/events", 400, `{"error": "Bad Request", "status": "400"}`},
		{"a quote that is no JSON object", "POST", "/v1/quote/travel", 201, `["q_1"]`},
		{"a customer secret that is no string", "POST", "/v1/auth/customer/secret", 201, `{"secret": 42}`},
		{"an error body that is no JSON object", "POST", "/v1/purchase/tuition", 402, `"declined"`},
	}
	for _, tt := range answers {
		t.Run("answer: "+tt.name, func(t *testing.T) {
			in, _ := c.CheckRequest(basic(tt.method, tt.path, `{}`)) // routed; the request itself does not matter here
			require.NotNil(t, in)
			assert.Error(t, c.CheckResponse(in, tt.status, http.Header{"Content-Type": {"application/json"}}, []byte(tt.body)))
		})
	}
}
