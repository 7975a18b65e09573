package insurancetest_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/insurancetest"
)

// heapAfterGC is the live heap once a collection has run.
func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// send posts body to url with the header given and returns the status; the answer's
// body is read and dropped.
func send(t *testing.T, url string, header http.Header, body []byte) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	require.NoError(t, err)
	req.Header = header
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// basic is the value of an Authorization header with Basic credentials.
func basic(id, secret string) string {
	return base64.StdEncoding.EncodeToString([]byte(id + ":" + secret))
}

// getJSON gets a control with the sandbox's credentials and decodes its answer.
func getJSON(t *testing.T, srv *insurancetest.Server, path string, v any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	require.NoError(t, err)
	req.SetBasicAuth(srv.ClientID, srv.ClientSecret)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(v))
}

// TestRequestLogKeepsNoBodyOfUnauthenticatedRequests: a page on any origin, or any
// program that reaches the port, can send large bodies to a route that does not exist
// or without credentials. The log keeps an entry for each, without its body, and the
// sandbox's heap does not grow with what was sent. (Not parallel: it reads the
// process's heap.)
func TestRequestLogKeepsNoBodyOfUnauthenticatedRequests(t *testing.T) {
	srv := newSandbox(t)
	mib := bytes.Repeat([]byte(`{"number":"4242424242424242"}`), (1<<20)/29)
	wrong := http.Header{"Content-Type": {"application/json"}}
	wrong.Set("Authorization", "Basic "+basic(srv.ClientID, "wrong"))
	const each = 150

	before := heapAfterGC()
	for range each {
		assert.Equal(t, http.StatusNotFound, send(t, srv.URL+"/nope", http.Header{"Content-Type": {"text/plain"}}, mib))
		assert.Equal(t, http.StatusUnauthorized, send(t, srv.URL+"/v1/purchase/tuition", wrong, mib))
	}
	after := heapAfterGC()
	t.Logf("heap after GC: %.1f MB before, %.1f MB after %d POSTs of %d bytes", float64(before)/1e6, float64(after)/1e6, 2*each, len(mib))

	requests := srv.Requests()
	require.Len(t, requests, 2*each, "an entry for every request")
	for _, r := range requests {
		assert.Empty(t, r.Body, "%s %s %d", r.Method, r.Path, r.StatusCode)
	}
	assert.Less(t, int64(after)-int64(before), int64(8<<20), "the heap grew with the bodies of unauthenticated requests")
}

// TestRequestLogKeepsAnEntryWithoutTheBodyOfEveryRefusedRequest: each way a request
// can be refused before its body is worth reading is logged, with its status and no
// body.
func TestRequestLogKeepsAnEntryWithoutTheBodyOfEveryRefusedRequest(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		hc := srv.HTTPClient()
		body := `{"card":{"number":"4242424242424242"},"email_address":"ada@example.com"}`
		for _, tc := range []struct {
			name, method, path, authorization, clientID string
			want                                        int
		}{
			{"unknown route", "POST", "/nope", "", "", http.StatusNotFound},
			{"wrong method", "PUT", "/v1/events", "Basic " + basic(srv.ClientID, srv.ClientSecret), "", http.StatusMethodNotAllowed},
			{"no credentials", "POST", "/v1/auth/customer/secret", "", "", http.StatusUnauthorized},
			{"a wrong client secret", "POST", "/v1/auth/customer/secret", "Basic " + basic(srv.ClientID, "wrong"), "", http.StatusUnauthorized},
			{"an unknown client id", "POST", "/v1/quote/gap-medical", "", "ci_unknown", http.StatusUnauthorized},
			{"an unknown customer secret", "POST", "/v1/purchase/gap-medical", "Bearer cus_sec_unknown", "", http.StatusUnauthorized},
		} {
			t.Run(tc.name, func(t *testing.T) {
				srv.Reset()
				req, err := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader(body))
				require.NoError(t, err)
				req.Header.Set("Content-Type", "application/json")
				if tc.authorization != "" {
					req.Header.Set("Authorization", tc.authorization)
				}
				if tc.clientID != "" {
					req.Header.Set("X-Api-Client-Id", tc.clientID)
				}
				resp, err := hc.Do(req)
				require.NoError(t, err)
				resp.Body.Close()
				assert.Equal(t, tc.want, resp.StatusCode)

				requests := srv.Requests()
				require.Len(t, requests, 1)
				assert.Equal(t, tc.path, requests[0].Path)
				assert.Equal(t, tc.want, requests[0].StatusCode)
				assert.Empty(t, requests[0].Body)
				assert.False(t, requests[0].BodyTruncated)
			})
		}
	})
}

// TestRequestLogCutsALargeBodyAndSaysSo: a body the sandbox reads is kept up to
// 64 KiB, as it was sent (masked), and marked as cut, here and over HTTP.
func TestRequestLogCutsALargeBodyAndSaysSo(t *testing.T) {
	srv := newSandbox(t)
	sent := `{"customer":{"email_address":"ada@example.com"},"policy_attributes":{"coverage_start_date":"2027-04-01"},` +
		`"metadata":{"note":"` + strings.Repeat("x", 100<<10) + `"}}`
	header := http.Header{"Content-Type": {"application/json"}, "X-Api-Client-Id": {srv.ClientID}}
	require.Equal(t, http.StatusCreated, send(t, srv.URL+"/v1/quote/gap-medical", header, []byte(sent)))
	small := `{"customer":{"email_address":"bob@example.com"},"policy_attributes":{"coverage_start_date":"2027-04-01"}}`
	require.Equal(t, http.StatusCreated, send(t, srv.URL+"/v1/quote/gap-medical", header, []byte(small)))

	requests := srv.Requests()
	require.Len(t, requests, 2)
	assert.True(t, requests[0].BodyTruncated)
	assert.Len(t, requests[0].Body, 64<<10)
	assert.Equal(t, sent[:64<<10], string(requests[0].Body))
	assert.False(t, requests[1].BodyTruncated)
	assert.Equal(t, small, string(requests[1].Body))

	var logged struct {
		Requests []struct {
			Body          string `json:"body"`
			BodyTruncated bool   `json:"body_truncated"`
		} `json:"requests"`
	}
	getJSON(t, srv, "/sandbox/requests", &logged)
	require.Len(t, logged.Requests, 2)
	assert.True(t, logged.Requests[0].BodyTruncated)
	assert.Len(t, logged.Requests[0].Body, 64<<10)
	assert.False(t, logged.Requests[1].BodyTruncated)
}

// TestRequestLogMasksSecretsUnderKeysInAnyCase: encoding/json fills the card number
// from "Number" or "NUMBER" as from "number", so a service might read them; the
// sandbox refuses them (400 unknown_parameter: the document names "number"), and its
// log masks them all.
func TestRequestLogMasksSecretsUnderKeysInAnyCase(t *testing.T) {
	srv := newSandbox(t)
	header := http.Header{"Content-Type": {"application/json"}}
	header.Set("Authorization", "Basic "+basic(srv.ClientID, srv.ClientSecret))
	for _, card := range []string{
		`{"Number":"4242424242424242","Verification":"987"}`,
		`{"NUMBER":"4242424242424242","VERIFICATION":"987"}`,
		`{"n\u0055mber":"4242424242424242","vErIfIcAtIoN":"987"}`,
	} {
		quoteID := srv.NewTuitionQuote("ada@example.com")
		body := `{"quote_id":"` + quoteID + `","payment_method":{"card":` + card + `}}`
		assert.Equal(t, http.StatusBadRequest, send(t, srv.URL+"/v1/purchase/tuition", header, []byte(body)), card)
	}
	onboard := `{"entity_name":"Acme","administrative_email_address":"ops@acme.example","country":"US",` +
		`"website":"https://acme.example","bank_account":{"ACH_ACCOUNT_NUMBER":"000123456789","ach_routing_number":"021000021"}}`
	assert.Equal(t, http.StatusBadRequest, send(t, srv.URL+"/v1/partners/onboard", header, []byte(onboard)))

	requests := srv.Requests()
	require.Len(t, requests, 4)
	for _, r := range requests {
		assert.NotContains(t, string(r.Body), "4242424242424242")
		assert.NotContains(t, string(r.Body), `"987"`) // quoted: a random quote id may hold the digits
		assert.NotContains(t, string(r.Body), "000123456789")
	}
	assert.Contains(t, string(requests[0].Body), `"Number":"************4242","Verification":"***"`)
	assert.Contains(t, string(requests[1].Body), `"NUMBER":"************4242","VERIFICATION":"***"`)
	assert.Contains(t, string(requests[2].Body), `"n\u0055mber":"************4242","vErIfIcAtIoN":"***"`)
	assert.Contains(t, string(requests[3].Body), `"ACH_ACCOUNT_NUMBER":"********6789","ach_routing_number":"021000021"`)
}

// TestRequestLogKeepsAtMost8KiBOfHeaders: a request's headers beyond 8 KiB are left
// out of its entry, which says so.
func TestRequestLogKeepsAtMost8KiBOfHeaders(t *testing.T) {
	srv := newSandbox(t)
	header := http.Header{"X-Big": {strings.Repeat("b", 100<<10)}, "X-Small": {"kept"}}
	assert.Equal(t, http.StatusNotFound, send(t, srv.URL+"/nope", header, nil))
	assert.Equal(t, http.StatusNotFound, send(t, srv.URL+"/nope", http.Header{"X-Small": {"kept"}}, nil))

	requests := srv.Requests()
	require.Len(t, requests, 2)
	assert.True(t, requests[0].HeaderTruncated)
	assert.Empty(t, requests[0].Header.Get("X-Big"))
	assert.Equal(t, "kept", requests[0].Header.Get("X-Small"))
	assert.False(t, requests[1].HeaderTruncated)
}
