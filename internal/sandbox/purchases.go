package sandbox

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Test values of the sandbox's payment processor.
const (
	CardOK        = "4242424242424242"
	CardDeclined  = "4000000000000002"
	TokenOK       = "tok_ok"
	TokenDeclined = "tok_declined"
)

// policyStatusActive is the status of every policy the sandbox issues.
const policyStatusActive = "ACTIVE"

// Policy is a stored policy: the body of a purchase answer, and what Policies lists.
type Policy struct {
	PolicyID      string    `json:"policy_id"`
	QuoteID       string    `json:"quote_id"`
	Product       string    `json:"product"`
	Status        string    `json:"status"`
	CustomerEmail string    `json:"customer_email_address"`
	Premium       float64   `json:"premium"`
	Currency      string    `json:"currency"`
	CreatedAt     time.Time `json:"created_at"`
	ClientID      string    `json:"-"` // the partner whose quote it binds
}

func (s *Sandbox) purchaseTuition(body []byte, c caller) (int, any, error) {
	var req tuitionPurchaseRequest
	if err := decode(body, &req); err != nil {
		return 0, nil, err
	}
	if req.QuoteID == "" {
		return 0, nil, missing("quote_id")
	}
	if err := checkOptionalEmail("customer.email_address", req.Customer.EmailAddress); err != nil {
		return 0, nil, err
	}
	return s.buy(productTuition, req.QuoteID, c, req.PaymentMethod)
}

func (s *Sandbox) purchaseGapMedical(body []byte, c caller) (int, any, error) {
	var req gapMedicalPurchaseRequest
	if err := decode(body, &req); err != nil {
		return 0, nil, err
	}
	switch {
	case req.QuoteID == "":
		return 0, nil, missing("quote_id")
	case req.PaymentMethod.Token == "":
		return 0, nil, missing("payment_method.token")
	}
	return s.buy(productGapMedical, req.QuoteID, c, wirePaymentMethod{Token: req.PaymentMethod.Token})
}

// buy issues a policy for the quote, all under one lock so that of two purchases of
// one quote exactly one wins. A customer secret (c.email set) buys only quotes of the
// partner that minted it, for the customer it was minted for.
func (s *Sandbox) buy(product, quoteID string, c caller, pm wirePaymentMethod) (int, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if q, ok := s.quotes.get(quoteID); ok && c.email != "" && q.ClientID != c.clientID {
		return 0, nil, &apiError{
			status: http.StatusForbidden, code: "secret_scope", reason: "forbidden",
			message: "the customer client secret was created by another partner than the one this quote belongs to",
		}
	}
	q, err := s.quoteFor(product, c.clientID, quoteID)
	if err != nil {
		return 0, nil, err
	}
	if c.email != "" && !strings.EqualFold(c.email, q.CustomerEmail) {
		return 0, nil, &apiError{
			status: http.StatusForbidden, code: "secret_scope", reason: "forbidden",
			message: "the customer client secret was created for another email address than this quote's customer",
		}
	}
	if err := charge(pm); err != nil {
		return 0, nil, err
	}
	p := s.issuePolicy(q)
	return http.StatusCreated, *p, nil
}

// issuePolicy binds q. The caller holds s.mu.
func (s *Sandbox) issuePolicy(q *Quote) *Policy {
	p := &Policy{
		PolicyID: "pol_" + s.ids.hex(idPolicy, 8), QuoteID: q.QuoteID, ClientID: q.ClientID, Product: q.Product,
		Status: policyStatusActive, Premium: q.Premium, Currency: q.Currency,
		CustomerEmail: q.CustomerEmail, CreatedAt: s.Now().UTC(),
	}
	s.policies.put(p.PolicyID, p)
	q.PolicyID, q.Status, q.UpdatedAt = p.PolicyID, quoteStatusPurchased, p.CreatedAt
	return p
}

// charge runs the sandbox payment processor: the declined test card and token answer
// 402, anything malformed 400. The first of token, card and bank account is used.
func charge(pm wirePaymentMethod) error {
	declined := &apiError{status: http.StatusPaymentRequired, code: "payment_failed", reason: "declined", message: "the payment was declined"}
	switch {
	case pm.Token != "":
		if !strings.HasPrefix(pm.Token, "tok_") {
			return badRequest("invalid_token", "payment_method.token is not a sandbox payment token (tok_...)")
		}
		if pm.Token == TokenDeclined {
			return declined
		}
	case pm.Card != nil:
		switch {
		case pm.Card.Number == "":
			return missing("payment_method.card.number")
		case !luhn(pm.Card.Number):
			return badRequest("invalid_card", "payment_method.card.number is not a valid card number")
		case pm.Card.Number == CardDeclined:
			return declined
		}
	case pm.BankAccount != nil:
		switch {
		case pm.BankAccount.AccountNumber == "":
			return missing("payment_method.bank_account.account_number")
		case pm.BankAccount.RoutingNumber == "":
			return missing("payment_method.bank_account.routing_number")
		}
	default:
		return missing("payment_method (card, bank_account or token)")
	}
	return nil
}

// luhn reports whether number passes the Luhn check digit.
func luhn(number string) bool {
	if len(number) < 12 || len(number) > 19 {
		return false
	}
	sum := 0
	for i := range len(number) {
		d := int(number[len(number)-1-i] - '0')
		if d < 0 || d > 9 {
			return false
		}
		if i%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

// MarkPurchased binds a policy to the quote, as when a policy is bought outside the
// interface (a travel quote, say). Quoting it again then answers 422.
func (s *Sandbox) MarkPurchased(quoteID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.quotes.get(quoteID)
	switch {
	case !ok:
		return fmt.Errorf("insurancetest: no quote %q", quoteID)
	case q.PolicyID != "":
		return errors.New("insurancetest: quote " + quoteID + " is already purchased")
	}
	s.issuePolicy(q)
	return nil
}
