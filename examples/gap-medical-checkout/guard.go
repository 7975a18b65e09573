package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
)

// guard sets, on every answer, the headers that keep the pages to themselves, and
// refuses a post a browser says came from another site (http.CrossOriginProtection,
// before the CSRF token is even looked at).
//
// The Content-Security-Policy lets scripts run only from the component's origin and
// the page's own inline script, which carries a nonce drawn for this answer alone;
// no page may frame these pages (frame-ancestors 'none', and X-Frame-Options for
// older browsers), so a page holding a customer secret cannot be overlaid by another
// site's. The insurer's component may need more (its frames, styles or images): its
// documentation says which, and its origin goes in those directives.
func (c *checkout) guard(next http.Handler) http.Handler {
	component := originOf(c.componentURL)
	connect := "'self' " + component
	if api := originOf(c.apiBase); api != component {
		connect += " " + api
	}
	sameSite := http.NewCrossOriginProtection()
	sameSite.SetDenyHandler(http.HandlerFunc(refuse))
	next = sameSite.Handler(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nonce := newNonce()
		h := w.Header()
		h.Set("Content-Security-Policy", strings.Join([]string{
			"default-src 'self'",
			"script-src 'nonce-" + nonce + "' " + component,
			"style-src 'nonce-" + nonce + "'",
			"connect-src " + connect, // the component's quote, the page's purchase
			"frame-src " + component,
			"object-src 'none'",
			"base-uri 'none'",
			"form-action 'self'",
			"frame-ancestors 'none'",
		}, "; "))
		h.Set("X-Frame-Options", "DENY")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), nonceKey{}, nonce)))
	})
}

type nonceKey struct{}

// nonceOf is the nonce guard drew for r's answer.
func nonceOf(r *http.Request) string {
	nonce, _ := r.Context().Value(nonceKey{}).(string)
	return nonce
}

// newNonce is 128 random bits, as CSP nonces should be, in base64url: nothing in it
// for html/template to escape in the attribute.
func newNonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// originOf is the origin of an absolute URL for a CSP source list ("https://host"),
// or 'self' for a URL on the page's own origin (a path).
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "'self'"
	}
	return u.Scheme + "://" + u.Host
}
