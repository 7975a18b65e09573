package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
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
