package insurancetest_test

import (
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/insurancetest"
)

func TestCORSOnlyForBrowserEndpointsAndAllowedOrigins(t *testing.T) {
	const page = "http://127.0.0.1:8090"
	srv := newSandbox(t, insurancetest.WithAllowedOrigins(page))
	preflight := func(origin, path, headers string) *http.Response {
		req, err := http.NewRequest(http.MethodOptions, srv.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", headers)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}

	for path, headers := range map[string]string{
		"/v1/quote/gap-medical":    "x-api-client-id",
		"/v1/quote/travel":         "x-api-client-id",
		"/v1/purchase/gap-medical": "Authorization",
	} {
		resp := preflight(page, path, headers)
		assert.Equal(t, http.StatusNoContent, resp.StatusCode, path)
		assert.Equal(t, page, resp.Header.Get("Access-Control-Allow-Origin"), path)
		assert.Contains(t, resp.Header.Get("Access-Control-Allow-Headers"), headers, path)
	}
	assert.NotContains(t, preflight(page, "/v1/quote/travel", "Authorization").Header.Get("Access-Control-Allow-Headers"), "Authorization",
		"a page may not send Basic auth to the travel quote")

	for _, path := range []string{"/v1/products", "/v1/purchase/tuition", "/v1/auth/customer/secret", "/v1/partners/onboard", "/v1/events"} {
		resp := preflight(page, path, "Authorization")
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, path)
		assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"), path)
	}
	resp := preflight("https://evil.example", "/v1/purchase/gap-medical", "Authorization")
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))
}

func TestServesTheStandInComponent(t *testing.T) {
	srv := newSandbox(t)
	resp, err := http.Get(srv.ComponentURL())
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Content-Type"), "javascript")
	assert.Contains(t, string(body), "SANDBOX STAND-IN")
	assert.Contains(t, string(body), `customElements.define("insurance-gap-medical"`)
}
