package sandbox

import (
	"net/http"
)

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

type eventAttributes struct {
	RoomBlockProtection struct {
		Rate      float64 `json:"rate"`
		Enabled   bool    `json:"enabled"`
		EventType string  `json:"event_type"`
	} `json:"room_block_protection"`
}

func (s *Sandbox) createEvent(body []byte, _ caller) (int, any, error) {
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
		ID:                        s.ids.uuid(idEvent),
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
