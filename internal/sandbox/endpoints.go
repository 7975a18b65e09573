package sandbox

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/mail"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/partnerinsure/insurance-go"
)

// Product lines with a path in the interface.
const (
	productGapMedical = "gap-medical"
	productTravel     = "travel"
	productTuition    = "tuition"
)

// Premium formulas (documented in package insurancetest).
const (
	travelRatePerCost      = 0.045 // 4.5% of the trip cost
	travelPerTravelerDay   = 2.50  // plus 2.50 per traveller per trip day
	gapMedicalMonthly      = 39.00 // gap-medical: a flat monthly premium
	tuitionPremium         = 120.00
	defaultCurrency        = "USD"
	quoteStatusQuoted      = "QUOTED"
	quoteStatusPurchased   = "PURCHASED"
	policyStatusActive     = "ACTIVE"
	partnerOnboardingURL   = "https://partners.sandbox.invalid/travel-retailer/onboarding/"
	customerSecretPrefix   = "cus_sec_"
	customerSecretHexBytes = 24
)

// quote is a stored quote; it is also the body of a quote answer.
type quote struct {
	QuoteID              string    `json:"quote_id"`
	Product              string    `json:"product"`
	Status               string    `json:"status"`
	Premium              float64   `json:"premium"`
	Currency             string    `json:"currency"`
	CustomerEmailAddress string    `json:"customer_email_address"`
	PolicyID             string    `json:"policy_id,omitempty"`
	CreatedAt            time.Time `json:"created_at"`
	UpdatedAt            time.Time `json:"updated_at"`
}

// policy is a stored policy; it is also the body of a purchase answer.
type policy struct {
	PolicyID             string    `json:"policy_id"`
	QuoteID              string    `json:"quote_id"`
	Product              string    `json:"product"`
	Status               string    `json:"status"`
	Premium              float64   `json:"premium"`
	Currency             string    `json:"currency"`
	CustomerEmailAddress string    `json:"customer_email_address"`
	CreatedAt            time.Time `json:"created_at"`
}

type customerSecret struct {
	email   string
	expires time.Time
}

func (s *Sandbox) listProducts(*http.Request, string) (int, any, error) {
	return http.StatusOK, map[string]any{"products": []map[string]string{
		{"id": productGapMedical, "name": "Gap medical", "quote_path": "/v1/quote/gap-medical", "purchase_path": "/v1/purchase/gap-medical"},
		{"id": productTravel, "name": "Travel", "quote_path": "/v1/quote/travel"},
		{"id": productTuition, "name": "Tuition", "purchase_path": "/v1/purchase/tuition"},
	}}, nil
}

func (s *Sandbox) quoteTravel(r *http.Request, _ string) (int, any, error) {
	var req insurance.TravelQuoteRequest
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	pa := req.PolicyAttributes
	switch {
	case req.Customer.EmailAddress == "":
		return 0, nil, missing("customer.email_address")
	case pa.TripStartDate.IsZero():
		return 0, nil, missing("policy_attributes.trip_start_date")
	case pa.TripEndDate.IsZero():
		return 0, nil, missing("policy_attributes.trip_end_date")
	case pa.TripCost == 0:
		return 0, nil, missing("policy_attributes.trip_cost")
	case pa.TripCost < 0 || math.IsInf(pa.TripCost, 0):
		return 0, nil, badRequest("invalid_parameter", "policy_attributes.trip_cost must be a positive number")
	case pa.TripEndDate.Before(pa.TripStartDate):
		return 0, nil, badRequest("invalid_dates", "policy_attributes.trip_end_date is before policy_attributes.trip_start_date")
	}
	days := float64(pa.TripEndDate.Time().Sub(pa.TripStartDate.Time())/(24*time.Hour)) + 1
	travelers := float64(1 + len(pa.AdditionalTravelers))
	premium := money(pa.TripCost*travelRatePerCost + travelPerTravelerDay*days*travelers)
	return s.saveQuote(productTravel, req.QuoteID, req.Customer.EmailAddress, premium, req.Currency)
}

func (s *Sandbox) quoteGapMedical(r *http.Request, _ string) (int, any, error) {
	var req insurance.GapMedicalQuoteRequest
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	switch {
	case req.Customer.EmailAddress == "":
		return 0, nil, missing("customer.email_address")
	case req.PolicyAttributes.CoverageStartDate.IsZero():
		return 0, nil, missing("policy_attributes.coverage_start_date")
	}
	return s.saveQuote(productGapMedical, req.QuoteID, req.Customer.EmailAddress, gapMedicalMonthly, req.Currency)
}

// saveQuote creates a quote (201) when id is empty and updates quote id (200)
// otherwise: 400 when it is unknown or of another product, 422 when it was bought.
func (s *Sandbox) saveQuote(product, id, email string, premium float64, currency string) (int, any, error) {
	if currency == "" {
		currency = defaultCurrency
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == "" {
		return http.StatusCreated, *s.newQuote(product, email, premium, currency), nil
	}
	q, err := s.quoteFor(product, id)
	if err != nil {
		return 0, nil, err
	}
	q.Premium, q.Currency, q.CustomerEmailAddress, q.UpdatedAt = premium, currency, email, s.now().UTC()
	return http.StatusOK, *q, nil
}

// newQuote stores a new quote. The caller holds s.mu.
func (s *Sandbox) newQuote(product, email string, premium float64, currency string) *quote {
	now := s.now().UTC()
	q := &quote{
		QuoteID: "q_" + randomHex(8), Product: product, Status: quoteStatusQuoted,
		Premium: premium, Currency: currency, CustomerEmailAddress: email,
		CreatedAt: now, UpdatedAt: now,
	}
	s.quotes.put(q.QuoteID, q)
	return q
}

// quoteFor finds a quote of product that can still be bought or updated. The caller
// holds s.mu.
func (s *Sandbox) quoteFor(product, id string) (*quote, error) {
	q, ok := s.quotes.get(id)
	switch {
	case !ok:
		return nil, badRequest("quote_not_found", "quote_id %q is not a known quote", id)
	case q.Product != product:
		return nil, badRequest("quote_product_mismatch", "quote_id %q is a %s quote, not %s", id, q.Product, product)
	case q.PolicyID != "":
		return nil, &apiError{
			status: http.StatusUnprocessableEntity, code: "quote_unavailable", reason: "policy_exists",
			message: fmt.Sprintf("quote %s no longer exists: it has an active policy", id),
		}
	}
	return q, nil
}

func (s *Sandbox) purchaseTuition(r *http.Request, _ string) (int, any, error) {
	var req insurance.TuitionPurchaseRequest
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if req.QuoteID == "" {
		return 0, nil, missing("quote_id")
	}
	return s.buy(productTuition, req.QuoteID, "", req.PaymentMethod)
}

func (s *Sandbox) purchaseGapMedical(r *http.Request, secretEmail string) (int, any, error) {
	var req insurance.GapMedicalPurchaseRequest
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	switch {
	case req.QuoteID == "":
		return 0, nil, missing("quote_id")
	case req.PaymentMethod.Token == "":
		return 0, nil, missing("payment_method.token")
	case req.PaymentMethod.Card != nil || req.PaymentMethod.BankAccount != nil:
		return 0, nil, badRequest("invalid_payment_method", "gap-medical purchases take only payment_method.token from the client-side component")
	}
	return s.buy(productGapMedical, req.QuoteID, secretEmail, req.PaymentMethod)
}

// buy issues a policy for the quote, all under one lock so that of two purchases of
// one quote exactly one wins. secretEmail, when set, must be the quote's customer.
func (s *Sandbox) buy(product, quoteID, secretEmail string, pm insurance.PaymentMethod) (int, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, err := s.quoteFor(product, quoteID)
	if err != nil {
		return 0, nil, err
	}
	if secretEmail != "" && !strings.EqualFold(secretEmail, q.CustomerEmailAddress) {
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
func (s *Sandbox) issuePolicy(q *quote) *policy {
	p := &policy{
		PolicyID: "pol_" + randomHex(8), QuoteID: q.QuoteID, Product: q.Product,
		Status: policyStatusActive, Premium: q.Premium, Currency: q.Currency,
		CustomerEmailAddress: q.CustomerEmailAddress, CreatedAt: s.now().UTC(),
	}
	s.policies.put(p.PolicyID, p)
	q.PolicyID, q.Status, q.UpdatedAt = p.PolicyID, quoteStatusPurchased, p.CreatedAt
	return p
}

// charge runs the sandbox payment processor: the declined test card and token answer
// 402, anything malformed 400. The first of token, card and bank account is used.
func charge(pm insurance.PaymentMethod) error {
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

func (s *Sandbox) createCustomerSecret(r *http.Request, _ string) (int, any, error) {
	var req struct {
		EmailAddress string `json:"email_address"`
	}
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	if err := checkEmail("email_address", req.EmailAddress); err != nil {
		return 0, nil, err
	}
	secret := customerSecretPrefix + randomHex(customerSecretHexBytes)
	expires := s.now().Add(s.secretTTL)
	s.mu.Lock()
	s.secrets.put(secret, customerSecret{email: req.EmailAddress, expires: expires})
	s.mu.Unlock()
	return http.StatusCreated, map[string]any{
		"secret": secret, "email_address": req.EmailAddress, "expires_at": expires.UTC(),
	}, nil
}

func checkEmail(field, value string) error {
	if value == "" {
		return missing(field)
	}
	if a, err := mail.ParseAddress(value); err != nil || a.Address != value {
		return badRequest("invalid_parameter", "%s is not an email address", field)
	}
	return nil
}

func (s *Sandbox) onboardPartner(r *http.Request, _ string) (int, any, error) {
	var req insurance.OnboardPartnerRequest
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	switch {
	case req.EntityName == "":
		return 0, nil, missing("entity_name")
	case req.Website == "":
		return 0, nil, missing("website")
	case req.Country == "":
		return 0, nil, missing("country")
	case req.Country != insurance.CountryUS && req.Country != insurance.CountryCA:
		return 0, nil, badRequest("invalid_parameter", "country must be US or CA, not %q", req.Country)
	}
	if err := checkEmail("administrative_email_address", req.AdministrativeEmailAddress); err != nil {
		return 0, nil, err
	}
	if req.BillingEmailAddress != "" {
		if err := checkEmail("billing_email_address", req.BillingEmailAddress); err != nil {
			return 0, nil, err
		}
	}
	id := uuid.New()
	partner := map[string]any{
		"id":                                  id,
		"status":                              insurance.PartnerStatusPendingOnboarding,
		"type":                                insurance.PartnerTypeLimited,
		"entity_name":                         req.EntityName,
		"administrative_email_address":        req.AdministrativeEmailAddress,
		"country":                             req.Country,
		"website":                             req.Website,
		"travel_retailer_onboarding_complete": false,
	}
	for k, v := range map[string]string{
		"billing_email_address": req.BillingEmailAddress, "address": req.Address,
		"city": req.City, "state": req.State, "postal_code": req.PostalCode,
	} {
		if v != "" {
			partner[k] = v
		}
	}
	if req.TravelRetailer {
		partner["travel_retailer_onboarding_url"] = partnerOnboardingURL + id.String()
	}
	s.mu.Lock()
	s.partners.put(id.String(), partner)
	s.mu.Unlock()
	return http.StatusCreated, partner, nil
}

func (s *Sandbox) createEvent(r *http.Request, _ string) (int, any, error) {
	var req insurance.CreateEventRequest
	if err := decode(r, &req); err != nil {
		return 0, nil, err
	}
	switch {
	case req.EventName == "":
		return 0, nil, missing("event_name")
	case req.EventStartDate.IsZero():
		return 0, nil, missing("event_start_date")
	case req.EventEndDate.IsZero():
		return 0, nil, missing("event_end_date")
	case req.EventEndDate.Before(req.EventStartDate):
		return 0, nil, badRequest("invalid_dates", "event_end_date is before event_start_date")
	}
	event := insurance.Event{
		ID:                        uuid.New(),
		EventName:                 req.EventName,
		EventStartDate:            req.EventStartDate,
		EventEndDate:              req.EventEndDate,
		EventStreet:               req.EventStreet,
		EventCity:                 req.EventCity,
		EventState:                req.EventState,
		EventPostalCode:           req.EventPostalCode,
		EventCountry:              req.EventCountry,
		Metadata:                  map[string]any{},
		InsuranceRequired:         true,
		InsuranceRequirementsType: "GENERAL_LIABILITY",
		Purpose:                   "EVENT",
		AdditionalInsured:         []insurance.AdditionalInsured{},
		Attributes: insurance.EventAttributes{RoomBlockProtection: insurance.RoomBlockProtection{
			Rate: 0.05, Enabled: false, EventType: insurance.EventTypeIndoor,
		}},
	}
	s.mu.Lock()
	s.events.put(event.ID.String(), event)
	s.mu.Unlock()
	return http.StatusCreated, event, nil
}

// NewTuitionQuote creates a tuition quote for email, as happens outside the
// interface, and returns its id.
func (s *Sandbox) NewTuitionQuote(email string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newQuote(productTuition, email, tuitionPremium, defaultCurrency).QuoteID
}

// MarkPurchased binds a policy to the quote, as when a policy is bought outside the
// interface (a travel quote, say). Quoting it again then answers 422.
func (s *Sandbox) MarkPurchased(quoteID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.quotes.get(quoteID)
	switch {
	case !ok:
		return fmt.Errorf("sandbox: no quote %q", quoteID)
	case q.PolicyID != "":
		return errors.New("sandbox: quote " + quoteID + " is already purchased")
	}
	s.issuePolicy(q)
	return nil
}

// money rounds to cents.
func money(x float64) float64 { return math.Round(x*100) / 100 }
