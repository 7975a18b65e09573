package sandbox_test

// One verdict (issue 21): api/openapi.yaml and the sandbox accept and refuse the same
// request bodies. For every operation with a body, a valid body naming every field the
// operation's schema names is varied along that schema: each required field missing,
// each required string empty, a misspelt field beside each object's first field, each
// field of the wrong JSON type, each date malformed, each email address not one. The
// document's validator (kin-openapi) and the sandbox must give each the same verdict:
// accepted (2xx) or refused (400). A field the document leaves open (the gap-medical
// bodies, whose other fields the interface does not show) is accepted by both, and the sandbox then
// names it in X-Sandbox-Warning and in its request log; one it closes is refused by
// both, and the sandbox's 400 names it.

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/contract/internal/contracttest"
	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

// verdictOperation is an operation with a request body: a valid body for a fresh
// sandbox (records made first where the body names one), and how to send a body.
type verdictOperation struct {
	method, path string
	valid        func(h *sandboxHarness) (body map[string]any, send func(body string) sent)
}

// fullCustomer names every field of the document's Customer.
func fullCustomer() map[string]any {
	return map[string]any{
		"email_address": "ada@example.com", "state": "IL", "country": "US", "postal_code": "62701",
		"first_name": "Ada", "middle_name": "King", "last_name": "Lovelace", "phone_number": "+1 217 555 0100",
		"street": "1 Analytical Way", "city": "Springfield",
	}
}

var verdictOperations = []verdictOperation{
	{"POST", "/v1/quote/travel", func(h *sandboxHarness) (map[string]any, func(string) sent) {
		return map[string]any{
			"customer": fullCustomer(), "metadata": map[string]any{"booking_id": "bk_42"}, "partner_id": "pa_1",
			"quote_id": h.travelQuote(), "email_quote": false, "language": "en", "currency": "USD",
			"policy_attributes": map[string]any{
				"trip_cost": 2500, "trip_cost_currency": "USD",
				"trip_start_date": "2027-03-01", "trip_end_date": "2027-03-15", "initial_deposit_date": "2027-01-10",
				"origin":                map[string]any{"state": "IL", "country": "US"},
				"destination_countries": []any{"FR"},
				"additional_travelers":  []any{map[string]any{"first_name": "Charles", "middle_name": "B", "last_name": "Babbage"}},
				"coverage_type":         "BASIC",
			},
		}, func(body string) sent { return h.basic("POST", "/v1/quote/travel", body) }
	}},
	{"POST", "/v1/quote/gap-medical", func(h *sandboxHarness) (map[string]any, func(string) sent) {
		return map[string]any{
				"customer":          map[string]any{"email_address": "ada@example.com", "first_name": "Ada"},
				"policy_attributes": map[string]any{"coverage_start_date": "2027-04-01"},
				"currency":          "USD",
			}, func(body string) sent {
				return h.clientID("POST", "/v1/quote/gap-medical", body)
			}
	}},
	{"POST", "/v1/purchase/gap-medical", func(h *sandboxHarness) (map[string]any, func(string) sent) {
		id, secret := h.gapMedicalQuote("ada@example.com"), h.customerSecret("ada@example.com")
		return map[string]any{"quote_id": id, "payment_method": map[string]any{"token": sandbox.TokenOK}},
			func(body string) sent { return h.bearer(secret, "POST", "/v1/purchase/gap-medical", body) }
	}},
	{"POST", "/v1/purchase/tuition", func(h *sandboxHarness) (map[string]any, func(string) sent) {
		return map[string]any{
			"customer": fullCustomer(), "metadata": map[string]any{"order": "o_7"}, "subscription": false,
			"quote_id": h.sandbox.NewTuitionQuote("ada@example.com"),
			"payment_method": map[string]any{
				"token": sandbox.TokenOK, "save_for_future_use": true,
				"card": map[string]any{"name": "Ada Lovelace", "number": sandbox.CardOK, "verification": "123",
					"month": "12", "year": "2030", "address_postal_code": "62701"},
				"bank_account": map[string]any{"currency": "USD", "account_owner_name": "Ada Lovelace",
					"routing_number": "110000000", "account_number": "000123456789", "account_type": "checking",
					"account_owner_type": "individual", "country": "US"},
			},
		}, func(body string) sent { return h.basic("POST", "/v1/purchase/tuition", body) }
	}},
	{"POST", "/v1/auth/customer/secret", func(h *sandboxHarness) (map[string]any, func(string) sent) {
		return map[string]any{"email_address": "ada@example.com"},
			func(body string) sent { return h.basic("POST", "/v1/auth/customer/secret", body) }
	}},
	{"POST", "/v1/partners/onboard", func(h *sandboxHarness) (map[string]any, func(string) sent) {
		return map[string]any{
			"entity_name": "Acme Travel", "administrative_email_address": "admin@acme.example",
			"billing_email_address": "billing@acme.example", "address": "2 Market St", "city": "Toronto",
			"state": "ON", "postal_code": "M5V 2T6", "travel_retailer": true, "country": "CA",
			"website": "https://acme.example",
			"bank_account": map[string]any{"ach_account_number": "000987654321", "ach_routing_number": "021000021",
				"ach_account_type": "CHECKING", "ach_account_name": "Acme", "eft_bank_code": "001"},
		}, func(body string) sent { return h.basic("POST", "/v1/partners/onboard", body) }
	}},
	{"POST", "/v1/events", func(h *sandboxHarness) (map[string]any, func(string) sent) {
		return map[string]any{
			"event_name": "Partner Summit", "event_start_date": "2027-06-01", "event_end_date": "2027-06-03",
			"event_street": "3 Harbour Rd", "event_city": "Chicago", "event_state": "IL",
			"event_postal_code": "60601", "event_country": "US",
		}, func(body string) sent { return h.basic("POST", "/v1/events", body) }
	}},
}

// variation is a body derived from a valid one. unknown, when set, is the dotted path
// of the field the variation adds that the schema does not name.
type variation struct {
	name    string
	apply   func(body map[string]any)
	unknown string
}

// variations walks schema beside the valid body and derives the variations at path.
func variations(schema *openapi3.Schema, body map[string]any, path []string) []variation {
	var out []variation
	at := func(name string) []string { return append(slices.Clone(path), name) }
	for _, name := range schema.Required {
		out = append(out, variation{"missing " + dotted(at(name)), func(b map[string]any) { delete(object(b, path), name) }, ""})
		if prop := schema.Properties[name]; prop != nil && prop.Value.Type.Is("string") {
			out = append(out, variation{"empty " + dotted(at(name)), func(b map[string]any) { object(b, path)[name] = "" }, ""})
		}
	}
	names := slices.Sorted(maps.Keys(schema.Properties))
	if len(names) == 0 && len(path) == 0 { // a body whose fields are not shown: misspell one the body has
		names = slices.Sorted(maps.Keys(body))
	} // a free-form object within a body (metadata) has no field to misspell
	if len(names) > 0 {
		wrong := misspell(names[0])
		out = append(out, variation{"misspelt " + dotted(at(wrong)), func(b map[string]any) {
			o := object(b, path)
			o[wrong] = o[names[0]]
		}, dotted(at(wrong))})
	}
	for _, name := range slices.Sorted(maps.Keys(schema.Properties)) {
		prop, value := schema.Properties[name].Value, body[name]
		if value == nil {
			continue
		}
		if wrong, ok := wrongType(prop); ok {
			out = append(out, variation{"wrong type " + dotted(at(name)), func(b map[string]any) { object(b, path)[name] = wrong }, ""})
		}
		switch prop.Format {
		case "date":
			out = append(out, variation{"bad date " + dotted(at(name)), func(b map[string]any) { object(b, path)[name] = "06/01/2027" }, ""})
		case "email":
			out = append(out, variation{"non-email " + dotted(at(name)), func(b map[string]any) { object(b, path)[name] = "ada.example.com" }, ""})
		}
		switch v := value.(type) {
		case map[string]any:
			out = append(out, variations(prop, v, at(name))...)
		case []any:
			if item, ok := firstObject(v); ok && prop.Items != nil {
				out = append(out, variations(prop.Items.Value, item, at(name+"[0]"))...)
			}
		}
	}
	return out
}

// wrongType is a value of another JSON type than the property's.
func wrongType(prop *openapi3.Schema) (any, bool) {
	switch {
	case prop.Type.Is("string"):
		return 42, true
	case prop.Type.Is("number"), prop.Type.Is("integer"):
		return "42", true
	case prop.Type.Is("boolean"):
		return "true", true
	case prop.Type.Is("object"), prop.Type.Is("array"):
		return "x", true
	}
	return nil, false
}

// misspell drops one letter of a doubled pair ("currency" -> "curency"), or else the
// second letter ("customer" -> "cstomer").
func misspell(name string) string {
	for i := 1; i < len(name); i++ {
		if name[i] == name[i-1] {
			return name[:i] + name[i+1:]
		}
	}
	return name[:1] + name[2:]
}

// object finds the object at path in b; "name[0]" is the first item of an array.
func object(b map[string]any, path []string) map[string]any {
	var cur any = b
	for _, step := range path {
		name, indexed := strings.CutSuffix(step, "[0]")
		cur = cur.(map[string]any)[name]
		if indexed {
			cur = cur.([]any)[0]
		}
	}
	return cur.(map[string]any)
}

func firstObject(items []any) (map[string]any, bool) {
	if len(items) == 0 {
		return nil, false
	}
	item, ok := items[0].(map[string]any)
	return item, ok
}

func dotted(path []string) string { return strings.Join(path, ".") }

// namesEveryField fails unless body names every property schema names, however deep.
func namesEveryField(t *testing.T, schema *openapi3.Schema, body map[string]any, path []string) {
	t.Helper()
	for name, prop := range schema.Properties {
		value, ok := body[name]
		if !assert.True(t, ok, "the valid body lacks %s: derive the variations from every field", dotted(append(slices.Clone(path), name))) {
			continue
		}
		switch v := value.(type) {
		case map[string]any:
			namesEveryField(t, prop.Value, v, append(slices.Clone(path), name))
		case []any:
			if item, ok := firstObject(v); ok && prop.Value.Items != nil {
				namesEveryField(t, prop.Value.Items.Value, item, append(slices.Clone(path), name+"[0]"))
			}
		}
	}
}

// requestSchema is the JSON schema of an operation's request body.
func requestSchema(t *testing.T, c *contracttest.Contract, method, path string) *openapi3.Schema {
	t.Helper()
	op := c.Doc.Paths.Find(path).GetOperation(method)
	require.NotNil(t, op.RequestBody, "%s %s has a request body", method, path)
	media := op.RequestBody.Value.Content.Get("application/json")
	require.NotNil(t, media, "%s %s takes JSON", method, path)
	return media.Schema.Value
}

func TestOneVerdictOnRequestBodies(t *testing.T) {
	c := contracttest.Interface(t)
	covered := map[string]bool{}
	for _, op := range verdictOperations {
		schema := requestSchema(t, c, op.method, op.path)
		covered[op.method+" "+op.path] = true
		sample, _ := op.valid(newSandboxHarness(t))
		namesEveryField(t, schema, sample, nil)
		cases := append([]variation{{"valid", func(map[string]any) {}, ""}}, variations(schema, sample, nil)...)
		for _, v := range cases {
			t.Run(op.method+" "+op.path+"/"+v.name, func(t *testing.T) {
				h := newSandboxHarness(t)
				body, send := op.valid(h)
				v.apply(body)
				encoded, err := json.Marshal(body)
				require.NoError(t, err)
				req := send(string(encoded))
				checkOneVerdict(t, h, req, v.unknown)
			})
		}
	}
	for _, op := range c.Operations() {
		if c.Doc.Paths.Find(op.Path).GetOperation(op.Method).RequestBody != nil {
			assert.True(t, covered[op.Method+" "+op.Path], "%s %s takes a body: add it to verdictOperations", op.Method, op.Path)
		}
	}
}

// checkOneVerdict sends req to the sandbox and compares its verdict with the
// document's. unknown names a field the body adds that the schema does not.
func checkOneVerdict(t *testing.T, h *sandboxHarness, req sent, unknown string) {
	t.Helper()
	in, docErr := h.contract.CheckRequest(req)
	require.NotNil(t, in)
	rec := httptest.NewRecorder()
	h.sandbox.ServeHTTP(rec, req.Request())
	answer := rec.Body.String()
	assert.NoError(t, h.contract.CheckResponse(in, rec.Code, rec.Header(), rec.Body.Bytes()), "the sandbox's answer %d: %s", rec.Code, answer)

	docAccepts := docErr == nil
	require.True(t, rec.Code < 300 || rec.Code == http.StatusBadRequest, "the sandbox answered %d, neither a success nor a 400: %s", rec.Code, answer)
	sandboxAccepts := rec.Code < 300
	require.Equal(t, docAccepts, sandboxAccepts, "%s\nthe document says: %v\nthe sandbox answered %d: %s",
		req.Body, verdict(docErr), rec.Code, answer)

	if unknown == "" {
		assert.Empty(t, rec.Header().Get(sandbox.WarningHeader), "a body the schema names whole has no warning")
		return
	}
	name := unknown[strings.LastIndex(unknown, ".")+1:]
	if !sandboxAccepts {
		assert.Contains(t, answer, name, "the 400 names the field the interface does not")
		return
	}
	warning := rec.Header().Get(sandbox.WarningHeader)
	assert.Contains(t, warning, unknown, "an unknown field accepted is named in %s", sandbox.WarningHeader)
	logged := h.sandbox.Requests()
	require.NotEmpty(t, logged)
	assert.Equal(t, warning, logged[len(logged)-1].Warning, "and in the request log")
}

func verdict(err error) string {
	if err == nil {
		return "accepted"
	}
	return fmt.Sprintf("refused: %v", err)
}

// TestOpenBodiesAreNotRefused: where the interface leaves a body's other fields "not
// shown", the sandbox accepts them, with a warning, as the document does.
func TestOpenBodiesAreNotRefused(t *testing.T) {
	h := newSandboxHarness(t)
	id, secret := h.gapMedicalQuote("ada@example.com"), h.customerSecret("ada@example.com")
	req := h.bearer(secret, "POST", "/v1/purchase/gap-medical",
		`{"quote_id": "`+id+`", "payment_method": {"token": "tok_ok", "card": {"number": "`+sandbox.CardOK+`"}}, "note": "gift"}`)
	checkOneVerdict(t, h, req, "payment_method.card")
	warning := h.sandbox.Requests()[len(h.sandbox.Requests())-1].Warning
	assert.Contains(t, warning, "note")
}

// TestUnreadFieldsAreNotRead: a field an open body carries that the document does not
// name is not read, even where encoding/json would match it case-insensitively.
func TestUnreadFieldsAreNotRead(t *testing.T) {
	h := newSandboxHarness(t)
	req := h.clientID("POST", "/v1/quote/gap-medical",
		`{"customer": {"email_address": "ada@example.com"}, "policy_attributes": {"coverage_start_date": "2027-04-01"}, "Currency": "EUR"}`)
	checkOneVerdict(t, h, req, "Currency")
	quotes := h.sandbox.Quotes()
	require.Len(t, quotes, 1)
	assert.Equal(t, "USD", quotes[0].Currency, "the unread Currency was read")
}

// TestNoCustomerFieldIsRequiredInATravelQuote: the interface shows no required flag of
// the customer's fields, so the document requires none, and the sandbox, which
// requires of a travel quote only the trip it prices, takes one without any of them,
// or without the customer.
func TestNoCustomerFieldIsRequiredInATravelQuote(t *testing.T) {
	customer := contracttest.Interface(t).Doc.Components.Schemas["Customer"].Value
	require.Empty(t, customer.Required, "the document invents no required field of the customer")
	travel := verdictOperations[0]
	require.Equal(t, "/v1/quote/travel", travel.path)
	for _, name := range append(slices.Sorted(maps.Keys(customer.Properties)), "") {
		label := "without customer." + name
		if name == "" {
			label = "without the customer"
		}
		t.Run(label, func(t *testing.T) {
			h := newSandboxHarness(t)
			body, send := travel.valid(h)
			if name == "" {
				delete(body, "customer")
			} else {
				delete(body["customer"].(map[string]any), name)
			}
			encoded, err := json.Marshal(body)
			require.NoError(t, err)
			status, answer := h.exchange(send(string(encoded)), allowed)
			assert.Equal(t, http.StatusOK, status, "the quote is updated: %v", answer)
		})
	}
}
