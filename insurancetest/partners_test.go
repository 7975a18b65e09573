package insurancetest_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

func TestOnboardPartner(t *testing.T) {
	srv := newSandbox(t)
	c := srv.Client()
	req := &insurance.OnboardPartnerRequest{
		EntityName: "Acme Travel", AdministrativeEmailAddress: "admin@acme.example",
		Country: insurance.CountryUS, Website: "https://acme.example", City: "Austin",
	}

	partner, err := c.OnboardPartner(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, partner.StatusCode)
	assert.NoError(t, uuid.Validate(partner.ID), "the sandbox answers a uuid")
	assert.Equal(t, insurance.PartnerTypeLimited, partner.Type)
	assert.Equal(t, insurance.PartnerStatusPendingOnboarding, partner.Status)
	assert.Equal(t, "Acme Travel", partner.EntityName)
	assert.Equal(t, "Austin", partner.City)
	assert.Empty(t, partner.TravelRetailerOnboardingURL)
	assert.NotContains(t, string(partner.Raw), "travel_retailer_onboarding_url")

	req.TravelRetailer = insurance.Bool(true)
	retailer, err := c.OnboardPartner(ctx, req)
	require.NoError(t, err)
	assert.NotEqual(t, partner.ID, retailer.ID)
	assert.Contains(t, retailer.TravelRetailerOnboardingURL, retailer.ID)
	assert.False(t, retailer.TravelRetailerOnboardingComplete)

	// The sandbox checks too, for callers that skip the SDK's local validation.
	for field, body := range map[string]map[string]any{
		"entity_name":                  {"administrative_email_address": "a@b.example", "country": "US", "website": "w"},
		"administrative_email_address": {"entity_name": "E", "country": "US", "website": "w"},
		"country":                      {"entity_name": "E", "administrative_email_address": "a@b.example", "website": "w"},
		"website":                      {"entity_name": "E", "administrative_email_address": "a@b.example", "country": "US"},
	} {
		_, err := c.Do(ctx, http.MethodPost, "/v1/partners/onboard", insurance.AuthBasic, body, nil)
		assert.ErrorIs(t, err, insurance.ErrBadRequest, field)
		assert.Equal(t, "missing required parameter: "+field, apiError(t, err).Message)
	}
	_, err = c.Do(ctx, http.MethodPost, "/v1/partners/onboard", insurance.AuthBasic,
		map[string]any{"entity_name": "E", "administrative_email_address": "a@b.example", "country": "MX", "website": "w"}, nil)
	assert.Equal(t, `country must be US or CA, not "MX"`, apiError(t, err).Message)
}
