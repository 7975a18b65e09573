package insurancetest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

// TestEventsErrorBody: every events error, whatever its cause, carries
// {error, error_code, message, reason, status}.
func TestEventsErrorBody(t *testing.T) {
	srv := newSandbox(t)
	wrong, err := insurance.NewClient(srv.URL, insurance.WithCredentials(srv.ClientID, "wrong"))
	require.NoError(t, err)
	_, unauthorized := wrong.CreateEvent(ctx, &insurance.CreateEventRequest{EventName: "x"})
	_, missingName := srv.Client().CreateEvent(ctx, &insurance.CreateEventRequest{})
	_, badJSON := srv.Client().Do(ctx, http.MethodPost, "/v1/events", insurance.AuthBasic, json.RawMessage(`{"event_name": 5}`), nil)

	for _, err := range []error{unauthorized, missingName, badJSON} {
		e := apiError(t, err)
		var body map[string]any
		require.NoError(t, json.Unmarshal(e.Body, &body))
		assert.ElementsMatch(t, []string{"error", "error_code", "message", "reason", "status"}, keys(body))
		assert.EqualValues(t, e.StatusCode, body["status"])
		assert.NotEmpty(t, e.Code)
		assert.NotEmpty(t, e.Message)
		assert.NotEmpty(t, e.Reason)
	}
	assert.Equal(t, "parameter event_name must be a string, not number", apiError(t, badJSON).Message)
}

// TestMalformedBodies: bad input is a 400 (a body not sent as JSON, a 415) with a
// clear message, never a panic or 500, and every answer is JSON with a request id.
func TestMalformedBodies(t *testing.T) {
	srv := newSandbox(t)
	const travel = `{"customer":{"email_address":"ada@example.com"},"policy_attributes":{"trip_cost":1000,"trip_start_date":"2027-03-01","trip_end_date":"2027-03-05"}}`
	tests := []struct {
		name, path, body, want string
		status                 int
		contentType            string // default application/json
	}{
		{"not JSON", "/v1/quote/travel", `{"customer":`, "request body is empty or cut short", 400, ""},
		{"syntax error", "/v1/quote/travel", `{"customer" 1}`, "malformed JSON at byte", 400, ""},
		{"wrong type", "/v1/quote/travel", `{"policy_attributes":{"trip_cost":"cheap"}}`, "parameter policy_attributes.trip_cost must be a number, not string", 400, ""},
		{"bad date", "/v1/quote/travel", `{"customer":{"email_address":"ada@example.com"},"policy_attributes":{"trip_start_date":"01/03/2027"}}`, `policy_attributes.trip_start_date must be a date YYYY-MM-DD, not "01/03/2027"`, 400, ""},
		{"empty body", "/v1/purchase/tuition", ``, "request body is empty", 400, ""},
		{"array", "/v1/events", `[1,2]`, "must be a object", 400, ""},
		{"trailing data", "/v1/events", `{} {}`, "trailing data", 400, ""},
		{"over 1 MiB", "/v1/events", `{"event_name":"` + strings.Repeat("x", 2<<20) + `"}`, "request body exceeds 1048576 bytes", 400, ""},
		{"unknown path", "/v1/quote/pet", `{}`, "no endpoint /v1/quote/pet", 404, ""},
		{"sent as a form (curl -d)", "/v1/quote/travel", travel, "must be JSON sent with Content-Type: application/json", 415, "application/x-www-form-urlencoded"},
		{"sent with no Content-Type", "/v1/quote/travel", travel, "must be JSON sent with Content-Type: application/json", 415, "none"},
		{"sent as JSON in UTF-8", "/v1/quote/travel", travel, "", 201, "application/json; charset=utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, srv.URL+tt.path, strings.NewReader(tt.body))
			require.NoError(t, err)
			req.SetBasicAuth(srv.ClientID, srv.ClientSecret)
			switch tt.contentType {
			case "":
				req.Header.Set("Content-Type", "application/json")
			case "none":
			default:
				req.Header.Set("Content-Type", tt.contentType)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)

			assert.Equal(t, tt.status, resp.StatusCode, string(body))
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			assert.Regexp(t, `^req_[0-9a-f]{16}$`, resp.Header.Get("X-Request-Id"))
			var e struct{ Message string }
			require.NoError(t, json.Unmarshal(body, &e))
			assert.Contains(t, e.Message, tt.want)
		})
	}
}
