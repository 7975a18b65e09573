package insurancetest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

func TestCreateEvent(t *testing.T) {
	srv := newSandbox(t)
	c := srv.Client()
	req := &insurance.CreateEventRequest{
		EventName: "Summit", EventStartDate: insurance.NewDate(2027, time.June, 1), EventEndDate: insurance.NewDate(2027, time.June, 1),
		EventCity: "Chicago", EventCountry: "US",
	}

	event, err := c.CreateEvent(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, event.StatusCode)
	assert.NoError(t, uuid.Validate(event.ID), "the sandbox answers a uuid")
	assert.Equal(t, "Summit", event.EventName)
	assert.Equal(t, req.EventStartDate, event.EventStartDate)
	assert.Equal(t, "Chicago", event.EventCity)
	assert.Equal(t, insurance.EventTypeIndoor, event.Attributes.RoomBlockProtection.EventType)
	assert.NotNil(t, event.AdditionalInsured)

	req.EventEndDate = insurance.NewDate(2027, time.May, 31)
	_, err = c.CreateEvent(ctx, req)
	e := apiError(t, err)
	assert.Equal(t, 400, e.StatusCode)
	assert.Equal(t, "invalid_dates", e.Code)
	assert.Equal(t, "event_end_date is before event_start_date", e.Message)
}
