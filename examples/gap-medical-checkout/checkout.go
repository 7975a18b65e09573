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
	APIBase           string
	ComponentURL      string
	ClientID          string
	CustomerEmail     string
	CoverageStartDate string
	CustomerSecret    string // short-lived; buys only for CustomerEmail
}

func (c *checkout) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, signInTemplate, nil)
	})
	mux.HandleFunc("GET /checkout", c.showCheckout)
	return mux
}

// showCheckout mints a customer secret for the signed-in customer and renders the
// checkout page. (The email comes from the sign-in form here; a real app takes it from
// its session.)
func (c *checkout) showCheckout(w http.ResponseWriter, r *http.Request) {
	email := r.URL.Query().Get("email")
	if a, err := mail.ParseAddress(email); err != nil || a.Address != email {
		render(w, http.StatusBadRequest, errorTemplate, "Sign in with a valid email address.")
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
		render(w, http.StatusBadGateway, errorTemplate, message)
		return
	}
	if secret.Secret == "" {
		slog.Default().Warn("checkout: the customer secret answer has no secret")
		render(w, http.StatusBadGateway, errorTemplate, "The insurance service did not start the checkout. Try again in a moment.")
		return
	}
	render(w, http.StatusOK, checkoutTemplate, checkoutPage{
		APIBase:           c.apiBase,
		ComponentURL:      c.componentURL,
		ClientID:          c.clientID,
		CustomerEmail:     email, // the interface's answer is {secret}: the address is the one asked for
		CoverageStartDate: insurance.DateOf(time.Now().AddDate(0, 0, 14)).String(),
		CustomerSecret:    secret.Secret,
	})
}

func render(w http.ResponseWriter, status int, t *template.Template, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store") // the page holds a customer secret
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(status)
	if err := t.Execute(w, data); err != nil {
		slog.Default().Error("checkout: rendering", "error", err)
	}
}

const pageStyle = `<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 34rem; margin: 3rem auto; color: #1d2330; }
h1 { font-size: 1.5rem; } label { display: block; margin: .6rem 0; }
input { display: block; width: 100%; padding: .45rem; font: inherit; border: 1px solid #9aa3b5; border-radius: 4px; box-sizing: border-box; }
button { margin-top: 1rem; padding: .6rem 1.4rem; font: inherit; background: #1f5fd1; color: #fff; border: 0; border-radius: 4px; }
.insurance-quote { font-weight: 600; } #result { margin-top: 1rem; padding: .7rem; border-radius: 4px; }
#result.ok { background: #e3f6e8; color: #14532d; } #result.error { background: #fde8e8; color: #7f1d1d; }
</style>`

var signInTemplate = template.Must(template.New("sign-in").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign in</title>` + pageStyle + `</head>
<body><h1>Gap-medical cover</h1>
<form action="/checkout" method="get">
<label>Your email <input name="email" type="email" required value="ada@example.com"></label>
<button type="submit">Continue to checkout</button>
</form></body></html>`))

var errorTemplate = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout unavailable</title>` + pageStyle + `</head>
<body><h1>Checkout unavailable</h1><p id="result" class="error">{{.}}</p><p><a href="/">Back</a></p></body></html>`))

var checkoutTemplate = template.Must(template.New("checkout").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout</title>` + pageStyle + `
<script src="{{.ComponentURL}}" defer></script></head>
<body>
<h1>Gap-medical cover for {{.CustomerEmail}}</h1>
<p>Cover starts {{.CoverageStartDate}}.</p>
<insurance-gap-medical id="cover" client-id="{{.ClientID}}" customer-email-address="{{.CustomerEmail}}"
  coverage-start-date="{{.CoverageStartDate}}" include-payment-element></insurance-gap-medical>
<label>Name on card <input id="holder-name" autocomplete="cc-name"></label>
<label>Postal code <input id="holder-postal" autocomplete="postal-code"></label>
<button id="buy" type="button">Buy cover</button>
<p id="result" role="status"></p>
<script>
const checkout = {apiBase: {{.APIBase}}, secret: {{.CustomerSecret}}, coverageStart: {{.CoverageStartDate}}};
const result = document.getElementById("result");
function show(text, kind) { result.textContent = text; result.className = kind; }

document.getElementById("buy").addEventListener("click", async () => {
  const cover = document.getElementById("cover");
  show("Buying\u2026", "");
  try {
    const check = await cover.validate();
    if (!check.isValid) { show("Check your card: " + check.errors.join(", ") + ".", "error"); return; }
    const token = await cover.getPaymentToken(
      document.getElementById("holder-name").value, document.getElementById("holder-postal").value);
    const response = await fetch(checkout.apiBase + "/v1/purchase/gap-medical", {
      method: "POST",
      headers: {"Accept": "application/json", "Content-Type": "application/json",
                "Authorization": "Bearer " + checkout.secret},
      body: JSON.stringify({quote_id: cover.quoteId, payment_method: {token: token}}),
    });
    const body = await response.json();
    if (response.status === 201) {
      show("Policy " + body.policy_id + " issued: you are covered from " + checkout.coverageStart + ".", "ok");
    } else if (response.status === 402) {
      show("Payment declined: please try another card.", "error");
    } else if (response.status === 401) {
      show("Your checkout session has expired: reload the page to start again.", "error");
    } else {
      show("The purchase failed: " + body.message, "error");
    }
  } catch (err) {
    show("The purchase failed: " + err.message, "error");
  }
});
</script>
</body></html>`))
