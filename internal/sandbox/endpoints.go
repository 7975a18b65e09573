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
)

// auth is the scheme an endpoint accepts.
type auth int

const (
	authBasic auth = iota
	authClientID
	authBasicOrClientID
	authBearer
)

var authNames = map[auth]string{
	authBasic:           "Basic (client id and client secret)",
	authClientID:        "x-api-client-id header only",
	authBasicOrClientID: "Basic, or the x-api-client-id header",
	authBearer:          "Bearer customer secret only",
}

// endpoint is one route of the interface. handle returns the status and body to send,
// or an *apiError.
type endpoint struct {
	method, path string
	auth         auth
	handle       func(s *Sandbox, body []byte, bearerEmail string) (int, any, error)
	// corsHeaders, when set, lets pages on an allowed origin call the endpoint with
	// these request headers. Basic-auth endpoints have none: no page may call them.
	corsHeaders string
}

// Request headers a page may send to the browser endpoints.
const (
	corsClientID = "Accept, Content-Type, x-api-client-id"
	corsBearer   = "Accept, Content-Type, Authorization"
)

// endpoints is the interface's endpoint table, in the order of interface.md.
var endpoints = []endpoint{
	{http.MethodGet, "/v1/products", authBasic, (*Sandbox).listProducts, ""},
	{http.MethodPost, "/v1/quote/gap-medical", authClientID, (*Sandbox).quoteGapMedical, corsClientID},
	{http.MethodPost, "/v1/quote/travel", authBasicOrClientID, (*Sandbox).quoteTravel, corsClientID},
	{http.MethodPost, "/v1/purchase/gap-medical", authBearer, (*Sandbox).purchaseGapMedical, corsBearer},
	{http.MethodPost, "/v1/purchase/tuition", authBasic, (*Sandbox).purchaseTuition, ""},
	{http.MethodPost, "/v1/auth/customer/secret", authBasic, (*Sandbox).createCustomerSecret, ""},
	{http.MethodPost, "/v1/partners/onboard", authBasic, (*Sandbox).onboardPartner, ""},
	{http.MethodPost, "/v1/events", authBasic, (*Sandbox).createEvent, ""},
}

func endpointAt(path string) (endpoint, bool) {
	for _, ep := range endpoints {
		if ep.path == path {
			return ep, true
		}
	}
	return endpoint{}, false
}

// Route is one endpoint of the interface as the sandbox serves it.
type Route struct {
	Method, Path string
	Auth         string // the scheme it takes, for people: "Basic (client id and client secret)", ...
}

// Routes lists the interface's endpoints with the auth scheme each takes.
func Routes() []Route {
	routes := make([]Route, len(endpoints))
	for i, ep := range endpoints {
		routes[i] = Route{Method: ep.method, Path: ep.path, Auth: authNames[ep.auth]}
	}
	return routes
}

// Product lines with a path in the interface.
const (
	productGapMedical = "gap-medical"
	productTravel     = "travel"
	productTuition    = "tuition"
)

// Premium formulas and answer values (documented in package insurancetest).
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

// Quote is a stored quote: the body of a quote answer, and what Quotes lists.
type Quote struct {
	QuoteID       string    `json:"quote_id"`
	Product       string    `json:"product"`
	Status        string    `json:"status"`
	CustomerEmail string    `json:"customer_email_address"`
	PolicyID      string    `json:"policy_id,omitempty"` // once bought
	Premium       float64   `json:"premium"`
	Currency      string    `json:"currency"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

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
}

// event is a stored insured event; it is also the body of its answer.
type event struct {
	ID string `json:"id"`
	eventRequest
	Metadata                  map[string]any      `json:"metadata"`
	InsuranceRequired         bool                `json:"insurance_required"`
	InsuranceRequirementsType string              `json:"insurance_requirements_type"`
	Purpose                   string              `json:"purpose"`
	AdditionalInsured         []map[string]string `json:"additional_insured"`
	Attributes                eventAttributes     `json:"attributes"`
}

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

type eventAttributes struct {
	RoomBlockProtection struct {
		Rate      float64 `json:"rate"`
		Enabled   bool    `json:"enabled"`
		EventType string  `json:"event_type"`
	} `json:"room_block_protection"`
}

type customerSecret struct {
	email   string
	expires time.Time
}

func (s *Sandbox) listProducts([]byte, string) (int, any, error) {
	return http.StatusOK, map[string]any{"products": []map[string]string{
		{"id": productGapMedical, "name": "Gap medical", "quote_path": "/v1/quote/gap-medical", "purchase_path": "/v1/purchase/gap-medical"},
		{"id": productTravel, "name": "Travel", "quote_path": "/v1/quote/travel"},
		{"id": productTuition, "name": "Tuition", "purchase_path": "/v1/purchase/tuition"},
	}}, nil
}

func (s *Sandbox) quoteTravel(body []byte, _ string) (int, any, error) {
	var req travelQuoteRequest
	if err := decode(body, &req); err != nil {
		return 0, nil, err
	}
	pa := req.PolicyAttributes
	if req.Customer.EmailAddress == "" {
		return 0, nil, missing("customer.email_address")
	}
	start, err := requiredDay("policy_attributes.trip_start_date", pa.TripStartDate)
	if err != nil {
		return 0, nil, err
	}
	end, err := requiredDay("policy_attributes.trip_end_date", pa.TripEndDate)
	if err != nil {
		return 0, nil, err
	}
	if _, _, err := day("policy_attributes.initial_deposit_date", pa.InitialDepositDate); err != nil {
		return 0, nil, err
	}
	switch {
	case pa.TripCost == 0:
		return 0, nil, missing("policy_attributes.trip_cost")
	case pa.TripCost < 0 || math.IsInf(pa.TripCost, 0):
		return 0, nil, badRequest("invalid_parameter", "policy_attributes.trip_cost must be a positive number")
	case end.Before(start):
		return 0, nil, badRequest("invalid_dates", "policy_attributes.trip_end_date is before policy_attributes.trip_start_date")
	}
	days := float64(end.Sub(start)/(24*time.Hour)) + 1
	travelers := float64(1 + len(pa.AdditionalTravelers))
	premium := money(pa.TripCost*travelRatePerCost + travelPerTravelerDay*days*travelers)
	return s.saveQuote(productTravel, req.QuoteID, req.Customer.EmailAddress, premium, req.Currency)
}

func (s *Sandbox) quoteGapMedical(body []byte, _ string) (int, any, error) {
	var req gapMedicalQuoteRequest
	if err := decode(body, &req); err != nil {
		return 0, nil, err
	}
	if req.Customer.EmailAddress == "" {
		return 0, nil, missing("customer.email_address")
	}
	start, _ := req.PolicyAttributes["coverage_start_date"].(string)
	if _, err := requiredDay("policy_attributes.coverage_start_date", start); err != nil {
		return 0, nil, err
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
	q.Premium, q.Currency, q.CustomerEmail, q.UpdatedAt = premium, currency, email, s.Now().UTC()
	return http.StatusOK, *q, nil
}

// newQuote stores a new quote. The caller holds s.mu.
func (s *Sandbox) newQuote(product, email string, premium float64, currency string) *Quote {
	now := s.Now().UTC()
	q := &Quote{
		QuoteID: "q_" + randomHex(8), Product: product, Status: quoteStatusQuoted,
		Premium: premium, Currency: currency, CustomerEmail: email,
		CreatedAt: now, UpdatedAt: now,
	}
	s.quotes.put(q.QuoteID, q)
	return q
}

// quoteFor finds a quote of product that can still be bought or updated. The caller
// holds s.mu.
func (s *Sandbox) quoteFor(product, id string) (*Quote, error) {
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

func (s *Sandbox) purchaseTuition(body []byte, _ string) (int, any, error) {
	var req tuitionPurchaseRequest
	if err := decode(body, &req); err != nil {
		return 0, nil, err
	}
	if req.QuoteID == "" {
		return 0, nil, missing("quote_id")
	}
	return s.buy(productTuition, req.QuoteID, "", req.PaymentMethod)
}

func (s *Sandbox) purchaseGapMedical(body []byte, secretEmail string) (int, any, error) {
	var req gapMedicalPurchaseRequest
	if err := decode(body, &req); err != nil {
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
func (s *Sandbox) buy(product, quoteID, secretEmail string, pm wirePaymentMethod) (int, any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, err := s.quoteFor(product, quoteID)
	if err != nil {
		return 0, nil, err
	}
	if secretEmail != "" && !strings.EqualFold(secretEmail, q.CustomerEmail) {
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
		PolicyID: "pol_" + randomHex(8), QuoteID: q.QuoteID, Product: q.Product,
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

func (s *Sandbox) createCustomerSecret(body []byte, _ string) (int, any, error) {
	var req customerSecretRequest
	if err := decode(body, &req); err != nil {
		return 0, nil, err
	}
	if err := checkEmail("email_address", req.EmailAddress); err != nil {
		return 0, nil, err
	}
	secret := customerSecretPrefix + randomHex(customerSecretHexBytes)
	expires := s.Now().Add(s.secretTTL)
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

// The status and type of a newly onboarded partner.
const (
	partnerStatusPendingOnboarding = "PENDING_ONBOARDING"
	partnerTypeLimited             = "LIMITED"
)

func (s *Sandbox) onboardPartner(body []byte, _ string) (int, any, error) {
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
		ID: uuid.New().String(), Status: partnerStatusPendingOnboarding, Type: partnerTypeLimited,
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

func (s *Sandbox) createEvent(body []byte, _ string) (int, any, error) {
	var req eventRequest
	if err := decode(body, &req); err != nil {
		return 0, nil, err
	}
	if req.EventName == "" {
		return 0, nil, missing("event_name")
	}
	start, err := requiredDay("event_start_date", req.EventStartDate)
	if err != nil {
		return 0, nil, err
	}
	end, err := requiredDay("event_end_date", req.EventEndDate)
	if err != nil {
		return 0, nil, err
	}
	if end.Before(start) {
		return 0, nil, badRequest("invalid_dates", "event_end_date is before event_start_date")
	}
	e := &event{
		ID:                        uuid.New().String(),
		eventRequest:              req,
		Metadata:                  map[string]any{},
		InsuranceRequired:         true,
		InsuranceRequirementsType: "GENERAL_LIABILITY",
		Purpose:                   "EVENT",
		AdditionalInsured:         []map[string]string{},
	}
	e.Attributes.RoomBlockProtection.Rate = 0.05
	e.Attributes.RoomBlockProtection.EventType = "INDOOR"
	s.mu.Lock()
	s.events.put(e.ID, e)
	s.mu.Unlock()
	return http.StatusCreated, e, nil
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
		return fmt.Errorf("insurancetest: no quote %q", quoteID)
	case q.PolicyID != "":
		return errors.New("insurancetest: quote " + quoteID + " is already purchased")
	}
	s.issuePolicy(q)
	return nil
}

// money rounds to cents.
func money(x float64) float64 { return math.Round(x*100) / 100 }
