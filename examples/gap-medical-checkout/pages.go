package main

import "html/template"

// The pages. Their own style and script carry the answer's nonce: the
// Content-Security-Policy (guard.go) runs no other inline code, so markup injected
// into a page cannot run a script.

const pageStyle = `<style nonce="{{.Nonce}}">
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
<form action="/checkout" method="post">
<input type="hidden" name="` + csrfField + `" value="{{.CSRFToken}}">
<label>Your email <input name="email" type="email" required value="ada@example.com"></label>
<button type="submit">Continue to checkout</button>
</form></body></html>`))

var errorTemplate = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout unavailable</title>` + pageStyle + `</head>
<body><h1>Checkout unavailable</h1><p id="result" class="error">{{.Message}}</p><p><a href="/">Back</a></p></body></html>`))

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
<script nonce="{{.Nonce}}">
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
