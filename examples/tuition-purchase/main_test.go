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
	"github.com/partnerinsure/insurance-go/insurancetest"
)

func TestBuysTuitionCover(t *testing.T) {
	t.Setenv(insurance.EnvBaseURL, "")
	var out strings.Builder
	require.NoError(t, run(context.Background(), nil, &out))
	assert.Regexp(t, `Policy pol_[0-9a-f]+ issued for quote q_[0-9a-f]+ \(HTTP 201\)`, out.String())

	out.Reset()
	require.NoError(t, run(context.Background(), []string{"-card", insurancetest.CardDeclined}, &out))
	assert.Contains(t, out.String(), "Payment declined (402)")
}

// TestHelp: -h, -help and --help print the usage and exit 0; a mistake exits 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, "tuition-purchase", func(args []string, out io.Writer) error {
		return run(t.Context(), args, out)
	}, "tuition-purchase buys tuition cover by card", "-card string", "INSURANCE_BASE_URL", "INSURANCE_CLIENT_ID", "INSURANCE_CLIENT_SECRET")
}
