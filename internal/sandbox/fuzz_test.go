package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

var fuzzRoutes = []struct{ method, path string }{
	{"GET", "/v1/products"},
	{"POST", "/v1/quote/travel"},
	{"POST", "/v1/quote/gap-medical"},
	{"POST", "/v1/purchase/tuition"},
	{"POST", "/v1/purchase/gap-medical"},
	{"POST", "/v1/auth/customer/secret"},
	{"POST", "/v1/partners/onboard"},
	{"POST", "/v1/events"},
}

// FuzzSandboxRequest sends any body to every endpoint with every auth scheme: the
// sandbox never panics, never answers 500, and always answers JSON with a request id.
func FuzzSandboxRequest(f *testing.F) {
	f.Add(uint8(1), uint8(0), []byte(`{"customer":{"email_address":"a@b.example"},"policy_attributes":{"trip_cost":100,"trip_start_date":"2027-01-01","trip_end_date":"2027-01-02"}}`))
	f.Add(uint8(3), uint8(0), []byte(`{"quote_id":"q_x","payment_method":{"card":{"number":"4242424242424242"}}}`))
	f.Add(uint8(4), uint8(2), []byte(`{"quote_id":"q_x","payment_method":{"token":"tok_ok"}}`))
	f.Add(uint8(6), uint8(0), []byte(`{"entity_name":"E","administrative_email_address":"a@b.example","country":"CA","website":"w","travel_retailer":true}`))
	f.Add(uint8(7), uint8(0), []byte(`{"event_name":"x","event_start_date":"2027-01-02","event_end_date":"2027-01-01"}`))
	f.Add(uint8(2), uint8(1), []byte(`{"policy_attributes":{"coverage_start_date":"2027-01-01","x":[1,{"y":null}]}}`))
	f.Add(uint8(5), uint8(0), []byte(`{"email_address":5}`))
	f.Add(uint8(1), uint8(3), []byte(`not json`))

	sb := New(Config{ClientID: "ci", ClientSecret: "cs"})
	rec := httptest.NewRecorder()
	sb.ServeHTTP(rec, authed(httptest.NewRequest("POST", "/v1/auth/customer/secret", bytes.NewReader([]byte(`{"email_address":"a@b.example"}`))), 0, ""))
	var minted struct{ Secret string }
	if err := json.Unmarshal(rec.Body.Bytes(), &minted); err != nil {
		f.Fatal(err)
	}

	f.Fuzz(func(t *testing.T, route, scheme uint8, body []byte) {
		r := fuzzRoutes[int(route)%len(fuzzRoutes)]
		req := authed(httptest.NewRequest(r.method, r.path, bytes.NewReader(body)), scheme, minted.Secret)
		rec := httptest.NewRecorder()
		sb.ServeHTTP(rec, req)

		if rec.Code >= 500 {
			t.Fatalf("%s %s answered %d: %s", r.method, r.path, rec.Code, rec.Body)
		}
		if rec.Header().Get("Content-Type") != "application/json" || rec.Header().Get("X-Request-Id") == "" {
			t.Fatalf("answer without JSON content type or request id: %v", rec.Header())
		}
		if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("answer is not JSON: %q", rec.Body)
		}
	})
}

// authed sets one of the auth schemes: 0 Basic, 1 client id, 2 Bearer, 3 none.
func authed(r *http.Request, scheme uint8, secret string) *http.Request {
	switch scheme % 4 {
	case 0:
		r.SetBasicAuth("ci", "cs")
	case 1:
		r.Header.Set("x-api-client-id", "ci")
	case 2:
		r.Header.Set("Authorization", "Bearer "+secret)
	}
	return r
}
