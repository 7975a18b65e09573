package main

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/examples/internal/cli/clitest"
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

// TestHelp: -h, -help and --help print the usage and exit 0; a mistake exits 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, "events", func(args []string, out io.Writer) error {
		return run(t.Context(), args, out)
	}, "events records an insured event", "-city string", "INSURANCE_BASE_URL", "INSURANCE_CLIENT_ID", "INSURANCE_CLIENT_SECRET")
}
