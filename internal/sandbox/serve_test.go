package sandbox_test

import (
	"net/http/httptest"
	"strings"
	"time"

	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

// The sandbox's own tests drive it black-box, over its http.Handler. The module
// contract/ drives it the same way and checks every exchange against api/openapi.yaml
// and api/sandbox.yaml.

// newSandbox is a sandbox whose clock stands still at 2027-01-04 09:00 UTC.
func newSandbox() *sandbox.Sandbox {
	now := time.Date(2027, time.January, 4, 9, 0, 0, 0, time.UTC)
	return sandbox.New(sandbox.Config{ClientID: "ci_test", ClientSecret: "cs_test", Now: func() time.Time { return now }})
}

// serveBasic sends a request to s with s's Basic credentials, and body, when there is
// one, as JSON, and returns the answer.
func serveBasic(s *sandbox.Sandbox, method, path, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	req.SetBasicAuth(s.ClientID(), s.ClientSecret())
	req.Header.Set("Accept", "application/json")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec
}
