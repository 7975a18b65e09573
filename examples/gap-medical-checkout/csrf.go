package main

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
)

// The sign-in form's post mints a customer secret with the partner's credentials, so
// it must come from the form this app served, not from a page on another site that
// makes the browser post (a CSRF). The form carries a token; the post must return it.
//
// The token is a double-submit cookie: 32 random bytes, set as an HttpOnly,
// SameSite=Strict cookie with the form and written into the form itself; the post
// is accepted only when its form field equals its cookie. Another site can make a
// browser post to this app, but it cannot read the cookie or the form to learn the
// token (and with SameSite=Strict the browser does not even send the cookie along
// with a post from another site). It needs no state on the server, so visits do not
// fill a session store; in an app with its own sign-in, bind the token to that
// session instead, and take the email from the session rather than from the form.
// Behind TLS, the cookie is also Secure; name it with the __Host- prefix there.
const (
	csrfCookie   = "checkout_csrf"
	csrfField    = "csrf_token"
	maxFormBytes = 16 << 10 // the sign-in form is an email and a token
)

// issueCSRFToken returns the token of the browser's cookie, setting a fresh one when
// it has none: two tabs of the sign-in page share one token.
func issueCSRFToken(w http.ResponseWriter, r *http.Request) (string, error) {
	if c, err := r.Cookie(csrfCookie); err == nil && wellFormed(c.Value) {
		return c.Value, nil
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(w, &http.Cookie{
		Name: csrfCookie, Value: token, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
	})
	return token, nil
}

// validCSRFToken reports whether r's form carries the token of its cookie.
func validCSRFToken(r *http.Request) bool {
	c, err := r.Cookie(csrfCookie)
	if err != nil || !wellFormed(c.Value) {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(r.PostFormValue(csrfField)), []byte(c.Value)) == 1
}

// wellFormed reports a value issueCSRFToken could have made.
func wellFormed(token string) bool {
	b, err := base64.RawURLEncoding.DecodeString(token)
	return err == nil && len(b) == 32
}
