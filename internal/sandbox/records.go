package sandbox

// What the sandbox holds, for tests to assert on. Each list is oldest first.

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
	return copies(s.policies.all())
}

// Quotes returns the quotes made.
func (s *Sandbox) Quotes() []Quote {
	s.mu.Lock()
	defer s.mu.Unlock()
	return copies(s.quotes.all())
}

// Partners returns the partners onboarded.
func (s *Sandbox) Partners() []Partner {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Partner, 0, len(s.partners.order))
	for _, p := range s.partners.all() {
		out = append(out, Partner{p.ID, p.EntityName, p.AdministrativeEmailAddress, p.Country, p.Status, p.Type})
	}
	return out
}

// Events returns the insured events recorded.
func (s *Sandbox) Events() []Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Event, 0, len(s.events.order))
	for _, e := range s.events.all() {
		out = append(out, Event{e.ID, e.EventName, e.EventStartDate, e.EventEndDate})
	}
	return out
}

// copies copies stored records out, so callers cannot change what the sandbox holds.
func copies[T any](stored []*T) []T {
	out := make([]T, len(stored))
	for i, r := range stored {
		out[i] = *r
	}
	return out
}
