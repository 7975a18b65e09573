package sandbox

import (
	"fmt"
	"math"
	"net/http"
	"time"
)

// Premium formulas and answer values (documented in package insurancetest).
const (
	travelRatePerCost    = 0.045 // 4.5% of the trip cost
	travelPerTravelerDay = 2.50  // plus 2.50 per traveller per trip day
	gapMedicalMonthly    = 39.00 // gap-medical: a flat monthly premium
	tuitionPremium       = 120.00
	defaultCurrency      = "USD"
	quoteStatusQuoted    = "QUOTED"
	quoteStatusPurchased = "PURCHASED"
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
	ClientID      string    `json:"-"` // the partner whose quote it is
}

// quoteTravel requires the trip and nothing of the customer. The interface shows that
// a travel quote answers 400 "most likely a missing parameter" without saying which,
// and no required flag of any field: the sandbox requires only what it cannot answer
// without, the trip's cost and dates, which its premium is computed from. The
// customer's email address is not one: nothing of a travel quote depends on it (the
// interface has no travel purchase and no customer secret for it), and
// api/openapi.yaml, which must not invent a requirement, takes a body without it.
// Given, it must be an address, as the document's format: email says.
func (s *Sandbox) quoteTravel(body []byte, c caller) (int, any, error) {
	var req travelQuoteRequest
	if err := decode(body, &req); err != nil {
		return 0, nil, err
	}
	pa := req.PolicyAttributes
	if err := checkOptionalEmail("customer.email_address", req.Customer.EmailAddress); err != nil {
		return 0, nil, err
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
	return s.saveQuote(productTravel, c.clientID, req.QuoteID, req.Customer.EmailAddress, premium, req.Currency)
}

func (s *Sandbox) quoteGapMedical(body []byte, c caller) (int, any, error) {
	var req gapMedicalQuoteRequest
	if err := decode(body, &req); err != nil {
		return 0, nil, err
	}
	if err := checkEmail("customer.email_address", req.Customer.EmailAddress); err != nil {
		return 0, nil, err
	}
	if _, err := requiredDay("policy_attributes.coverage_start_date", req.PolicyAttributes.CoverageStartDate); err != nil {
		return 0, nil, err
	}
	return s.saveQuote(productGapMedical, c.clientID, req.QuoteID, req.Customer.EmailAddress, gapMedicalMonthly, req.Currency)
}

// saveQuote creates a quote of partner clientID (201) when id is empty and updates
// quote id (200) otherwise: 400 when it is unknown, another partner's or of another
// product, 422 when it was bought.
func (s *Sandbox) saveQuote(product, clientID, id, email string, premium float64, currency string) (int, any, error) {
	if currency == "" {
		currency = defaultCurrency
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if id == "" {
		return http.StatusCreated, *s.newQuote(product, clientID, email, premium, currency), nil
	}
	q, err := s.quoteFor(product, clientID, id)
	if err != nil {
		return 0, nil, err
	}
	q.Premium, q.Currency, q.CustomerEmail, q.UpdatedAt = premium, currency, email, s.Now().UTC()
	return http.StatusOK, *q, nil
}

// newQuote stores a new quote of partner clientID. The caller holds s.mu.
func (s *Sandbox) newQuote(product, clientID, email string, premium float64, currency string) *Quote {
	now := s.Now().UTC()
	q := &Quote{
		QuoteID: "q_" + s.ids.hex(idQuote, 8), ClientID: clientID, Product: product, Status: quoteStatusQuoted,
		Premium: premium, Currency: currency, CustomerEmail: email,
		CreatedAt: now, UpdatedAt: now,
	}
	s.quotes.put(q.QuoteID, q)
	return q
}

// quoteFor finds a quote of product and of partner clientID that can still be
// bought or updated; another partner's quote is as unknown as one never made. The
// caller holds s.mu.
func (s *Sandbox) quoteFor(product, clientID, id string) (*Quote, error) {
	q, ok := s.quotes.get(id)
	switch {
	case !ok || q.ClientID != clientID:
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

// NewTuitionQuote creates a tuition quote of the first partner for email, as happens
// outside the interface, and returns its id.
func (s *Sandbox) NewTuitionQuote(email string) string {
	id, _ := s.NewTuitionQuoteFor(s.first.clientID, email)
	return id
}

// NewTuitionQuoteFor creates a tuition quote of the partner clientID for email, as
// happens outside the interface, and returns its id. It fails when clientID is no
// partner's.
func (s *Sandbox) NewTuitionQuoteFor(clientID, email string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.knownClientID(clientID) {
		return "", fmt.Errorf("insurancetest: %q is no partner's client id", clientID)
	}
	return s.newQuote(productTuition, clientID, email, tuitionPremium, defaultCurrency).QuoteID, nil
}

// money rounds to cents.
func money(x float64) float64 { return math.Round(x*100) / 100 }
