package main

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/insurancetest"
)

// directives splits a Content-Security-Policy into its directives by name.
func directives(policy string) map[string]string {
	out := map[string]string{}
	for _, d := range strings.Split(policy, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		out[name] = value
	}
	return out
}

var nonceAttr = regexp.MustCompile(`<script nonce="([^"]+)">`)

// TestEveryAnswerSendsItsSecurityPolicy: every answer forbids framing and runs
// scripts only from the component's origin and, by a nonce of its own, the page's
// inline script; nothing else inline runs.
func TestEveryAnswerSendsItsSecurityPolicy(t *testing.T) {
	srv := insurancetest.NewServer()
	defer srv.Close()
	app := newApp(t, srv.Client(), srv)
	hc := browser(t)
	component := srv.URL // the sandbox serves its stand-in component

	checkoutAnswer, page := signIn(t, hc, app.URL, "ada@example.com")
	require.Equal(t, http.StatusOK, checkoutAnswer.StatusCode, page)
	signInAnswer, _ := get(t, hc, app.URL+"/")
	refused, _ := post(t, browser(t), app.URL+"/checkout", url.Values{"email": {"ada@example.com"}})
	notFound, _ := get(t, hc, app.URL+"/nope")

	nonces := map[string]bool{}
	for name, resp := range map[string]*http.Response{
		"checkout page": checkoutAnswer, "sign-in page": signInAnswer, "refusal": refused, "not found": notFound,
	} {
		policy := directives(resp.Header.Get("Content-Security-Policy"))
		assert.Equal(t, "'none'", policy["frame-ancestors"], name)
		assert.Equal(t, "DENY", resp.Header.Get("X-Frame-Options"), name)
		script := strings.Fields(policy["script-src"])
		require.Len(t, script, 2, "%s: %q", name, policy["script-src"])
		assert.True(t, strings.HasPrefix(script[0], "'nonce-"), name)
		assert.Equal(t, component, script[1], name)
		assert.NotContains(t, policy["script-src"], "unsafe", name)
		assert.NotContains(t, policy["style-src"], "unsafe", name)
		nonces[script[0]] = true
	}
	assert.Len(t, nonces, 4, "a nonce per answer")

	inline := nonceAttr.FindAllStringSubmatch(page, -1)
	require.Len(t, inline, 1, "the page's own script carries the nonce")
	assert.Contains(t, checkoutAnswer.Header.Get("Content-Security-Policy"), "'nonce-"+inline[0][1]+"'")
	assert.Equal(t, 1, strings.Count(page, "<script>")+strings.Count(page, "<script src="), "no other inline script, and the component's")
	assert.Contains(t, directives(checkoutAnswer.Header.Get("Content-Security-Policy"))["connect-src"], srv.URL, "the page's script buys from the interface")
}

func TestOriginOf(t *testing.T) {
	for raw, want := range map[string]string{
		"https://cdn.insurer.example/v2/gap-medical.js": "https://cdn.insurer.example",
		"http://127.0.0.1:8080/sandbox/gap-medical.js":  "http://127.0.0.1:8080",
		"/static/gap-medical.js":                        "'self'",
		"%zz":                                           "'self'",
	} {
		assert.Equal(t, want, originOf(raw), raw)
	}
}
