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

func TestOnboardsAPartner(t *testing.T) {
	t.Setenv(insurance.EnvBaseURL, "")
	var out strings.Builder
	require.NoError(t, run(context.Background(), []string{"-travel-retailer", "-country", "CA"}, &out))
	assert.Contains(t, out.String(), "Partner Acme Travel onboarded: id ")
	assert.Contains(t, out.String(), "type LIMITED, status PENDING_ONBOARDING")
	assert.Contains(t, out.String(), "Travel retailer onboarding: https://")

	err := run(context.Background(), []string{"-country", "MX"}, &out)
	assert.ErrorContains(t, err, `fix the flags: insurance: invalid request: country must be US or CA, not "MX"`)
}

// TestHelp: -h, -help and --help print the usage and exit 0; a mistake exits 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, "onboard-partner", func(args []string, out io.Writer) error {
		return run(t.Context(), args, out)
	}, "onboard-partner onboards a new limited partner", "-travel-retailer", "INSURANCE_BASE_URL", "INSURANCE_CLIENT_ID", "INSURANCE_CLIENT_SECRET")
}
