package insurance_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

func TestMissingCredentialsSendNothing(t *testing.T) {
	tests := []struct {
		name string
		opts []insurance.Option
		call func(context.Context, *insurance.Client) error
	}{
		{"Basic call on a client-id-only client", []insurance.Option{insurance.WithClientID(wiretest.ClientID)},
			func(ctx context.Context, c *insurance.Client) error { _, err := c.ListProducts(ctx); return err }},
		{"purchase on a client-id-only client", []insurance.Option{insurance.WithClientID(wiretest.ClientID)},
			func(ctx context.Context, c *insurance.Client) error {
				_, err := c.PurchaseTuition(ctx, wiretest.FullTuitionPurchase())
				return err
			}},
		{"customer secret on a client with no credentials", nil,
			func(ctx context.Context, c *insurance.Client) error {
				_, err := c.CreateCustomerSecret(ctx, "ada@example.com")
				return err
			}},
		{"travel quote with no credentials", nil,
			func(ctx context.Context, c *insurance.Client) error {
				_, err := c.QuoteTravel(ctx, wiretest.FullTravelQuote())
				return err
			}},
		{"gap-medical quote with no credentials", nil,
			func(ctx context.Context, c *insurance.Client) error {
				_, err := c.QuoteGapMedical(ctx, wiretest.FullGapMedicalQuote())
				return err
			}},
		{"gap-medical purchase with an empty customer secret", []insurance.Option{insurance.WithCredentials(wiretest.ClientID, wiretest.ClientSecret)},
			func(ctx context.Context, c *insurance.Client) error {
				_, err := c.PurchaseGapMedical(ctx, "", wiretest.FullGapMedicalPurchase())
				return err
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mt := httpmock.NewMockTransport()
			var rec wiretest.Recorder
			mt.RegisterNoResponder(rec.Respond(200, `{}`))
			c, err := insurance.NewClient(wiretest.BaseURL, append(tt.opts, insurance.WithHTTPClient(&http.Client{Transport: mt}))...)
			require.NoError(t, err)

			err = tt.call(context.Background(), c)
			assert.ErrorIs(t, err, insurance.ErrMissingCredentials)
			assert.Equal(t, 0, rec.Count(), "nothing may be sent")
			assert.Equal(t, 1, strings.Count(err.Error(), "insurance:"), "one prefix: %q", err)
		})
	}
}

func TestMissingCredentialsSayWhatIsMissingOnce(t *testing.T) {
	c, err := insurance.NewClient(wiretest.BaseURL, insurance.WithClientID(wiretest.ClientID))
	require.NoError(t, err)
	_, err = c.ListProducts(context.Background())
	assert.EqualError(t, err, "insurance: GET /v1/products: missing credentials: Basic auth needs WithCredentials(client id, client secret)")
}

// The partner's own client secret (or client id) given where a customer secret goes
// would travel as a Bearer token to a browser-facing endpoint: refused before
// anything is sent, with what to do instead.
func TestPurchaseGapMedicalRefusesThePartnersOwnCredentials(t *testing.T) {
	for name, wrong := range map[string]string{"client secret": wiretest.ClientSecret, "client id": wiretest.ClientID} {
		t.Run(name, func(t *testing.T) {
			c, mt := wiretest.NewMockClient(t)
			var rec wiretest.Recorder
			mt.RegisterNoResponder(rec.Respond(201, `{}`))

			_, err := c.PurchaseGapMedical(context.Background(), wrong, wiretest.FullGapMedicalPurchase())

			var valErr *insurance.ValidationError
			require.ErrorAs(t, err, &valErr)
			assert.Contains(t, err.Error(), "mint a customer secret with CreateCustomerSecret")
			assert.Contains(t, err.Error(), "is the partner's "+name)
			assert.NotContains(t, err.Error(), wiretest.ClientSecret)
			assert.Zero(t, rec.Count(), "nothing may be sent")
		})
	}
}

func TestClientIDOnlyClientQuotesWithTheHeader(t *testing.T) {
	mt := httpmock.NewMockTransport()
	c, err := insurance.NewClient(wiretest.BaseURL, insurance.WithClientID(wiretest.ClientID), insurance.WithHTTPClient(&http.Client{Transport: mt}))
	require.NoError(t, err)
	var rec wiretest.Recorder
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/quote/travel", rec.Respond(201, `{"quote_id":"q_1"}`))

	_, err = c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.NoError(t, err)
	got := only(t, &rec)
	assert.Equal(t, wiretest.ClientID, got.Header.Get(insurance.HeaderClientID))
	assert.Empty(t, got.Header.Get("Authorization"))
}

func TestBasicHeaderIsTheWholeCredential(t *testing.T) {
	decoded, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(wiretest.BasicHeader, "Basic "))
	require.NoError(t, err)
	assert.Equal(t, wiretest.ClientID+":"+wiretest.ClientSecret, string(decoded))

	c, mt := wiretest.NewMockClient(t)
	mt.RegisterResponder("GET", wiretest.BaseURL+"/v1/products", func(r *http.Request) (*http.Response, error) {
		id, secret, ok := r.BasicAuth()
		assert.True(t, ok)
		assert.Equal(t, wiretest.ClientID, id)
		assert.Equal(t, wiretest.ClientSecret, secret)
		return httpmock.NewStringResponse(200, `[]`), nil
	})
	_, err = c.ListProducts(context.Background())
	require.NoError(t, err)
}

// sensitive are the values that must never appear in a log line, an error text, or
// fmt output of the client, a request or a result.
func sensitive() map[string]string {
	return map[string]string{
		"client secret":            wiretest.ClientSecret,
		"Basic header value":       strings.TrimPrefix(wiretest.BasicHeader, "Basic "),
		"customer secret (sent)":   wiretest.CustomerSecret,
		"customer secret (minted)": "cs_live_abcdefghijklmnop",
		"card number":              wiretest.CardNumber,
		"card verification":        `"123"`,
		"bank account number":      wiretest.BankAccount,
		"ACH account number":       wiretest.ACHAccount,
	}
}

func scan(t *testing.T, what, text string) {
	t.Helper()
	for name, value := range sensitive() {
		assert.NotContains(t, text, value, "%s leaks the %s", what, name)
	}
}

func fmtAll(v any) string {
	return fmt.Sprintf("%v|%+v|%#v|%s", v, v, v, v)
}

// TestNoSecretLeaks runs every endpoint with a debug logger, succeeding and failing
// with every status, and scans the logs, the error texts and fmt output.
func TestNoSecretLeaks(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, mt := wiretest.NewMockClient(t, insurance.WithLogger(logger))
	ctx := context.Background()
	var texts []string

	for _, code := range []int{200, 201, 400, 401, 402, 403, 404, 422, 429, 500, 503} {
		for _, ep := range wiretest.Endpoints() {
			body := wiretest.Fixture(t, ep.Response)
			if code >= 300 {
				// A careless server that echoes the request back in its error body.
				body = `{"error":"bad","message":"rejected"}`
			}
			mt.RegisterResponder(ep.Method, wiretest.BaseURL+ep.Path, httpmock.NewStringResponder(code, body))
			result, err := ep.Call(ctx, c)
			if err != nil {
				texts = append(texts, err.Error(), fmt.Sprintf("%v|%+v|%s", err, err, err))
			}
			texts = append(texts, fmtAll(result))
		}
	}
	for _, req := range []any{
		wiretest.FullTravelQuote(), wiretest.FullGapMedicalQuote(), wiretest.FullTuitionPurchase(), wiretest.FullGapMedicalPurchase(),
		wiretest.FullOnboardPartner(), wiretest.FullCreateEvent(), wiretest.FullTuitionPurchase().PaymentMethod,
		*wiretest.FullTuitionPurchase().PaymentMethod.Card, wiretest.FullOnboardPartner().BankAccount,
		insurance.AuthBearer(wiretest.CustomerSecret), c,
	} {
		texts = append(texts, fmtAll(req))
	}
	secret := &insurance.CustomerSecret{Secret: "cs_live_abcdefghijklmnop", EmailAddress: "ada@example.com"}
	texts = append(texts, fmtAll(secret), secret.String(), fmtAll(*secret))

	scan(t, "fmt output or an error", strings.Join(texts, "\n"))
	scan(t, "the debug log", logs.String())

	// The log still says what happened.
	assert.Contains(t, logs.String(), `"path":"/v1/purchase/tuition"`)
	assert.Contains(t, logs.String(), `"status":402`)
	assert.Contains(t, logs.String(), `"attempt":1`)
	assert.Contains(t, logs.String(), `"latency"`)
	assert.NotContains(t, strings.ToLower(logs.String()), "authorization")
	// The masked card keeps its last four digits for support.
	assert.Contains(t, fmt.Sprint(wiretest.FullTuitionPurchase().PaymentMethod.Card), "************4242")
}
