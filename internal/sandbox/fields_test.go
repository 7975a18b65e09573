package sandbox_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A misspelt field is one mistake with one answer, on the interface and on the
// sandbox's controls alike: 400 unknown_parameter, the field named, "(misspelt?)".
// Names match exactly, as the documents do: "Advance" is not "advance".
func TestAMisspeltFieldIsOneMistakeEverywhere(t *testing.T) {
	tests := []struct {
		name     string
		controls bool // a control, checked against api/sandbox.yaml
		request  func(h *sandboxHarness) sent
		field    string
	}{
		{"travel quote", false, func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/quote/travel", `{"curency": "USD"}`)
		}, "curency"},
		{"travel quote, in the customer", false, func(h *sandboxHarness) sent {
			return h.basic("POST", "/v1/quote/travel", `{"customer": {"emial_address": "ada@example.com"}}`)
		}, "customer.emial_address"},
		{"clock", true, func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/clock", `{"advnce": "16m"}`)
		}, "advnce"},
		{"clock, in another case", true, func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/clock", `{"Advance": "16m"}`)
		}, "Advance"},
		{"tuition quote", true, func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/tuition-quotes", `{"customer_email": "ada@example.com"}`)
		}, "customer_email"},
		{"mark purchased", true, func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/mark-purchased", `{"quoteid": "`+h.sandbox.NewTuitionQuote("ada@example.com")+`"}`)
		}, "quoteid"},
		{"fault", true, func(h *sandboxHarness) sent {
			return h.basic("POST", "/sandbox/faults", `{"route": "GET /v1/products", "satus": 503}`)
		}, "satus"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newSandboxHarness(t)
			if tt.controls {
				h = newControlsHarness(t)
			}
			req := tt.request(h)
			status, answer := h.exchange(req, refusedSchema)
			require.Equal(t, http.StatusBadRequest, status, "answer: %v", answer)
			assert.Equal(t, "unknown_parameter", answer["error_code"])
			assert.Contains(t, answer["message"], "unknown parameter "+tt.field+":")
			assert.Contains(t, answer["message"], "(misspelt?)")
		})
	}
}

// A control refused for a misspelt field does nothing: the clock stays where it was.
func TestAMisspeltControlFieldChangesNothing(t *testing.T) {
	h := newControlsHarness(t)
	before := h.sandbox.Now()
	status, _ := h.exchange(h.basic("POST", "/sandbox/clock", `{"advnce": "16m", "advance": "1h"}`), refusedSchema)
	require.Equal(t, http.StatusBadRequest, status)
	assert.Equal(t, before, h.sandbox.Now(), "refused, and not moved")

	status, _ = h.exchange(h.basic("POST", "/sandbox/clock", `{"advance": "1h"}`), allowed)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, before.Add(time.Hour), h.sandbox.Now())
}
