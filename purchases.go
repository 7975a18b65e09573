package insurance

import (
	"cmp"
	"context"
	"errors"
)

// TuitionPurchaseRequest is the body of PurchaseTuition.
type TuitionPurchaseRequest struct {
	Customer      Customer       `json:"customer,omitzero"`
	Metadata      map[string]any `json:"metadata,omitempty"`
	QuoteID       string         `json:"quote_id,omitempty"`
	PaymentMethod PaymentMethod  `json:"payment_method,omitzero"`
	Subscription  *bool          `json:"subscription,omitempty"` // nil: not sent; Bool(false) sends false
}

func (r *TuitionPurchaseRequest) validate() error {
	if r == nil {
		return nilRequest()
	}
	return nil
}

// PaymentMethod is how a purchase is paid: a card, a bank account, or a payment token
// from the client-side component.
type PaymentMethod struct {
	Card             *Card        `json:"card,omitempty"`
	BankAccount      *BankAccount `json:"bank_account,omitempty"`
	Token            string       `json:"token,omitempty"`
	SaveForFutureUse *bool        `json:"save_for_future_use,omitempty"` // nil: not sent; Bool(false) sends false
}

// Card is a payment card. Printing it with fmt shows only the last four digits of the
// number and hides the verification code.
type Card struct {
	Name              string `json:"name,omitempty"`
	Number            string `json:"number,omitempty"`
	Verification      string `json:"verification,omitempty"`
	Month             string `json:"month,omitempty"`
	Year              string `json:"year,omitempty"`
	AddressPostalCode string `json:"address_postal_code,omitempty"`
}

// BankAccount is a bank account to pay from. Printing it with fmt masks the account
// number.
type BankAccount struct {
	Currency         string  `json:"currency,omitempty"`
	AccountOwnerName string  `json:"account_owner_name,omitempty"`
	RoutingNumber    string  `json:"routing_number,omitempty"`
	AccountNumber    string  `json:"account_number,omitempty"`
	AccountType      string  `json:"account_type,omitempty"`
	AccountOwnerType string  `json:"account_owner_type,omitempty"`
	Country          Country `json:"country,omitempty"`
}

// GapMedicalPurchaseRequest is the body of PurchaseGapMedical: the quote and the
// payment token from the client-side component.
type GapMedicalPurchaseRequest struct {
	QuoteID       string        `json:"quote_id"`
	PaymentMethod PaymentMethod `json:"payment_method"`
}

func (r *GapMedicalPurchaseRequest) validate() error {
	if r == nil {
		return nilRequest()
	}
	return errors.Join(required("quote_id", r.QuoteID), required("payment_method.token", r.PaymentMethod.Token))
}

// Policy is the answer of a purchase: the policy issued. The interface does not show
// its fields: PolicyID is read from "policy_id" (or "id") and QuoteID from
// "quote_id"; Raw and Decode give the rest.
type Policy struct {
	Response `json:"-"`
	PolicyID string `json:"policy_id"`
	QuoteID  string `json:"quote_id"`
}

// UnmarshalJSON reads the policy's id from "policy_id", or else "id", and the quote's.
func (p *Policy) UnmarshalJSON(b []byte) error { return p.decodeBody(b) }

func (p *Policy) decodeBody(b []byte) error {
	ids, fallback, err := decodeIDs(b)
	p.PolicyID, p.QuoteID = cmp.Or(string(ids.PolicyID), fallback), string(ids.QuoteID)
	return err
}

// PurchaseTuition issues a tuition policy (POST /v1/purchase/tuition, Basic auth).
// A declined payment answers ErrPaymentFailed. It is never sent twice once it may
// have reached the server: a failure then also matches ErrOutcomeUnknown.
func (c *Client) PurchaseTuition(ctx context.Context, req *TuitionPurchaseRequest, opts ...Option) (*Policy, error) {
	out := new(Policy)
	_, err := c.call(ctx, endpointPurchaseTuition, req, out, opts)
	return result(out, err)
}

// PurchaseGapMedical issues a gap-medical policy (POST /v1/purchase/gap-medical,
// Bearer customer secret only: no partner credential is sent). customerSecret comes
// from CreateCustomerSecret and buys only for the email it was created for. Like
// every purchase it is never sent twice once it may have reached the server.
func (c *Client) PurchaseGapMedical(ctx context.Context, customerSecret string, req *GapMedicalPurchaseRequest, opts ...Option) (*Policy, error) {
	ep := endpointPurchaseGapMedical
	ep.auth = AuthBearer(customerSecret)
	out := new(Policy)
	_, err := c.call(ctx, ep, req, out, opts)
	return result(out, err)
}

// CustomerSecret is a short-lived secret that lets client-side code buy a policy for
// one customer email address, and nothing else. Printing it with fmt hides the secret.
type CustomerSecret struct {
	Response     `json:"-"`
	Secret       string `json:"secret"`
	EmailAddress string `json:"email_address,omitempty"`
}

// checkAnswer refuses an answer without a secret: the checkout needs one.
func (s *CustomerSecret) checkAnswer() error {
	if s.Secret == "" {
		return errors.New(`the answer carries no "secret"`)
	}
	return nil
}

type customerSecretRequest struct {
	EmailAddress string `json:"email_address"`
}

func (r *customerSecretRequest) validate() error { return required("email_address", r.EmailAddress) }

// CreateCustomerSecret mints a customer client secret for emailAddress
// (POST /v1/auth/customer/secret, Basic auth). Hand the secret, never the client
// secret, to the browser; it buys only for this email address.
func (c *Client) CreateCustomerSecret(ctx context.Context, emailAddress string, opts ...Option) (*CustomerSecret, error) {
	s := new(CustomerSecret)
	if _, err := c.call(ctx, endpointCreateCustomerSecret, &customerSecretRequest{EmailAddress: emailAddress}, s, opts); err != nil {
		return nil, err
	}
	if s.EmailAddress == "" {
		s.EmailAddress = emailAddress
	}
	return s, nil
}
