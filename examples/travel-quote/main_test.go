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

func TestQuotesTravel(t *testing.T) {
	t.Setenv(insurance.EnvBaseURL, "")
	var out strings.Builder
	require.NoError(t, run(context.Background(), []string{"-trip-cost", "1000", "-start", "2027-03-01", "-end", "2027-03-03"}, &out))
	assert.Regexp(t, `Quote q_[0-9a-f]+ created \(HTTP 201\)`, out.String())
	assert.Contains(t, out.String(), `"premium":52.5`)
}

func TestRejectedQuoteExplainsWhy(t *testing.T) {
	t.Setenv(insurance.EnvBaseURL, "")
	var out strings.Builder
	err := run(context.Background(), []string{"-start", "2027-03-10", "-end", "2027-03-01"}, &out)
	assert.EqualError(t, err, "the service refused the quote: policy_attributes.trip_end_date is before policy_attributes.trip_start_date")
	err = run(context.Background(), []string{"-start", "March"}, &out)
	assert.ErrorContains(t, err, "want YYYY-MM-DD")
}

// TestHelp: -h, -help and --help print the usage and exit 0; a mistake exits 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, "travel-quote", func(args []string, out io.Writer) error {
		return run(t.Context(), args, out)
	}, "travel-quote quotes travel cover", "-quote-id string", "INSURANCE_BASE_URL", "INSURANCE_CLIENT_ID", "INSURANCE_CLIENT_SECRET")
}
