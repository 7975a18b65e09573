package sandbox_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/api"
	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

// TestServesItsDocuments: /sandbox/sandbox.yaml is api/sandbox.yaml, without auth.
func TestServesItsDocuments(t *testing.T) {
	req := httptest.NewRequest("GET", sandbox.SandboxDocumentPath, nil)
	req.Header.Set("Accept", "application/json")
	rec := httptest.NewRecorder()
	newSandbox().ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code)
	assert.Equal(t, "application/yaml", rec.Header().Get("Content-Type"))
	assert.Equal(t, string(api.Sandbox()), rec.Body.String())
}
