package insurancetest

import (
	"net/http"
	"time"

	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

// NewTuitionQuote creates a tuition quote of the first partner (ClientID) for
// customerEmail, as happens outside the interface, and returns its quote id for
// PurchaseTuition.
func (s *Server) NewTuitionQuote(customerEmail string) string {
	return s.sandbox.NewTuitionQuote(customerEmail)
}

// NewTuitionQuoteFor creates a tuition quote of the partner clientID (ClientID or
// one from AddPartner) for customerEmail. It panics when clientID is no partner's: a
// mistake in the test itself.
func (s *Server) NewTuitionQuoteFor(clientID, customerEmail string) string {
	id, err := s.sandbox.NewTuitionQuoteFor(clientID, customerEmail)
	if err != nil {
		panic(err.Error())
	}
	return id
}

// MarkPurchased binds a policy to the quote, as when it is bought outside the
// interface; quoting it again then answers 422.
func (s *Server) MarkPurchased(quoteID string) error { return s.sandbox.MarkPurchased(quoteID) }

// Request is one request of the interface the sandbox received. It never holds a
// secret.
type Request struct {
	Method string
	Path   string
	// Auth is the scheme the request carried: "basic", "client-id", "bearer" or
	// "none" ("basic+client-id" when it carried two; "other" for another scheme).
	Auth string
	// ClientID is the client id the request carried, in its Basic credentials or
	// else its x-api-client-id header, when it is a partner's (so a secret sent in
	// its place is never shown); empty otherwise, and for a Bearer customer secret.
	ClientID string
	// Header holds the request's headers but Authorization, Proxy-Authorization,
	// x-api-client-id and Cookie, within 8 KiB with the path.
	Header http.Header
	// HeaderTruncated is true when the path was cut (at 4 KiB) or headers left out
	// (past 8 KiB, in name order).
	HeaderTruncated bool
	// Body is the body as received, with card numbers, account numbers and
	// verification codes masked (under those keys in any case: "Number" too), and
	// cut at 64 KiB. It is empty for a request whose body the sandbox did not read:
	// one to no endpoint, by the wrong method, or without valid credentials.
	Body []byte
	// BodyTruncated is true when Body holds only the first 64 KiB of the masked
	// body.
	BodyTruncated bool
	// StatusCode is what the sandbox answered; 0 when a fault dropped the connection
	// or the caller gave up during a Delay.
	StatusCode int
	ReceivedAt time.Time // on the sandbox's clock
	// Warning is what the answer's X-Sandbox-Warning header said: the fields of a
	// gap-medical quote or purchase body the sandbox accepted without reading them.
	Warning string
}

// Requests returns every request of the interface the sandbox received, oldest first.
func (s *Server) Requests() []Request {
	return convert(s.sandbox.Requests(), func(r sandbox.Request) Request { return Request(r) })
}

// Policy is a policy the sandbox issued.
type Policy struct {
	PolicyID, QuoteID, Product string
	Status                     string // ACTIVE
	CustomerEmail              string
	Premium                    float64
	Currency                   string
	CreatedAt                  time.Time // on the sandbox's clock
	ClientID                   string    // the partner whose quote it binds
}

// Policies returns every policy issued, oldest first: through the interface or
// MarkPurchased.
func (s *Server) Policies() []Policy {
	return convert(s.sandbox.Policies(), func(p sandbox.Policy) Policy { return Policy(p) })
}

// Quote is a quote the sandbox holds.
type Quote struct {
	QuoteID, Product, Status, CustomerEmail string
	PolicyID                                string // once bought
	Premium                                 float64
	Currency                                string
	CreatedAt, UpdatedAt                    time.Time
	ClientID                                string // the partner that made it
}

// Quotes returns every quote, oldest first: bought or not, from the interface or
// NewTuitionQuote.
func (s *Server) Quotes() []Quote {
	return convert(s.sandbox.Quotes(), func(q sandbox.Quote) Quote { return Quote(q) })
}

// Partner is a partner the sandbox onboarded.
type Partner struct {
	ID, EntityName, AdministrativeEmailAddress, Country, Status, Type string
}

// Partners returns every partner onboarded, oldest first.
func (s *Server) Partners() []Partner {
	return convert(s.sandbox.Partners(), func(p sandbox.Partner) Partner { return Partner(p) })
}

// Event is an insured event the sandbox recorded.
type Event struct {
	ID, EventName, EventStartDate, EventEndDate string
}

// Events returns every insured event recorded, oldest first.
func (s *Server) Events() []Event {
	return convert(s.sandbox.Events(), func(e sandbox.Event) Event { return Event(e) })
}

// convert copies the sandbox's records into this package's types of the same fields.
func convert[S, T any](in []S, to func(S) T) []T {
	out := make([]T, len(in))
	for i, r := range in {
		out[i] = to(r)
	}
	return out
}
