// SANDBOX STAND-IN for the insurer's client-side gap-medical component. It is not the
// insurer's component: it mimics its interface (attributes client-id,
// customer-email-address, coverage-start-date, include-payment-element; validate(),
// getPaymentToken(cardHolderName, cardHolderPostalCode) and the quoteId property) so
// that a checkout page can be built and tested against the sandbox with no account.
// Card numbers never leave the page: tokens are minted here, as sandbox test values
// ("tok_declined" for the declined test card 4000000000000002).
(function () {
  "use strict";
  const apiBase = new URL(document.currentScript.src).origin;
  const declinedCard = "4000000000000002";

  function luhn(number) {
    if (!/^[0-9]{12,19}$/.test(number)) return false;
    let sum = 0;
    for (let i = 0; i < number.length; i++) {
      let d = Number(number[number.length - 1 - i]);
      if (i % 2 === 1) { d *= 2; if (d > 9) d -= 9; }
      sum += d;
    }
    return sum % 10 === 0;
  }

  function randomHex(bytes) {
    const b = new Uint8Array(bytes);
    crypto.getRandomValues(b);
    return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }

  class InsuranceGapMedical extends HTMLElement {
    connectedCallback() {
      if (this._ready) return;
      this.innerHTML = "";
      this._status = this.appendChild(document.createElement("p"));
      this._status.className = "insurance-quote";
      this._status.textContent = "Quoting gap-medical cover\u2026";
      if (this.hasAttribute("include-payment-element")) {
        this._card = this._field("Card number", "card-number", "4242 4242 4242 4242", "cc-number");
        this._expiry = this._field("Expiry (MM/YY)", "card-expiry", "12/30", "cc-exp");
        this._cvc = this._field("CVC", "card-cvc", "123", "cc-csc");
      }
      this._ready = this._quote();
    }

    _field(label, name, placeholder, autocomplete) {
      const wrap = this.appendChild(document.createElement("label"));
      wrap.textContent = label + " ";
      const input = wrap.appendChild(document.createElement("input"));
      input.name = name;
      input.placeholder = placeholder;
      input.autocomplete = autocomplete;
      return input;
    }

    async _quote() {
      const response = await fetch(apiBase + "/v1/quote/gap-medical", {
        method: "POST",
        headers: {
          "Accept": "application/json",
          "Content-Type": "application/json",
          "x-api-client-id": this.getAttribute("client-id") || "",
        },
        body: JSON.stringify({
          customer: { email_address: this.getAttribute("customer-email-address") || "" },
          policy_attributes: { coverage_start_date: this.getAttribute("coverage-start-date") || "" },
        }),
      });
      const body = await response.json();
      if (!response.ok) {
        this._status.textContent = "Could not quote: " + body.message;
        throw new Error(body.message);
      }
      this.quoteId = body.quote_id;
      this.setAttribute("data-quote-id", body.quote_id);
      this._status.textContent = "Gap-medical cover: " + body.premium.toFixed(2) + " " + body.currency + " a month";
    }

    // validate resolves to {isValid, errors} for the payment fields.
    async validate() {
      await this._ready;
      const errors = [];
      if (this._card) {
        if (!luhn(this._card.value.replace(/\s+/g, ""))) errors.push("card number is not valid");
        if (!/^(0[1-9]|1[0-2])\/[0-9]{2}$/.test(this._expiry.value.trim())) errors.push("expiry must be MM/YY");
        if (!/^[0-9]{3,4}$/.test(this._cvc.value.trim())) errors.push("CVC must be 3 or 4 digits");
      }
      return { isValid: errors.length === 0, errors: errors };
    }

    // getPaymentToken resolves to a sandbox payment token for the entered card.
    async getPaymentToken(cardHolderName, cardHolderPostalCode) {
      const result = await this.validate();
      if (!result.isValid) throw new Error(result.errors.join("; "));
      if (!cardHolderName || !cardHolderPostalCode) throw new Error("card holder name and postal code are required");
      if (this._card && this._card.value.replace(/\s+/g, "") === declinedCard) return "tok_declined";
      return "tok_" + randomHex(12);
    }
  }

  if (!customElements.get("insurance-gap-medical")) {
    customElements.define("insurance-gap-medical", InsuranceGapMedical);
  }
})();
