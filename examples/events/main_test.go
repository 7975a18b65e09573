package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

func TestRecordsAnEvent(t *testing.T) {
	t.Setenv(insurance.EnvBaseURL, "")
	var out strings.Builder
	require.NoError(t, run(context.Background(), []string{"-name", "Gala"}, &out))
	assert.Regexp(t, `Event "Gala" recorded: id [0-9a-f-]{36}, 2027-06-01 to 2027-06-03`, out.String())
	assert.Contains(t, out.String(), "room block protection: enabled false, rate 0.05, INDOOR")

	err := run(context.Background(), []string{"-start", "2027-06-05", "-end", "2027-06-01"}, &out)
	assert.EqualError(t, err, "event refused: event_end_date is before event_start_date (invalid_dates, reason invalid_request)")
}
