package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

func TestListsTheProducts(t *testing.T) {
	t.Setenv(insurance.EnvBaseURL, "")
	var out strings.Builder
	require.NoError(t, run(context.Background(), &out))
	assert.Contains(t, out.String(), "3 products (request id req_")
	assert.Contains(t, out.String(), "- travel (Travel): map[id:travel name:Travel quote_path:/v1/quote/travel]")
}
