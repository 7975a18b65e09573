package insurance

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
)

// Customer is the insured person of a quote or purchase. Every field is optional on
// the wire; the service answers 400 when it needs one that is missing.
type Customer struct {
	EmailAddress string  `json:"email_address,omitempty"`
	FirstName    string  `json:"first_name,omitempty"`
	MiddleName   string  `json:"middle_name,omitempty"`
	LastName     string  `json:"last_name,omitempty"`
	PhoneNumber  string  `json:"phone_number,omitempty"`
	Street       string  `json:"street,omitempty"`
	City         string  `json:"city,omitempty"`
	State        string  `json:"state,omitempty"`
	PostalCode   string  `json:"postal_code,omitempty"`
	Country      Country `json:"country,omitempty"`
}

// CoverageType is the coverage level of a travel quote. Values the SDK does not name
// are kept as they are.
type CoverageType string

// CoverageBasic is the coverage level shown by the interface.
const CoverageBasic CoverageType = "BASIC"

// TravelQuoteRequest is the body of QuoteTravel. Leave QuoteID empty to create a
// quote; set it to update that quote.
type TravelQuoteRequest struct {
	Customer         Customer               `json:"customer,omitzero"`
	Metadata         map[string]any         `json:"metadata,omitempty"`
	PartnerID        string                 `json:"partner_id,omitempty"`
	PolicyAttributes TravelPolicyAttributes `json:"policy_attributes,omitzero"`
	QuoteID          string                 `json:"quote_id,omitempty"`
	EmailQuote       *bool                  `json:"email_quote,omitempty"` // nil: not sent; Bool(false) sends false
	Language         string                 `json:"language,omitempty"`
	Currency         string                 `json:"currency,omitempty"` // a currency code, e.g. "USD"
}

// TravelPolicyAttributes describe the trip to insure.
type TravelPolicyAttributes struct {
	TripCost             float64      `json:"trip_cost,omitempty"`
	TripCostCurrency     string       `json:"trip_cost_currency,omitempty"`
	TripStartDate        Date         `json:"trip_start_date,omitzero"`
	TripEndDate          Date         `json:"trip_end_date,omitzero"`
	InitialDepositDate   Date         `json:"initial_deposit_date,omitzero"`
	Origin               Origin       `json:"origin,omitzero"`
	DestinationCountries []Country    `json:"destination_countries,omitempty"`
	AdditionalTravelers  []Traveler   `json:"additional_travelers,omitempty"`
	CoverageType         CoverageType `json:"coverage_type,omitempty"`
}

// Origin is where a trip starts.
type Origin struct {
	State   string  `json:"state,omitempty"`
	Country Country `json:"country,omitempty"`
}

// Traveler is a person travelling with the customer.
type Traveler struct {
	FirstName  string `json:"first_name,omitempty"`
	MiddleName string `json:"middle_name,omitempty"`
	LastName   string `json:"last_name,omitempty"`
}

func (r *TravelQuoteRequest) validate() error {
	if r == nil {
		return nilRequest()
	}
	return nil
}

// GapMedicalQuoteRequest is the body of QuoteGapMedical. The interface does not show
// it; it follows the travel quote, with the coverage start date the client-side
// component takes.
type GapMedicalQuoteRequest struct {
	Customer         Customer                   `json:"customer,omitzero"`
	Metadata         map[string]any             `json:"metadata,omitempty"`
	PartnerID        string                     `json:"partner_id,omitempty"`
	PolicyAttributes GapMedicalPolicyAttributes `json:"policy_attributes,omitzero"`
	QuoteID          string                     `json:"quote_id,omitempty"`
	Language         string                     `json:"language,omitempty"`
	Currency         string                     `json:"currency,omitempty"`
}

// GapMedicalPolicyAttributes describe the gap-medical cover. Extra carries attributes
// the interface does not name; they are merged into the JSON object, and the named
// fields win over an Extra key of the same name.
type GapMedicalPolicyAttributes struct {
	CoverageStartDate Date           `json:"coverage_start_date,omitzero"`
	Extra             map[string]any `json:"-"`
}

// IsZero reports whether no attribute is set (the object is then left out).
func (a GapMedicalPolicyAttributes) IsZero() bool {
	return a.CoverageStartDate.IsZero() && len(a.Extra) == 0
}

// MarshalJSON merges Extra with the named attributes.
func (a GapMedicalPolicyAttributes) MarshalJSON() ([]byte, error) {
	merged := make(map[string]any, len(a.Extra)+1)
	maps.Copy(merged, a.Extra)
	if !a.CoverageStartDate.IsZero() {
		merged["coverage_start_date"] = a.CoverageStartDate
	}
	return json.Marshal(merged)
}

// UnmarshalJSON fills the named attributes and keeps the others in Extra.
func (a *GapMedicalPolicyAttributes) UnmarshalJSON(b []byte) error {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	*a = GapMedicalPolicyAttributes{}
	for k, v := range all {
		if k == "coverage_start_date" {
			if err := json.Unmarshal(v, &a.CoverageStartDate); err != nil {
				return err
			}
			continue
		}
		var value any
		if err := json.Unmarshal(v, &value); err != nil {
			return err
		}
		if a.Extra == nil {
			a.Extra = map[string]any{}
		}
		a.Extra[k] = value
	}
	return nil
}

func (r *GapMedicalQuoteRequest) validate() error {
	if r == nil {
		return nilRequest()
	}
	return nil
}

// Quote is the answer of a quote call. The interface does not show its fields:
// QuoteID is read from "quote_id" (or "id"); Raw and Decode give the rest, such as
// the premium.
type Quote struct {
	Response `json:"-"`
	QuoteID  string `json:"quote_id"`
	// Created is true when the service created the quote (201) and false when it
	// updated the quote named in the request (200).
	Created bool `json:"-"`
}

// UnmarshalJSON reads the quote's id from "quote_id", or else "id".
func (q *Quote) UnmarshalJSON(b []byte) error { return q.decodeBody(b) }

func (q *Quote) decodeBody(b []byte) error {
	ids, fallback, err := decodeIDs(b)
	q.QuoteID = cmp.Or(string(ids.QuoteID), fallback)
	return err
}

// checkAnswer refuses a quote without an id: every later call about it needs one.
func (q *Quote) checkAnswer() error {
	if q.QuoteID == "" {
		return errors.New(`the answer carries no "quote_id" (nor "id")`)
	}
	return nil
}

// QuoteTravel creates a travel quote, or updates the one req.QuoteID names
// (POST /v1/quote/travel, Basic auth, or the x-api-client-id header when the Client
// has only a client id). A quote already bought answers ErrQuoteUnavailable.
func (c *Client) QuoteTravel(ctx context.Context, req *TravelQuoteRequest, opts ...Option) (*Quote, error) {
	return quote(ctx, c, endpointQuoteTravel, req, opts)
}

// QuoteGapMedical creates or updates a gap-medical quote (POST /v1/quote/gap-medical,
// x-api-client-id header only: the client secret is never sent).
func (c *Client) QuoteGapMedical(ctx context.Context, req *GapMedicalQuoteRequest, opts ...Option) (*Quote, error) {
	return quote(ctx, c, endpointQuoteGapMedical, req, opts)
}

func quote(ctx context.Context, c *Client, ep endpoint, req any, opts []Option) (*Quote, error) {
	q := new(Quote)
	if _, err := c.call(ctx, ep, req, q, opts); err != nil {
		return nil, err
	}
	q.Created = q.StatusCode == http.StatusCreated
	return q, nil
}
