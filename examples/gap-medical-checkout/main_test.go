package main

import (
	"encoding/base64"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

func newApp(t *testing.T, backend *insurance.Client, srv *insurancetest.Server) *httptest.Server {
	t.Helper()
	app := httptest.NewServer((&checkout{
		backend: backend, clientID: srv.ClientID, apiBase: srv.URL, componentURL: srv.ComponentURL(),
	}).routes())
	t.Cleanup(app.Close)
	return app
}

// browser is a client that keeps cookies, as a browser does.
func browser(t *testing.T) *http.Client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &http.Client{Jar: jar}
}

// fetch sends req with hc and returns the answer with its body read.
func fetch(t *testing.T, hc *http.Client, req *http.Request) (*http.Response, string) {
	t.Helper()
	resp, err := hc.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(body)
}

func get(t *testing.T, hc *http.Client, url string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	return fetch(t, hc, req)
}

// post posts the sign-in form's fields.
func post(t *testing.T, hc *http.Client, url string, form url.Values) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(form.Encode()))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return fetch(t, hc, req)
}

var tokenOnForm = regexp.MustCompile(`name="csrf_token" value="([^"]+)"`)

// signIn does what a customer does: opens the sign-in page, then posts its form.
func signIn(t *testing.T, hc *http.Client, appURL, email string) (*http.Response, string) {
	t.Helper()
	_, form := get(t, hc, appURL+"/")
	token := tokenOnForm.FindStringSubmatch(form)
	require.NotNil(t, token, "the sign-in form carries a CSRF token: %s", form)
	return post(t, hc, appURL+"/checkout", url.Values{"email": {email}, "csrf_token": {token[1]}})
}

// mints counts the customer secrets the sandbox was asked for.
func mints(srv *insurancetest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Path == "/v1/auth/customer/secret" {
			n++
		}
	}
	return n
}

var secretOnPage = regexp.MustCompile(`secret: "(cus_sec_[0-9a-f]+)"`)

func TestCheckoutPageCarriesOnlyWhatTheBrowserNeeds(t *testing.T) {
	srv := insurancetest.NewServer()
	defer srv.Close()
	app := newApp(t, srv.Client(), srv)
	hc := browser(t)

	resp, page := signIn(t, hc, app.URL, "ada@example.com")
	require.Equal(t, http.StatusOK, resp.StatusCode, page)
	assert.Contains(t, page, `client-id="`+srv.ClientID+`"`)
	assert.Contains(t, page, `customer-email-address="ada@example.com"`)
	assert.Contains(t, page, `<script src="`+srv.ComponentURL()+`" defer>`)
	assert.NotContains(t, page, srv.ClientSecret, "the partner secret must never reach the page")
	basic := base64.StdEncoding.EncodeToString([]byte(srv.ClientID + ":" + srv.ClientSecret))
	assert.NotContains(t, page, basic, "nor its Basic header value")
	assert.NotContains(t, page, "Basic ")

	first := secretOnPage.FindStringSubmatch(page)
	require.NotNil(t, first, "the page carries the customer secret for its script")
	_, again := signIn(t, hc, app.URL, "ada@example.com")
	second := secretOnPage.FindStringSubmatch(again)
	require.NotNil(t, second)
	assert.NotEqual(t, first[1], second[1], "a secret is minted per page")
	assert.Equal(t, 2, mints(srv))

	// The secret on the page buys for this customer.
	buyer, err := insurance.NewClient(srv.URL, insurance.WithClientID(srv.ClientID))
	require.NoError(t, err)
	quote, err := buyer.QuoteGapMedical(t.Context(), &insurance.GapMedicalQuoteRequest{
		Customer:         insurance.Customer{EmailAddress: "ada@example.com"},
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{CoverageStartDate: insurance.NewDate(2027, 1, 1)},
	})
	require.NoError(t, err)
	_, err = buyer.PurchaseGapMedical(t.Context(), second[1], &insurance.GapMedicalPurchaseRequest{
		QuoteID: quote.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
	})
	assert.NoError(t, err)
}

// TestAGetMintsNothing: a link or an image on any site can make a browser send a
// GET; the checkout of old minted a secret on one. Now it is sent back to sign in.
func TestAGetMintsNothing(t *testing.T) {
	srv := insurancetest.NewServer()
	defer srv.Close()
	app := newApp(t, srv.Client(), srv)

	noRedirect := browser(t)
	noRedirect.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, page := get(t, noRedirect, app.URL+"/checkout?email=ada@example.com")
	assert.Equal(t, http.StatusSeeOther, resp.StatusCode)
	assert.Equal(t, "/", resp.Header.Get("Location"))
	assert.NotContains(t, page, "cus_sec_")

	resp, page = get(t, browser(t), app.URL+"/checkout?email=ada@example.com")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, page, `<form action="/checkout" method="post">`, "the sign-in page")
	assert.Zero(t, mints(srv), "no customer secret was asked for")
}

// TestAPostWithoutItsTokenMintsNothing: a post that does not return the token of its
// cookie (a form on another site, which can learn neither) is refused with 403.
func TestAPostWithoutItsTokenMintsNothing(t *testing.T) {
	srv := insurancetest.NewServer()
	defer srv.Close()
	app := newApp(t, srv.Client(), srv)
	_, form := get(t, browser(t), app.URL+"/")
	other := tokenOnForm.FindStringSubmatch(form)[1] // a valid token, of another browser

	for _, tc := range []struct {
		name        string
		signedIn    bool   // the browser has the sign-in page's cookie
		field       string // the form's csrf_token; "mine": the cookie's
		crossOrigin bool
	}{
		{"no cookie, no token", false, "", false},
		{"no cookie, another browser's token", false, other, false},
		{"the cookie, no token", true, "", false},
		{"the cookie, a wrong token", true, other, false},
		{"the cookie, a forged token", true, strings.Repeat("A", 43), false},
		{"the right token from another site", true, "mine", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hc := browser(t)
			field := tc.field
			if tc.signedIn {
				_, form := get(t, hc, app.URL+"/")
				if field == "mine" {
					field = tokenOnForm.FindStringSubmatch(form)[1]
				}
			}
			req, err := http.NewRequest(http.MethodPost, app.URL+"/checkout",
				strings.NewReader(url.Values{"email": {"ada@example.com"}, "csrf_token": {field}}.Encode()))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if tc.crossOrigin {
				req.Header.Set("Sec-Fetch-Site", "cross-site")
				req.Header.Set("Origin", "https://evil.example")
			}
			resp, page := fetch(t, hc, req)
			assert.Equal(t, http.StatusForbidden, resp.StatusCode)
			assert.Contains(t, page, "did not start from our sign-in page")
			assert.NotContains(t, page, "cus_sec_")
			assert.Zero(t, mints(srv))
		})
	}
}

func TestCheckoutShowsWhyItCannotStart(t *testing.T) {
	srv := insurancetest.NewServer()
	defer srv.Close()
	wrongSecret, err := insurance.NewClient(srv.URL, insurance.WithCredentials(srv.ClientID, "revoked"))
	require.NoError(t, err)
	app := newApp(t, wrongSecret, srv)
	hc := browser(t)

	resp, page := signIn(t, hc, app.URL, "ada@example.com")
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode)
	assert.Contains(t, page, "The insurance service refused to start the checkout: this endpoint takes Basic auth")
	assert.NotContains(t, page, "revoked")

	resp, page = signIn(t, hc, app.URL, "not-an-email")
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Contains(t, page, "Sign in with a valid email address.")

	srv.Close()
	resp, page = signIn(t, hc, app.URL, "ada@example.com")
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode)
	assert.Contains(t, page, "cannot be reached")
}

func TestSignInPage(t *testing.T) {
	srv := insurancetest.NewServer()
	defer srv.Close()
	resp, page := get(t, browser(t), newApp(t, srv.Client(), srv).URL+"/")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, page, `<form action="/checkout" method="post">`)
	token := tokenOnForm.FindStringSubmatch(page)
	require.NotNil(t, token)
	cookies := resp.Cookies()
	require.Len(t, cookies, 1)
	assert.Equal(t, token[1], cookies[0].Value, "the double-submit cookie holds the form's token")
	assert.True(t, cookies[0].HttpOnly)
	assert.Equal(t, http.SameSiteStrictMode, cookies[0].SameSite)
}
