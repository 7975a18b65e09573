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
)

// sensitive are the values that must never appear in a log line, an error text, or
// fmt output of the client, a request or a result.
func sensitive() map[string]string {
	return map[string]string{
		"client secret":            testClientSecret,
		"Basic header value":       strings.TrimPrefix(testBasicHeader, "Basic "),
		"customer secret (sent)":   testCustomerSecret,
		"customer secret (minted)": "cs_live_abcdefghijklmnop",
		"card number":              testCardNumber,
		"card verification":        `"123"`,
		"bank account number":      testBankAccount,
		"ACH account number":       testACHAccount,
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
	c, mt := newMockClient(t, insurance.WithLogger(logger))
	ctx := context.Background()
	var texts []string

	for _, code := range []int{200, 201, 400, 401, 402, 403, 404, 422, 429, 500, 503} {
		for _, ep := range endpoints() {
			body := fixture(t, ep.response)
			if code >= 300 {
				// A careless server that echoes the request back in its error body.
				body = `{"error":"bad","message":"rejected"}`
			}
			mt.RegisterResponder(ep.method, testBaseURL+ep.path, httpmock.NewStringResponder(code, body))
			result, err := ep.call(ctx, c)
			if err != nil {
				texts = append(texts, err.Error(), fmt.Sprintf("%v|%+v|%s", err, err, err))
			}
			texts = append(texts, fmtAll(result))
		}
	}
	for _, req := range []any{
		fullTravelQuote(), fullGapMedicalQuote(), fullTuitionPurchase(), fullGapMedicalPurchase(),
		fullOnboardPartner(), fullCreateEvent(), fullTuitionPurchase().PaymentMethod,
		*fullTuitionPurchase().PaymentMethod.Card, fullOnboardPartner().BankAccount,
		insurance.AuthBearer(testCustomerSecret), c,
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
	assert.Contains(t, fmt.Sprint(fullTuitionPurchase().PaymentMethod.Card), "************4242")
}

func TestMaskingDoesNotChangeTheWire(t *testing.T) {
	c, mt := newMockClient(t)
	var rec recorder
	mt.RegisterResponder("POST", testBaseURL+"/v1/purchase/tuition", rec.respond(201, `{"policy_id":"p"}`))
	req := fullTuitionPurchase()
	_ = fmt.Sprint(req) // printing must not mutate the request

	_, err := c.PurchaseTuition(context.Background(), req)
	require.NoError(t, err)
	assert.Contains(t, string(rec.only(t).Body), testCardNumber)
}

func TestBasicHeaderIsTheWholeCredential(t *testing.T) {
	decoded, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(testBasicHeader, "Basic "))
	require.NoError(t, err)
	assert.Equal(t, testClientID+":"+testClientSecret, string(decoded))

	c, mt := newMockClient(t)
	mt.RegisterResponder("GET", testBaseURL+"/v1/products", func(r *http.Request) (*http.Response, error) {
		id, secret, ok := r.BasicAuth()
		assert.True(t, ok)
		assert.Equal(t, testClientID, id)
		assert.Equal(t, testClientSecret, secret)
		return httpmock.NewStringResponse(200, `[]`), nil
	})
	_, err = c.ListProducts(context.Background())
	require.NoError(t, err)
}
