package insurance

import "context"

// EventType is the kind of an insured event's venue. Values the SDK does not name are
// kept.
type EventType string

// EventTypeIndoor is the event type shown by the interface.
const EventTypeIndoor EventType = "INDOOR"

// CreateEventRequest is the body of CreateEvent.
type CreateEventRequest struct {
	EventName       string  `json:"event_name,omitempty"`
	EventStartDate  Date    `json:"event_start_date,omitzero"`
	EventEndDate    Date    `json:"event_end_date,omitzero"`
	EventStreet     string  `json:"event_street,omitempty"`
	EventCity       string  `json:"event_city,omitempty"`
	EventState      string  `json:"event_state,omitempty"`
	EventPostalCode string  `json:"event_postal_code,omitempty"`
	EventCountry    Country `json:"event_country,omitempty"`
}

func (r *CreateEventRequest) validate() error {
	if r == nil {
		return nilRequest()
	}
	return nil
}

// Event is an insured event record, the answer of CreateEvent.
type Event struct {
	Response                  `json:"-"`
	ID                        string              `json:"id"` // a uuid, as the interface says, or whatever id the service sent
	EventName                 string              `json:"event_name"`
	EventStartDate            Date                `json:"event_start_date"`
	EventEndDate              Date                `json:"event_end_date"`
	EventStreet               string              `json:"event_street"`
	EventCity                 string              `json:"event_city"`
	EventState                string              `json:"event_state"`
	EventPostalCode           string              `json:"event_postal_code"`
	EventCountry              Country             `json:"event_country"`
	Metadata                  map[string]any      `json:"metadata"`
	InsuranceRequired         bool                `json:"insurance_required"`
	InsuranceRequirementsType string              `json:"insurance_requirements_type"`
	Purpose                   string              `json:"purpose"`
	AdditionalInsured         []AdditionalInsured `json:"additional_insured"`
	Attributes                EventAttributes     `json:"attributes"`
}

// AdditionalInsured is a business insured beside the event's organiser.
type AdditionalInsured struct {
	BusinessName string  `json:"business_name"`
	Street       string  `json:"street"`
	City         string  `json:"city"`
	State        string  `json:"state"`
	PostalCode   string  `json:"postal_code"`
	Country      Country `json:"country"`
}

// EventAttributes are the cover options of an event.
type EventAttributes struct {
	RoomBlockProtection RoomBlockProtection `json:"room_block_protection"`
}

// RoomBlockProtection is the room block protection of an event.
type RoomBlockProtection struct {
	Rate      float64   `json:"rate"`
	Enabled   bool      `json:"enabled"`
	EventType EventType `json:"event_type"`
}

// CreateEvent records an insured event (POST /v1/events, Basic auth). Its errors
// carry the events error body (APIError.Type, Code, Message, Reason). It is never
// sent twice once it may have reached the server.
func (c *Client) CreateEvent(ctx context.Context, req *CreateEventRequest, opts ...Option) (*Event, error) {
	out := new(Event)
	_, err := c.call(ctx, endpointCreateEvent, req, out, opts)
	return result(out, err)
}
