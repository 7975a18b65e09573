package sandbox_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

// TestStatusFaultsAnswerAsDocumented: a status fault with no Body answers, from 400
// up, the JSON error body the document allows, with an X-Request-Id; below 400, an
// empty body; a Body and Header are sent as given. (contract/sandbox checks the JSON
// error bodies against api/openapi.yaml.)
func TestStatusFaultsAnswerAsDocumented(t *testing.T) {
	tests := []struct {
		name        string
		fault       sandbox.Fault
		contentType string
		body        string // "" for a JSON error body of the fault's status
	}{
		{"a bare 503", sandbox.Fault{Times: 1, Status: 503}, "application/json", ""},
		{"a bare 429 with Retry-After", sandbox.Fault{Times: 1, Status: 429, Header: http.Header{"Retry-After": {"2"}}}, "application/json", ""},
		{"a bare 500", sandbox.Fault{Times: 1, Status: 500}, "application/json", ""},
		{"a bare 204", sandbox.Fault{Times: 1, Status: 204}, "", "-"},
		{"a proxy's page", sandbox.Fault{Times: 1, Status: 502, Body: "<html>bad gateway</html>", Header: http.Header{"Content-Type": {"text/html"}}}, "text/html", "<html>bad gateway</html>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSandbox()
			require.NoError(t, s.Inject("GET /v1/products", tt.fault))
			rec := serveBasic(s, "GET", "/v1/products", "")

			assert.Equal(t, tt.fault.Status, rec.Code)
			assert.NotEmpty(t, rec.Header().Get("X-Request-Id"))
			assert.Equal(t, tt.contentType, rec.Header().Get("Content-Type"))
			for k, v := range tt.fault.Header {
				assert.Equal(t, v, rec.Header().Values(k))
			}
			switch tt.body {
			case "":
				var body struct {
					Error     string `json:"error"`
					ErrorCode string `json:"error_code"`
					Message   string `json:"message"`
					Status    int    `json:"status"`
				}
				require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body), rec.Body.String())
				assert.Equal(t, http.StatusText(tt.fault.Status), body.Error)
				assert.Equal(t, "injected_fault", body.ErrorCode)
				assert.Equal(t, tt.fault.Status, body.Status)
				assert.NotEmpty(t, body.Message)
			case "-":
				assert.Empty(t, rec.Body.String())
			default:
				assert.Equal(t, tt.body, rec.Body.String())
			}
		})
	}
}
