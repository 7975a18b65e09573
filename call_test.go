package insurance_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// TestEndpointWire checks, for every endpoint, the method, path, the one auth header,
// Accept and Content-Type, the exact JSON body of a fully populated request, and the
// raw answer kept on the result.
func TestEndpointWire(t *testing.T) {
	for _, ep := range wiretest.Endpoints() {
		t.Run(ep.Name, func(t *testing.T) {
			t.Parallel()
			c, mt := wiretest.NewMockClient(t)
			var rec wiretest.Recorder
			mt.RegisterResponder(ep.Method, wiretest.BaseURL+ep.Path, rec.Respond(ep.Status, wiretest.Fixture(t, ep.Response)))

			result, err := ep.Call(context.Background(), c)
			require.NoError(t, err)

			got := only(t, &rec)
			assert.Equal(t, ep.Method, got.Method)
			assert.Equal(t, ep.Path, got.Path)
			assert.Equal(t, ep.AuthValue, got.Header.Get(ep.AuthHeader))
			other := insurance.HeaderClientID
			if ep.AuthHeader == insurance.HeaderClientID {
				other = "Authorization"
			}
			assert.Empty(t, got.Header.Values(other), "exactly one auth scheme per request: %s must not be sent", other)
			assert.Len(t, got.Header.Values(ep.AuthHeader), 1)
			assert.Equal(t, "application/json", got.Header.Get("Accept"))
			assert.Regexp(t, `^insurance-go/\S+ go/go\S+$`, got.Header.Get("User-Agent"))
			if ep.Request == "" {
				assert.Empty(t, got.Body)
				assert.Empty(t, got.Header.Get("Content-Type"))
			} else {
				assert.Equal(t, "application/json", got.Header.Get("Content-Type"))
				assert.JSONEq(t, wiretest.Fixture(t, ep.Request), string(got.Body))
			}

			meta := responseOf(t, result)
			assert.Equal(t, ep.Status, meta.StatusCode)
			assert.JSONEq(t, wiretest.Fixture(t, ep.Response), string(meta.Raw))
			assert.Equal(t, "req_test_1", meta.RequestID())
		})
	}
}

// responseOf returns the Response every result embeds.
func responseOf(t *testing.T, result any) *insurance.Response {
	t.Helper()
	switch r := result.(type) {
	case *insurance.ProductList:
		return &r.Response
	case *insurance.Quote:
		return &r.Response
	case *insurance.Policy:
		return &r.Response
	case *insurance.CustomerSecret:
		return &r.Response
	case *insurance.Partner:
		return &r.Response
	case *insurance.Event:
		return &r.Response
	}
	t.Fatalf("unexpected result type %T", result)
	return nil
}

// Do reaches endpoints the SDK does not wrap yet; an answer that carries no body (to a
// HEAD, a 204) is an answer, not a body cut short.
func TestDoAnswersWithoutABody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Length", "42") // what a GET would carry
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	c := wiretest.NewLoopbackClient(t, srv.URL)

	for _, method := range []string{http.MethodHead, http.MethodDelete} {
		resp, err := c.Do(context.Background(), method, "/v1/things/1", insurance.AuthBasic, nil, nil)
		require.NoError(t, err, method)
		assert.Empty(t, resp.Raw, method)
	}
}

func TestDoRefusesWhatIsNotAMethod(t *testing.T) {
	c, mt := wiretest.NewMockClient(t)
	for _, method := range []string{"", "GET /x"} {
		_, err := c.Do(context.Background(), method, "/v1/things", insurance.AuthBasic, nil, nil)
		var valErr *insurance.ValidationError
		assert.ErrorAs(t, err, &valErr, "%q", method)
	}
	assert.Zero(t, mt.GetTotalCallCount())
}

func TestValidationSendsNothing(t *testing.T) {
	onboard := func(mutate func(*insurance.OnboardPartnerRequest)) *insurance.OnboardPartnerRequest {
		r := wiretest.FullOnboardPartner()
		mutate(r)
		return r
	}
	tests := []struct {
		name   string
		call   func(context.Context, *insurance.Client) error
		fields []string
	}{
		{"onboarding without required fields", func(ctx context.Context, c *insurance.Client) error {
			_, err := c.OnboardPartner(ctx, &insurance.OnboardPartnerRequest{})
			return err
		}, []string{"entity_name", "administrative_email_address", "website", "country"}},
		{"onboarding in another country", func(ctx context.Context, c *insurance.Client) error {
			_, err := c.OnboardPartner(ctx, onboard(func(r *insurance.OnboardPartnerRequest) { r.Country = "MX" }))
			return err
		}, []string{"country"}},
		{"onboarding with a malformed email", func(ctx context.Context, c *insurance.Client) error {
			_, err := c.OnboardPartner(ctx, onboard(func(r *insurance.OnboardPartnerRequest) { r.AdministrativeEmailAddress = "not-an-email" }))
			return err
		}, []string{"administrative_email_address"}},
		{"gap-medical purchase without quote and token", func(ctx context.Context, c *insurance.Client) error {
			_, err := c.PurchaseGapMedical(ctx, wiretest.CustomerSecret, &insurance.GapMedicalPurchaseRequest{})
			return err
		}, []string{"quote_id", "payment_method.token"}},
		{"customer secret without email", func(ctx context.Context, c *insurance.Client) error {
			_, err := c.CreateCustomerSecret(ctx, " ")
			return err
		}, []string{"email_address"}},
		{"nil request", func(ctx context.Context, c *insurance.Client) error {
			_, err := c.QuoteTravel(ctx, nil)
			return err
		}, []string{"request"}},
		{"nil context", func(_ context.Context, c *insurance.Client) error {
			//lint:ignore SA1012 a nil context is the bad input under test
			_, err := c.ListProducts(nil)
			return err
		}, []string{"ctx"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := wiretest.NewMockClient(t)
			var rec wiretest.Recorder
			mt.RegisterNoResponder(rec.Respond(200, `{}`))

			err := tt.call(context.Background(), c)
			var verr *insurance.ValidationError
			require.ErrorAs(t, err, &verr)
			for _, f := range tt.fields {
				assert.Contains(t, err.Error(), f)
			}
			assert.Equal(t, 0, rec.Count(), "nothing may be sent")
		})
	}
}
