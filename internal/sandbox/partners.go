package sandbox

import (
	"net/http"
)

// partner is a stored partner; it is also the body of the onboarding answer, which
// leaves out the optional fields the request left out.
type partner struct {
	ID                               string `json:"id"`
	Status                           string `json:"status"`
	Type                             string `json:"type"`
	EntityName                       string `json:"entity_name"`
	AdministrativeEmailAddress       string `json:"administrative_email_address"`
	BillingEmailAddress              string `json:"billing_email_address,omitempty"`
	Address                          string `json:"address,omitempty"`
	City                             string `json:"city,omitempty"`
	State                            string `json:"state,omitempty"`
	PostalCode                       string `json:"postal_code,omitempty"`
	Country                          string `json:"country"`
	Website                          string `json:"website"`
	TravelRetailerOnboardingURL      string `json:"travel_retailer_onboarding_url,omitempty"`
	TravelRetailerOnboardingComplete bool   `json:"travel_retailer_onboarding_complete"`
}

// The status and type of a newly onboarded partner, and where a travel retailer
// finishes its onboarding.
const (
	partnerStatusPendingOnboarding = "PENDING_ONBOARDING"
	partnerTypeLimited             = "LIMITED"
	partnerOnboardingURL           = "https://partners.sandbox.invalid/travel-retailer/onboarding/"
)

func (s *Sandbox) onboardPartner(body []byte, _ caller) (int, any, error) {
	var req onboardRequest
	if err := decode(body, &req); err != nil {
		return 0, nil, err
	}
	switch {
	case req.EntityName == "":
		return 0, nil, missing("entity_name")
	case req.Website == "":
		return 0, nil, missing("website")
	case req.Country == "":
		return 0, nil, missing("country")
	case req.Country != "US" && req.Country != "CA":
		return 0, nil, badRequest("invalid_parameter", "country must be US or CA, not %q", req.Country)
	case req.BankAccount != nil && req.BankAccount.ACHAccountType != "" &&
		req.BankAccount.ACHAccountType != "CHECKING" && req.BankAccount.ACHAccountType != "SAVINGS":
		return 0, nil, badRequest("invalid_parameter", "bank_account.ach_account_type must be CHECKING or SAVINGS, not %q", req.BankAccount.ACHAccountType)
	}
	if err := checkEmail("administrative_email_address", req.AdministrativeEmailAddress); err != nil {
		return 0, nil, err
	}
	if req.BillingEmailAddress != "" {
		if err := checkEmail("billing_email_address", req.BillingEmailAddress); err != nil {
			return 0, nil, err
		}
	}
	p := &partner{
		ID: s.ids.uuid(idPartner), Status: partnerStatusPendingOnboarding, Type: partnerTypeLimited,
		EntityName: req.EntityName, AdministrativeEmailAddress: req.AdministrativeEmailAddress,
		BillingEmailAddress: req.BillingEmailAddress, Address: req.Address, City: req.City,
		State: req.State, PostalCode: req.PostalCode, Country: req.Country, Website: req.Website,
	}
	if req.TravelRetailer {
		p.TravelRetailerOnboardingURL = partnerOnboardingURL + p.ID
	}
	s.mu.Lock()
	s.partners.put(p.ID, p)
	s.mu.Unlock()
	return http.StatusCreated, p, nil
}
