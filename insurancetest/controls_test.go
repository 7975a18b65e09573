package insurancetest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/insurancetest"
)

// The sandbox, driven with net/http alone as code in another language would: the
// whole flow, tuition included, through the HTTP controls.
func TestHTTPOnlyWalkOfTheWholeFlow(t *testing.T) {
	srv := newSandbox(t)
	call := func(method, path, auth, body string, wantStatus int) string {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		switch {
		case auth == "basic":
			req.SetBasicAuth(srv.ClientID, srv.ClientSecret)
		case auth == "client-id":
			req.Header.Set("x-api-client-id", srv.ClientID)
		case strings.HasPrefix(auth, "bearer "):
			req.Header.Set("Authorization", "Bearer "+strings.TrimPrefix(auth, "bearer "))
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		answer, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, wantStatus, resp.StatusCode, "%s %s: %s", method, path, answer)
		return string(answer)
	}
	field := func(body, name string) string {
		t.Helper()
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(body), &m))
		v, _ := m[name].(string)
		require.NotEmpty(t, v, "%s in %s", name, body)
		return v
	}

	call("GET", "/v1/products", "basic", "", 200)
	travel := `{"customer":{"email_address":"ada@example.com"},"policy_attributes":{"trip_cost":1000,"trip_start_date":"2027-03-01","trip_end_date":"2027-03-05"}}`
	travelID := field(call("POST", "/v1/quote/travel", "client-id", travel, 201), "quote_id")
	call("POST", "/v1/quote/travel", "basic", strings.Replace(travel, `{"customer"`, `{"quote_id":"`+travelID+`","customer"`, 1), 200)

	gapID := field(call("POST", "/v1/quote/gap-medical", "client-id", `{"customer":{"email_address":"ada@example.com"},"policy_attributes":{"coverage_start_date":"2027-04-01"}}`, 201), "quote_id")
	secret := field(call("POST", "/v1/auth/customer/secret", "basic", `{"email_address":"ada@example.com"}`, 201), "secret")
	call("POST", "/v1/purchase/gap-medical", "bearer "+secret, `{"quote_id":"`+gapID+`","payment_method":{"token":"tok_ok"}}`, 201)

	tuitionID := field(call("POST", "/sandbox/tuition-quotes", "basic", `{"customer_email_address":"ada@example.com"}`, 201), "quote_id")
	call("POST", "/v1/purchase/tuition", "basic", `{"quote_id":"`+tuitionID+`","payment_method":{"card":{"number":"`+insurancetest.CardDeclined+`"}}}`, 402)
	call("POST", "/v1/purchase/tuition", "basic", `{"quote_id":"`+tuitionID+`","payment_method":{"card":{"number":"`+insurancetest.CardOK+`"}}}`, 201)

	call("POST", "/v1/partners/onboard", "basic", `{"entity_name":"Acme","administrative_email_address":"ops@acme.example","country":"US","website":"https://acme.example"}`, 201)
	call("POST", "/v1/events", "basic", `{"event_name":"Summit","event_start_date":"2027-06-01","event_end_date":"2027-06-02"}`, 201)

	policies := call("GET", "/sandbox/policies", "basic", "", 200)
	assert.Contains(t, policies, `"quote_id":"`+tuitionID+`"`)
	assert.Contains(t, policies, `"quote_id":"`+gapID+`"`)
	requests := call("GET", "/sandbox/requests", "basic", "", 200)
	assert.Contains(t, requests, `************0002`, "bodies masked")
	assert.NotContains(t, requests, insurancetest.CardOK)
	assert.NotContains(t, requests, secret)
	assert.Contains(t, call("GET", "/sandbox/partners", "basic", "", 200), `"entity_name":"Acme"`)
	assert.Contains(t, call("GET", "/sandbox/events", "basic", "", 200), `"event_name":"Summit"`)
	assert.Contains(t, call("GET", "/sandbox/quotes", "basic", "", 200), `"quote_id":"`+travelID+`"`)

	call("POST", "/sandbox/faults", "basic", `{"route":"GET /v1/products","times":1,"status":503,"header":{"Retry-After":"1"}}`, 201)
	call("GET", "/v1/products", "basic", "", 503)
	call("GET", "/v1/products", "basic", "", 200)

	secret = field(call("POST", "/v1/auth/customer/secret", "basic", `{"email_address":"ada@example.com"}`, 201), "secret")
	call("POST", "/sandbox/clock", "basic", `{"advance":"16m"}`, 200)
	gapID = field(call("POST", "/v1/quote/gap-medical", "client-id", `{"customer":{"email_address":"ada@example.com"},"policy_attributes":{"coverage_start_date":"2027-04-01"}}`, 201), "quote_id")
	assert.Contains(t, call("POST", "/v1/purchase/gap-medical", "bearer "+secret, `{"quote_id":"`+gapID+`","payment_method":{"token":"tok_ok"}}`, 401), "secret_expired")

	call("POST", "/sandbox/reset", "basic", "", 200)
	assert.JSONEq(t, `{"policies":[]}`, call("GET", "/sandbox/policies", "basic", "", 200))
}

func TestHTTPControlsAreGuarded(t *testing.T) {
	srv := newSandbox(t, insurancetest.WithAllowedOrigins("http://127.0.0.1:8090"))
	do := func(method, path, body string, basic bool, header ...string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		if basic {
			req.SetBasicAuth(srv.ClientID, srv.ClientSecret)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	resp, _ := do("GET", "/sandbox/requests", "", false)
	assert.Equal(t, 401, resp.StatusCode, "Basic auth with the partner credentials")

	resp, body := do("POST", "/sandbox/faults", `{"route":"GET /v1/products","satus":503}`, true)
	assert.Equal(t, 400, resp.StatusCode, "a misspelt field is refused")
	assert.Contains(t, body, `"error_code":"unknown_parameter"`)
	assert.Contains(t, body, "unknown parameter satus")

	resp, body = do("POST", "/sandbox/faults", `{"route":"GET /v1/nope","status":503}`, true)
	assert.Equal(t, 400, resp.StatusCode)
	assert.Contains(t, body, "invalid_fault")

	resp, _ = do("OPTIONS", "/sandbox/requests", "", false, "Origin", "http://127.0.0.1:8090", "Access-Control-Request-Method", "GET")
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"), "never CORS, even for an allowed origin")

	resp, body = do("GET", "/sandbox/nope", "", true)
	assert.Equal(t, 404, resp.StatusCode)
	assert.Contains(t, body, "POST /sandbox/faults")

	resp, body = do("GET", "/sandbox/openapi.yaml", "", false)
	assert.Equal(t, 200, resp.StatusCode)
	assert.True(t, strings.HasPrefix(body, "openapi: 3.1"), "the interface's OpenAPI document")
	resp, body = do("GET", "/sandbox/sandbox.yaml", "", false)
	assert.Equal(t, 200, resp.StatusCode)
	assert.Contains(t, body, "/sandbox/credentials:", "the controls' OpenAPI document")

	assert.Empty(t, srv.Requests(), "controls are not logged as requests of the interface")
}
