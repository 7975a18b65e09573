package sandbox

import (
	"fmt"
	"time"
)

// What the sandbox holds, for tests to assert on. Each list is oldest first.

// Policy is an issued policy.
type Policy struct {
	PolicyID      string    `json:"policy_id"`
	QuoteID       string    `json:"quote_id"`
	Product       string    `json:"product"`
	CustomerEmail string    `json:"customer_email"`
	Premium       float64   `json:"premium"`
	Currency      string    `json:"currency"`
	CreatedAt     time.Time `json:"created_at"`
}

// Quote is a quote, bought or not.
type Quote struct {
	QuoteID       string    `json:"quote_id"`
	Product       string    `json:"product"`
	Status        string    `json:"status"`
	CustomerEmail string    `json:"customer_email"`
	PolicyID      string    `json:"policy_id,omitempty"` // once bought
	Premium       float64   `json:"premium"`
	Currency      string    `json:"currency"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

// Partner is an onboarded partner.
type Partner struct {
	ID                         string `json:"id"`
	EntityName                 string `json:"entity_name"`
	AdministrativeEmailAddress string `json:"administrative_email_address"`
	Country                    string `json:"country"`
	Status                     string `json:"status"`
	Type                       string `json:"type"`
}

// Event is a recorded insured event.
type Event struct {
	ID             string `json:"id"`
	EventName      string `json:"event_name"`
	EventStartDate string `json:"event_start_date"`
	EventEndDate   string `json:"event_end_date"`
}

// Policies returns the policies issued.
func (s *Sandbox) Policies() []Policy {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Policy
	for _, p := range s.policies.all() {
		out = append(out, Policy{p.PolicyID, p.QuoteID, p.Product, p.CustomerEmailAddress, p.Premium, p.Currency, p.CreatedAt})
	}
	return out
}

// Quotes returns the quotes made.
func (s *Sandbox) Quotes() []Quote {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Quote
	for _, q := range s.quotes.all() {
		out = append(out, Quote{q.QuoteID, q.Product, q.Status, q.CustomerEmailAddress, q.PolicyID, q.Premium, q.Currency, q.CreatedAt, q.UpdatedAt})
	}
	return out
}

// Partners returns the partners onboarded.
func (s *Sandbox) Partners() []Partner {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Partner
	for _, p := range s.partners.all() {
		field := func(k string) string { return fmt.Sprint(p[k]) }
		out = append(out, Partner{field("id"), field("entity_name"), field("administrative_email_address"), field("country"), field("status"), field("type")})
	}
	return out
}

// Events returns the insured events recorded.
func (s *Sandbox) Events() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Event
	for _, e := range s.events.all() {
		out = append(out, Event{e.ID, e.EventName, e.EventStartDate, e.EventEndDate})
	}
	return out
}
