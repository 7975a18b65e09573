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

func TestChecksOutFromTheBrowserSide(t *testing.T) {
	t.Setenv(insurance.EnvBaseURL, "")
	var out strings.Builder
	require.NoError(t, run(context.Background(), nil, &out))
	assert.Contains(t, out.String(), "Backend minted a customer secret for ada@example.com")
	assert.Regexp(t, `Browser bought policy pol_[0-9a-f]+ for quote q_[0-9a-f]+\.`, out.String())

	out.Reset()
	require.NoError(t, run(context.Background(), []string{"-token", insurancetest.TokenDeclined}, &out))
	assert.Contains(t, out.String(), "payment declined (402)")
}

// TestBrowserHoldsNoPartnerSecret: the browser side works with a client that has
// only the client id, and the page data has no room for the partner secret.
func TestBrowserHoldsNoPartnerSecret(t *testing.T) {
	srv := insurancetest.NewServer()
	defer srv.Close()
	ctx := context.Background()
	secret, err := srv.Client().CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	page := checkoutPage{ClientID: srv.ClientID, CustomerEmail: "ada@example.com", CoverageStartDate: insurance.NewDate(2027, 1, 1), CustomerSecret: secret.Secret}
	browser, err := insurance.NewClient(srv.URL, insurance.WithClientID(page.ClientID))
	require.NoError(t, err)

	policy, err := browserCheckout(ctx, browser, page, insurancetest.TokenOK)
	require.NoError(t, err)
	assert.NotEmpty(t, policy.PolicyID)
	assert.NotContains(t, strings.Join([]string{page.ClientID, page.CustomerEmail, page.CustomerSecret}, " "), srv.ClientSecret)
}
