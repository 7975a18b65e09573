package sandbox_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/contract/internal/contracttest"
)

// contentTypes are the Content-Type headers a body may come with, and whether the
// documents (application/json only) take it.
var contentTypes = []struct {
	header string // "" sends none
	json   bool
}{
	{"application/json", true},
	{"application/json; charset=utf-8", true},
	{"Application/JSON;charset=UTF-8", true},
	{"", false},
	{"application/x-www-form-urlencoded", false}, // what curl -d sends
	{"text/plain; charset=utf-8", false},
	{"application/vnd.api+json", false},
	{"not a media type", false},
}

// controlBodies are valid bodies of the controls that take one.
var controlBodies = []struct{ path, body string }{
	{"/sandbox/tuition-quotes", `{"customer_email_address": "ada@example.com"}`},
	{"/sandbox/mark-purchased", `{"quote_id": "q_set_up"}`}, // replaced by a quote of the harness
	{"/sandbox/faults", `{"route": "GET /v1/products", "status": 503, "times": 1}`},
	{"/sandbox/clock", `{"advance": "16m"}`},
}

// A body is JSON sent as application/json, whatever its parameters, on every operation
// of the interface and every control that takes one: anything else, or no
// Content-Type, is a 415 that names application/json, as the documents say.
func TestABodyIsTakenAsJSONOnly(t *testing.T) {
	for _, op := range verdictOperations {
		for _, ct := range contentTypes {
			t.Run(op.method+" "+op.path+"/"+ct.header, func(t *testing.T) {
				h := newSandboxHarness(t)
				body, send := op.valid(h)
				encoded, err := json.Marshal(body)
				require.NoError(t, err)
				checkContentType(t, h, withContentType(send(string(encoded)), ct.header), ct.json)
			})
		}
	}
	for _, control := range controlBodies {
		for _, ct := range contentTypes {
			t.Run("POST "+control.path+"/"+ct.header, func(t *testing.T) {
				h := newControlsHarness(t)
				body := control.body
				if control.path == "/sandbox/mark-purchased" {
					body = `{"quote_id": "` + h.sandbox.NewTuitionQuote("ada@example.com") + `"}`
				}
				checkContentType(t, h, withContentType(h.basic("POST", control.path, body), ct.header), ct.json)
			})
		}
	}
}

func withContentType(req sent, header string) sent {
	req.Header.Del("Content-Type")
	if header != "" {
		req.Header.Set("Content-Type", header)
	}
	return req
}

// checkContentType sends req and requires the document and the sandbox to take it
// when isJSON, and both to refuse it otherwise, the sandbox with a 415 the document
// allows that names the type wanted.
func checkContentType(t *testing.T, h *sandboxHarness, req sent, isJSON bool) {
	t.Helper()
	in, docErr := h.contract.CheckRequest(req)
	require.NotNil(t, in)
	status, header, body := h.serve(req)
	assert.NoError(t, h.contract.CheckResponse(in, status, header, body), "the sandbox's answer %d: %s", status, body)
	if isJSON {
		assert.NoError(t, docErr, "%s takes it", h.contract.Name)
		assert.Less(t, status, 300, "the sandbox takes it: %s", body)
		return
	}
	assert.ErrorContains(t, docErr, "Content-Type", "%s refuses it for its Content-Type", h.contract.Name)
	require.Equal(t, http.StatusUnsupportedMediaType, status, "%s", body)
	var answer struct {
		ErrorCode string `json:"error_code"`
		Message   string `json:"message"`
		Status    int    `json:"status"`
	}
	require.NoError(t, json.Unmarshal(body, &answer), "the sandbox's error body")
	assert.Equal(t, "unsupported_media_type", answer.ErrorCode)
	assert.Equal(t, http.StatusUnsupportedMediaType, answer.Status)
	assert.Contains(t, answer.Message, "Content-Type: application/json", "the message names the type wanted")
	assert.Equal(t, "application/json", header.Get("Content-Type"), "the error itself is JSON")
}

// Requests without a body are not asked for a Content-Type, whatever they send; an
// empty body where one is needed stays a 400 for the missing body.
func TestRequestsWithoutABodyNeedNoContentType(t *testing.T) {
	tests := []struct {
		name     string
		contract func(t testing.TB) *contracttest.Contract
		method   string
		path     string
		header   string
		status   int
	}{
		{"products", contracttest.Interface, "GET", "/v1/products", "", http.StatusOK},
		{"products, said to be a form", contracttest.Interface, "GET", "/v1/products", "application/x-www-form-urlencoded", http.StatusOK},
		{"credentials", contracttest.Controls, "POST", "/sandbox/credentials", "", http.StatusCreated},
		{"reset, said to be text", contracttest.Controls, "POST", "/sandbox/reset", "text/plain", http.StatusOK},
		{"requests", contracttest.Controls, "GET", "/sandbox/requests", "", http.StatusOK},
		{"a travel quote with no body at all", contracttest.Interface, "POST", "/v1/quote/travel", "", http.StatusBadRequest},
		{"a clock with no body at all", contracttest.Controls, "POST", "/sandbox/clock", "", http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newSandboxHarness(t)
			h.contract = tt.contract(t)
			req := withContentType(h.basic(tt.method, tt.path, ""), tt.header)
			in, _ := h.contract.CheckRequest(req)
			require.NotNil(t, in)
			status, header, body := h.serve(req)
			assert.Equal(t, tt.status, status, "%s", body)
			assert.NoError(t, h.contract.CheckResponse(in, status, header, body))
		})
	}
}
