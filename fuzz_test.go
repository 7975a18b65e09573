package insurance_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// FuzzErrorMapping sends the client any status, body and headers, on an idempotent
// and a record-creating call, and checks the result is one of the promised types.
func FuzzErrorMapping(f *testing.F) {
	f.Add(422, []byte(`{"error":"x","error_code":"quote_unavailable","message":"gone","reason":"r","status":422}`), "application/json", "req_1")
	f.Add(400, []byte(`{"error":{"code":"c","message":"m"}}`), "application/json", "")
	f.Add(502, []byte("<html>bad gateway</html>"), "text/html", "req_2")
	f.Add(201, []byte(`{"quote_id":"q_1","policy_id":"p_1"}`), "application/json", "")
	f.Add(200, []byte(`{"quote_id":`), "application/json", "")
	f.Add(204, []byte{}, "", "")
	f.Add(503, []byte{0xff, 0xfe, 0x00}, "application/octet-stream", "\x00")

	f.Fuzz(func(t *testing.T, status int, body []byte, contentType, requestID string) {
		status = 200 + abs(status)%400 // 200..599: what a server can answer finally
		transport := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if r.Body != nil {
				_, _ = io.Copy(io.Discard, r.Body)
			}
			h := http.Header{}
			h.Set("Content-Type", contentType)
			h.Set("X-Request-Id", requestID)
			return &http.Response{
				StatusCode: status, Header: h, Request: r,
				Body: io.NopCloser(strings.NewReader(string(body))), ContentLength: int64(len(body)),
			}, nil
		})
		c, err := insurance.NewClient(wiretest.BaseURL, insurance.WithCredentials(wiretest.ClientID, wiretest.ClientSecret),
			insurance.WithHTTPClient(&http.Client{Transport: transport}), insurance.WithMaxRetries(0))
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		_, quoteErr := c.QuoteTravel(ctx, wiretest.FullTravelQuote())
		checkMapped(t, status, requestID, quoteErr, false)
		_, buyErr := c.PurchaseTuition(ctx, wiretest.FullTuitionPurchase())
		checkMapped(t, status, requestID, buyErr, true)
	})
}

func checkMapped(t *testing.T, status int, requestID string, err error, createsRecord bool) {
	t.Helper()
	if err == nil {
		if status > 299 {
			t.Fatalf("status %d gave no error", status)
		}
		return
	}
	if !strings.HasPrefix(err.Error(), "insurance: POST /v1/") {
		t.Fatalf("error text %q does not name method and path", err.Error())
	}
	if strings.Contains(err.Error(), wiretest.ClientSecret) || strings.Contains(err.Error(), wiretest.CardNumber) {
		t.Fatalf("error text leaks a secret: %q", err.Error())
	}
	var apiErr *insurance.APIError
	var reqErr *insurance.RequestError
	switch {
	case status > 299:
		if !errors.As(err, &apiErr) || apiErr.StatusCode != status {
			t.Fatalf("status %d: want *APIError with that status, got %T %v", status, err, err)
		}
		if apiErr.RequestID != strings.TrimSpace(requestID) && apiErr.RequestID != requestID {
			t.Fatalf("request id %q, want %q", apiErr.RequestID, requestID)
		}
		if errors.Is(err, insurance.ErrOutcomeUnknown) != (createsRecord && status >= 500) {
			t.Fatalf("status %d: ErrOutcomeUnknown is %v", status, errors.Is(err, insurance.ErrOutcomeUnknown))
		}
	default: // a 2xx that could not be decoded keeps its body
		if !errors.As(err, &reqErr) || reqErr.StatusCode != status {
			t.Fatalf("status %d: want *RequestError, got %T %v", status, err, err)
		}
		if errors.Is(err, insurance.ErrOutcomeUnknown) != createsRecord {
			t.Fatalf("undecodable %d: ErrOutcomeUnknown is %v", status, errors.Is(err, insurance.ErrOutcomeUnknown))
		}
	}
}

func abs(n int) int {
	if n < 0 {
		if n == -n { // math.MinInt
			return 0
		}
		return -n
	}
	return n
}

// FuzzDecodeResults decodes any body into every result type: no panic, and a body
// that decodes keeps decoding through Decode.
func FuzzDecodeResults(f *testing.F) {
	for _, name := range []string{"products_response.json", "quote_response.json", "policy_response.json",
		"customer_secret_response.json", "partner_response.json", "event_response.json"} {
		b, err := fixtureBytes(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`[{"id":"travel"}]`))
	f.Add([]byte(`{"data":[{"id":1}]}`))
	f.Add([]byte(`{"id":"not-a-uuid","event_start_date":"2027-02-30"}`))

	f.Fuzz(func(t *testing.T, body []byte) {
		results := []any{
			&insurance.ProductList{}, &insurance.Quote{}, &insurance.Policy{}, &insurance.CustomerSecret{},
			&insurance.Partner{}, &insurance.Event{}, &insurance.GapMedicalPolicyAttributes{},
		}
		for _, r := range results {
			if json.Unmarshal(body, r) != nil {
				continue
			}
			resp := insurance.Response{Raw: body}
			var anyValue any
			if err := resp.Decode(&anyValue); err != nil {
				t.Fatalf("%T decoded but the raw body does not: %v", r, err)
			}
		}
		list := &insurance.ProductList{Response: insurance.Response{Raw: body}}
		var products []map[string]any
		_ = list.DecodeProducts(&products)
	})
}

// FuzzParseDate: what parses prints back the same, and survives JSON.
func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2027-03-01", "0000-01-01", "9999-12-31", "2027-02-29", "2024-02-29", "2027-3-1", "", "2027-03-01T00:00:00Z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := insurance.ParseDate(s)
		if err != nil {
			if !d.IsZero() {
				t.Fatalf("ParseDate(%q) failed but returned %v", s, d)
			}
			return
		}
		if d.String() != s {
			t.Fatalf("ParseDate(%q).String() = %q", s, d.String())
		}
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatalf("marshal %v: %v", d, err)
		}
		var back insurance.Date
		if err := json.Unmarshal(b, &back); err != nil || back != d {
			t.Fatalf("JSON round trip of %v: %v, %v", d, back, err)
		}
	})
}

func fixtureBytes(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("testdata", "wire", name))
}
