package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
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
