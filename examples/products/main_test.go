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

func TestListsTheProducts(t *testing.T) {
	t.Setenv(insurance.EnvBaseURL, "")
	var out strings.Builder
	require.NoError(t, run(context.Background(), nil, &out))
	assert.Contains(t, out.String(), "3 products (request id req_")
	assert.Contains(t, out.String(), "- travel (Travel): map[id:travel name:Travel quote_path:/v1/quote/travel]")
}

// TestHelp: -h, -help and --help print the usage and exit 0; a mistake exits 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, "products", func(args []string, out io.Writer) error {
		return run(t.Context(), args, out)
	}, "products lists the products the partner can sell (GET /v1/products).", "INSURANCE_BASE_URL", "INSURANCE_CLIENT_ID", "INSURANCE_CLIENT_SECRET")
}
