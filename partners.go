package insurance

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
)

// PartnerStatus is where a partner stands. Values the SDK does not name are kept.
type PartnerStatus string

// Partner statuses shown by the interface.
const (
	PartnerStatusActive               PartnerStatus = "ACTIVE"
	PartnerStatusPendingConfiguration PartnerStatus = "PENDING_CONFIGURATION"
	PartnerStatusPendingOnboarding    PartnerStatus = "PENDING_ONBOARDING"
	PartnerStatusInactive             PartnerStatus = "INACTIVE"
)

// PartnerType is the kind of partner. Values the SDK does not name are kept.
type PartnerType string

// Partner types shown by the interface.
const (
	PartnerTypeStandard PartnerType = "STANDARD"
	PartnerTypeLimited  PartnerType = "LIMITED"
)

// ACHAccountType is the type of a partner's ACH bank account.
type ACHAccountType string

// ACH account types.
const (
	ACHChecking ACHAccountType = "CHECKING"
	ACHSavings  ACHAccountType = "SAVINGS"
)

// OnboardPartnerRequest is the body of OnboardPartner. EntityName,
// AdministrativeEmailAddress, Country (US or CA) and Website are required.
type OnboardPartnerRequest struct {
	EntityName                 string `json:"entity_name"`
	AdministrativeEmailAddress string `json:"administrative_email_address"`
	BillingEmailAddress        string `json:"billing_email_address,omitempty"`
	Address                    string `json:"address,omitempty"`
	City                       string `json:"city,omitempty"`
	State                      string `json:"state,omitempty"`
	PostalCode                 string `json:"postal_code,omitempty"`
	// TravelRetailer asks for the steps to become a certified travel retailer; the
	// answer then carries TravelRetailerOnboardingURL.
	TravelRetailer *bool               `json:"travel_retailer,omitempty"` // nil: not sent; Bool(false) sends false
	Country        Country             `json:"country"`
	Website        string              `json:"website"`
	BankAccount    *PartnerBankAccount `json:"bank_account,omitempty"`
}

func (r *OnboardPartnerRequest) validate() error {
	if r == nil {
		return nilRequest()
	}
	errs := []error{
		required("entity_name", r.EntityName),
		email("administrative_email_address", r.AdministrativeEmailAddress, true),
		email("billing_email_address", r.BillingEmailAddress, false),
		required("website", r.Website),
	}
	if r.Country != CountryUS && r.Country != CountryCA {
		errs = append(errs, &ValidationError{Field: "country", Problem: fmt.Sprintf("must be US or CA, not %q", r.Country)})
	}
	return errors.Join(errs...)
}

// email checks a bare address such as "ops@example.com".
func email(field, value string, isRequired bool) error {
	if value == "" {
		if isRequired {
			return required(field, value)
		}
		return nil
	}
	if a, err := mail.ParseAddress(value); err != nil || a.Address != value {
		return &ValidationError{Field: field, Problem: "is not an email address"}
	}
	return nil
}

// PartnerBankAccount is the partner's account for payouts. Printing it with fmt masks
// the account number.
type PartnerBankAccount struct {
	ACHAccountNumber string         `json:"ach_account_number,omitempty"`
	ACHRoutingNumber string         `json:"ach_routing_number,omitempty"`
	ACHAccountType   ACHAccountType `json:"ach_account_type,omitempty"`
	ACHAccountName   string         `json:"ach_account_name,omitempty"`
	EFTBankCode      string         `json:"eft_bank_code,omitempty"`
}

// Partner is a partner as the service describes it, the answer of OnboardPartner.
type Partner struct {
	Response                         `json:"-"`
	ID                               string        `json:"id"` // a uuid, as the interface says, or whatever id the service sent
	Status                           PartnerStatus `json:"status"`
	Type                             PartnerType   `json:"type"`
	EntityName                       string        `json:"entity_name"`
	AdministrativeEmailAddress       string        `json:"administrative_email_address"`
	BillingEmailAddress              string        `json:"billing_email_address"`
	Address                          string        `json:"address"`
	City                             string        `json:"city"`
	State                            string        `json:"state"`
	PostalCode                       string        `json:"postal_code"`
	Country                          Country       `json:"country"`
	Website                          string        `json:"website"`
	TravelRetailerOnboardingURL      string        `json:"travel_retailer_onboarding_url"`
	TravelRetailerOnboardingComplete bool          `json:"travel_retailer_onboarding_complete"`
}

// OnboardPartner onboards a new limited partner (POST /v1/partners/onboard, Basic
// auth). It is never sent twice once it may have reached the server: a failure then
// also matches ErrOutcomeUnknown.
func (c *Client) OnboardPartner(ctx context.Context, req *OnboardPartnerRequest, opts ...Option) (*Partner, error) {
	out := new(Partner)
	_, err := c.call(ctx, endpointOnboardPartner, req, out, opts)
	return result(out, err)
}
