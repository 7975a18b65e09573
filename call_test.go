package insurance_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
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

// Options given to a call apply to that call alone, as if it were made on
// c.With(opts...), and leave the Client as it was.
func TestOptionsGivenToACallApplyToItAlone(t *testing.T) {
	c, mt := wiretest.NewMockClient(t) // two retries by default
	var rec wiretest.Recorder
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/quote/travel", rec.Respond(503, ``))
	ctx := context.Background()

	_, err := c.QuoteTravel(ctx, wiretest.FullTravelQuote(), insurance.WithMaxRetries(0))
	require.ErrorIs(t, err, insurance.ErrServer)
	assert.Equal(t, 1, rec.Count(), "the call's WithMaxRetries(0)")

	_, err = c.QuoteTravel(ctx, wiretest.FullTravelQuote())
	require.ErrorIs(t, err, insurance.ErrServer)
	assert.Equal(t, 4, rec.Count(), "the next call retries twice again")
}

// A call's credentials are that call's: a platform can call for one partner without
// deriving a Client.
func TestACallsCredentialsAreThatCalls(t *testing.T) {
	c, mt := wiretest.NewMockClient(t)
	var rec wiretest.Recorder
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/quote/travel", rec.Respond(201, wiretest.CreatedBody))

	_, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote(), insurance.WithClientID("ci_agency_2"))
	require.NoError(t, err)
	_, err = c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.NoError(t, err)

	sent := rec.Requests()
	assert.Equal(t, "ci_agency_2", sent[0].Header.Get(insurance.HeaderClientID))
	assert.Empty(t, sent[0].Header.Get("Authorization"))
	assert.Equal(t, wiretest.BasicHeader, sent[1].Header.Get("Authorization"))
}

// The options that shape connections or are shared by the calls of a Client fail a
// call they are given to, naming themselves, before anything is sent.
func TestACallRefusesTheClientsOwnOptions(t *testing.T) {
	clientOnly := map[string]insurance.Option{
		"WithHTTPClient":        insurance.WithHTTPClient(http.DefaultClient),
		"WithInsecureHTTP":      insurance.WithInsecureHTTP(),
		"WithRecordIdleTimeout": insurance.WithRecordIdleTimeout(0),
		"WithAttemptMiddleware": insurance.WithAttemptMiddleware(func(rt http.RoundTripper) http.RoundTripper { return rt }),
		"WithRetryBudget":       insurance.WithRetryBudget(10, 1),
	}
	for name, opt := range clientOnly {
		t.Run(name, func(t *testing.T) {
			c, mt := wiretest.NewMockClient(t)
			var rec wiretest.Recorder
			mt.RegisterNoResponder(rec.Respond(201, wiretest.CreatedBody))

			_, err := c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase(), opt)
			require.Error(t, err)
			assert.Equal(t, "insurance: "+name+" applies to a Client, not to one call: give it to NewClient or With", err.Error())
			assert.Zero(t, rec.Count(), "nothing is sent")

			_, err = c.With(opt)
			assert.NoError(t, err, "With takes it")
		})
	}
}

// An observer given to a call sees that call, beside the Client's own.
func TestAnObserverGivenToACallSeesThatCall(t *testing.T) {
	own, perCall := &countingObserver{}, &countingObserver{}
	c, mt := wiretest.NewMockClient(t, insurance.WithObserver(own))
	mt.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
		return httpmock.NewStringResponse(201, wiretest.CreatedBody), nil
	})

	_, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote(), insurance.WithObserver(perCall))
	require.NoError(t, err)
	_, err = c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.NoError(t, err)
	assert.EqualValues(t, 2, own.calls.Load())
	assert.EqualValues(t, 1, perCall.calls.Load())
}

// A Client that no constructor built sends nothing and never panics: every method
// returns an error.
func TestAZeroClientReturnsAnErrorFromEveryMethod(t *testing.T) {
	for name, c := range map[string]*insurance.Client{"zero": {}, "nil": nil} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			calls := map[string]func() error{
				"ListProducts": func() error { _, err := c.ListProducts(ctx); return err },
				"QuoteTravel":  func() error { _, err := c.QuoteTravel(ctx, wiretest.FullTravelQuote()); return err },
				"QuoteGapMedical": func() error {
					_, err := c.QuoteGapMedical(ctx, wiretest.FullGapMedicalQuote())
					return err
				},
				"PurchaseTuition": func() error {
					_, err := c.PurchaseTuition(ctx, wiretest.FullTuitionPurchase())
					return err
				},
				"PurchaseGapMedical": func() error {
					_, err := c.PurchaseGapMedical(ctx, wiretest.CustomerSecret, wiretest.FullGapMedicalPurchase())
					return err
				},
				"CreateCustomerSecret": func() error { _, err := c.CreateCustomerSecret(ctx, "ada@example.com"); return err },
				"OnboardPartner":       func() error { _, err := c.OnboardPartner(ctx, wiretest.FullOnboardPartner()); return err },
				"CreateEvent":          func() error { _, err := c.CreateEvent(ctx, wiretest.FullCreateEvent()); return err },
				"Do": func() error {
					_, err := c.Do(ctx, "GET", "/v1/pets", insurance.AuthBasic, nil, nil)
					return err
				},
				"With": func() error { _, err := c.With(); return err },
			}
			for method, call := range calls {
				assert.ErrorContains(t, call(), "insurance: the Client was not built with NewClient", method)
			}
			assert.NotPanics(t, c.CloseIdleConnections)
			assert.Empty(t, c.BaseURL())
			assert.NotPanics(t, func() { _ = fmt.Sprint(c) })
		})
	}
}

// A call's options build no transport: attempt middleware, called once per pool when
// the Client is built, is not called again however many calls take options.
func TestACallsOptionsBuildNoTransport(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`[]`)) }))
	defer srv.Close()
	var wraps atomic.Int32
	c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithAttemptMiddleware(func(rt http.RoundTripper) http.RoundTripper {
		wraps.Add(1)
		return rt
	}))
	built := wraps.Load()

	for range 5 {
		_, err := c.ListProducts(context.Background(), insurance.WithHeader("X-Correlation-Id", "c-1"), insurance.WithMaxRetries(0))
		require.NoError(t, err)
	}
	assert.Equal(t, built, wraps.Load())
}

// One set of options can serve many calls at once: applying an option changes
// nothing but the call's settings (go test -race checks it).
func TestOptionsAreSafeToShareAcrossCalls(t *testing.T) {
	c, mt := wiretest.NewMockClient(t)
	mt.RegisterNoResponder(httpmock.NewStringResponder(200, `[]`))
	shared := []insurance.Option{insurance.WithUserAgent("  shop/1  "), insurance.WithHeader("X-Shop", "s1"), insurance.WithMaxRetries(0)}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				_, err := c.ListProducts(context.Background(), shared...)
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
}

// A result type of the SDK's given to Do as out gets its Response, as from the typed
// method.
func TestDoFillsTheResponseOfATypedResult(t *testing.T) {
	srv := insurancetest.NewServer()
	defer srv.Close()
	c, err := insurance.NewClient(srv.URL, insurance.WithCredentials(srv.ClientID, srv.ClientSecret))
	require.NoError(t, err)
	var list insurance.ProductList
	res, err := c.Do(context.Background(), http.MethodGet, "/v1/products", insurance.AuthBasic, nil, &list)
	require.NoError(t, err)
	assert.NotEmpty(t, list.Products)
	assert.Equal(t, http.StatusOK, list.StatusCode)
	assert.Equal(t, res.Raw, list.Raw)
}
