package main

import (
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"net/mail"
	"time"

	"github.com/partnerinsure/insurance-go"
)

// checkout is the partner backend. It holds the full credentials (in backend) and
// hands the browser only what the checkout page needs.
type checkout struct {
	backend      *insurance.Client
	clientID     string // public
	apiBase      string // where the page's script calls the interface
	componentURL string // the client-side gap-medical component
}

// checkoutPage is everything the page carries. It has no field for the partner's
// client secret: html/template could not put it on the page if it tried.
type checkoutPage struct {
	Nonce             string // lets the page's own script and style run under its Content-Security-Policy
	APIBase           string
	ComponentURL      string
	ClientID          string
	CustomerEmail     string
	CoverageStartDate string
	CustomerSecret    string // short-lived; buys only for CustomerEmail
}

// signInPage is what the sign-in form carries: the token its post must return.
type signInPage struct {
	Nonce     string
	CSRFToken string
}

// errorPage says why the checkout cannot start.
type errorPage struct {
	Nonce   string
	Message string
}

// routes serves the pages, each with the headers guard sets. The customer secret is
// minted only by the sign-in form's POST, carrying the token the form was given: a
// GET mints nothing (a link or an image on any site could send one).
func (c *checkout) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", c.showSignIn)
	mux.HandleFunc("GET /checkout", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/", http.StatusSeeOther) // a reload or a bookmark: sign in again
	})
	mux.HandleFunc("POST /checkout", c.startCheckout)
	return c.guard(mux)
}

// showSignIn renders the sign-in form with a CSRF token (see csrf.go).
func (c *checkout) showSignIn(w http.ResponseWriter, r *http.Request) {
	token, err := issueCSRFToken(w, r)
	if err != nil {
		slog.Default().Error("checkout: making a CSRF token", "error", err)
		showError(w, r, http.StatusInternalServerError, "The checkout cannot start. Try again in a moment.")
		return
	}
	render(w, http.StatusOK, signInTemplate, signInPage{Nonce: nonceOf(r), CSRFToken: token})
}

// startCheckout mints a customer secret for the signed-in customer and renders the
// checkout page, when the form's post carries its CSRF token. (The email comes from
// the sign-in form here; a real app takes it from its session.)
func (c *checkout) startCheckout(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if !validCSRFToken(r) {
		refuse(w, r)
		return
	}
	email := r.PostFormValue("email")
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		showError(w, r, http.StatusBadRequest, "Sign in with a valid email address.")
		return
	}
	secret, err := c.backend.CreateCustomerSecret(r.Context(), email)
	if err != nil {
		slog.Default().Warn("checkout: minting a customer secret failed", "error", err)
		var apiErr *insurance.APIError
		message := "The insurance service cannot be reached. Try again in a moment."
		if errors.As(err, &apiErr) {
			message = "The insurance service refused to start the checkout: " + apiErr.Message
		}
		showError(w, r, http.StatusBadGateway, message)
		return
	}
	render(w, http.StatusOK, checkoutTemplate, checkoutPage{
		Nonce:             nonceOf(r),
		APIBase:           c.apiBase,
		ComponentURL:      c.componentURL,
		ClientID:          c.clientID,
		CustomerEmail:     email, // the interface's answer is {secret}: the address is the one asked for
		CoverageStartDate: insurance.DateOf(time.Now().AddDate(0, 0, 14)).String(),
		CustomerSecret:    secret.Secret,
	})
}

// refuse answers a post that does not carry the sign-in form's token, or that a
// browser says came from another site: 403, and nothing minted.
func refuse(w http.ResponseWriter, r *http.Request) {
	showError(w, r, http.StatusForbidden, "This checkout did not start from our sign-in page, or the page has expired: sign in again.")
}

// showError renders the error page with message.
func showError(w http.ResponseWriter, r *http.Request, status int, message string) {
	render(w, status, errorTemplate, errorPage{Nonce: nonceOf(r), Message: message})
}

func render(w http.ResponseWriter, status int, t *template.Template, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store") // the page holds a customer secret
	w.WriteHeader(status)
	if err := t.Execute(w, data); err != nil {
		slog.Default().Error("checkout: rendering", "error", err)
	}
}
