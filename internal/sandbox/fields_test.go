package sandbox_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

// A misspelt field is one mistake with one answer, on the interface and on the
// sandbox's controls alike: 400 unknown_parameter, the field named, "(misspelt?)".
// Names match exactly, as the documents do: "Advance" is not "advance". (contract/sandbox
// checks that the documents refuse each of these bodies and allow each answer.)
func TestAMisspeltFieldIsOneMistakeEverywhere(t *testing.T) {
	tests := []struct {
		name  string
		path  string
		body  func(s *sandbox.Sandbox) string
		field string
	}{
		{"travel quote", "/v1/quote/travel", func(*sandbox.Sandbox) string { return `{"curency": "USD"}` }, "curency"},
		{"travel quote, in the customer", "/v1/quote/travel", func(*sandbox.Sandbox) string {
			return `{"customer": {"emial_address": "ada@example.com"}}`
		}, "customer.emial_address"},
		{"clock", "/sandbox/clock", func(*sandbox.Sandbox) string { return `{"advnce": "16m"}` }, "advnce"},
		{"clock, in another case", "/sandbox/clock", func(*sandbox.Sandbox) string { return `{"Advance": "16m"}` }, "Advance"},
		{"tuition quote", "/sandbox/tuition-quotes", func(*sandbox.Sandbox) string { return `{"customer_email": "ada@example.com"}` }, "customer_email"},
		{"mark purchased", "/sandbox/mark-purchased", func(s *sandbox.Sandbox) string {
			return `{"quoteid": "` + s.NewTuitionQuote("ada@example.com") + `"}`
		}, "quoteid"},
		{"fault", "/sandbox/faults", func(*sandbox.Sandbox) string { return `{"route": "GET /v1/products", "satus": 503}` }, "satus"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox()
			rec := serveBasic(s, "POST", tt.path, tt.body(s))
			require.Equal(t, http.StatusBadRequest, rec.Code, "answer: %s", rec.Body)
			var answer struct {
				ErrorCode string `json:"error_code"`
				Message   string `json:"message"`
			}
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &answer), "answer: %s", rec.Body)
			assert.Equal(t, "unknown_parameter", answer.ErrorCode)
			assert.Contains(t, answer.Message, "unknown parameter "+tt.field+":")
			assert.Contains(t, answer.Message, "(misspelt?)")
		})
	}
}

// A control refused for a misspelt field does nothing: the clock stays where it was.
func TestAMisspeltControlFieldChangesNothing(t *testing.T) {
	s := newSandbox()
	before := s.Now()
	rec := serveBasic(s, "POST", "/sandbox/clock", `{"advnce": "16m", "advance": "1h"}`)
	require.Equal(t, http.StatusBadRequest, rec.Code, "answer: %s", rec.Body)
	assert.Equal(t, before, s.Now(), "refused, and not moved")

	rec = serveBasic(s, "POST", "/sandbox/clock", `{"advance": "1h"}`)
	require.Equal(t, http.StatusOK, rec.Code, "answer: %s", rec.Body)
	assert.Equal(t, before.Add(time.Hour), s.Now())
}
