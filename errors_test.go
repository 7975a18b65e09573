package insurance_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// TestErrorTable maps every status and every body shape to an *APIError that matches
// its sentinel and keeps what the server said.
func TestErrorTable(t *testing.T) {
	statuses := []struct {
		code     int
		sentinel error // nil: no sentinel (the APIError still carries the status)
	}{
		{400, insurance.ErrBadRequest},
		{401, insurance.ErrUnauthorized},
		{402, insurance.ErrPaymentFailed},
		{403, insurance.ErrForbidden},
		{404, insurance.ErrNotFound},
		{409, nil},
		{422, insurance.ErrUnprocessable},
		{429, insurance.ErrRateLimited},
		{500, insurance.ErrServer},
		{502, insurance.ErrServer},
		{503, insurance.ErrServer},
		{504, insurance.ErrServer},
		{302, nil},
	}
	bodies := []struct {
		name                       string
		body                       string
		typ, code, message, reason string
	}{
		{
			name: "events error body",
			body: `{"error":"invalid_request","error_code":"EVENT_DATES","message":"event_end_date is before event_start_date","reason":"dates","status":400}`,
			typ:  "invalid_request", code: "EVENT_DATES", message: "event_end_date is before event_start_date", reason: "dates",
		},
		{
			name: "nested error object",
			body: `{"error":{"type":"card_error","code":"card_declined","message":"Your card was declined."}}`,
			typ:  "card_error", code: "card_declined", message: "Your card was declined.",
		},
		{name: "message only", body: `{"message":"Missing parameter: customer.email_address"}`, message: "Missing parameter: customer.email_address"},
		{name: "empty"},
		{name: "HTML from a proxy", body: "<html><body><h1>502 Bad Gateway</h1></body></html>"},
		{name: "truncated JSON", body: `{"error":"invalid_requ`},
		{name: "plain text", body: "upstream connect error"},
		{name: "JSON of the wrong shape", body: `[1,2,3]`},
	}
	for _, st := range statuses {
		for _, b := range bodies {
			t.Run(http.StatusText(st.code)+"/"+b.name, func(t *testing.T) {
				t.Parallel()
				c, mt := wiretest.NewMockClient(t, insurance.WithMaxRetries(0))
				mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/quote/travel", func(*http.Request) (*http.Response, error) {
					resp := httpmock.NewStringResponse(st.code, b.body)
					resp.Header.Set("X-Request-Id", "req_err_7")
					return resp, nil
				})

				quote, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
				require.Error(t, err)
				assert.Nil(t, quote)

				var apiErr *insurance.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, st.code, apiErr.StatusCode)
				assert.Equal(t, "POST", apiErr.Method)
				assert.Equal(t, "/v1/quote/travel", apiErr.Path)
				assert.Equal(t, "req_err_7", apiErr.RequestID)
				assert.Equal(t, b.body, string(apiErr.Body))
				assert.Equal(t, 1, apiErr.Attempts)
				if st.sentinel != nil {
					assert.ErrorIs(t, err, st.sentinel)
				}
				for _, other := range []error{insurance.ErrBadRequest, insurance.ErrServer, insurance.ErrPaymentFailed, insurance.ErrOutcomeUnknown} {
					if other != st.sentinel {
						assert.NotErrorIs(t, err, other)
					}
				}

				assert.Equal(t, b.typ, apiErr.Type)
				assert.Equal(t, b.code, apiErr.Code)
				assert.Equal(t, b.reason, apiErr.Reason)
				wantMessage := b.message
				if wantMessage == "" {
					wantMessage = http.StatusText(st.code)
				}
				assert.Equal(t, wantMessage, apiErr.Message)

				msg := err.Error()
				assert.True(t, strings.HasPrefix(msg, "insurance: POST /v1/quote/travel: "), msg)
				assert.Contains(t, msg, http.StatusText(st.code))
				assert.Contains(t, msg, b.code)
				assert.Contains(t, msg, b.message)
				assert.Contains(t, msg, "req_err_7")
			})
		}
	}
}

func TestErrorBodyIsCapped(t *testing.T) {
	c, mt := wiretest.NewMockClient(t)
	huge := strings.Repeat("x", 1<<20)
	mt.RegisterResponder("GET", wiretest.BaseURL+"/v1/products", httpmock.NewStringResponder(400, huge))

	_, err := c.ListProducts(context.Background())
	var apiErr *insurance.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Len(t, apiErr.Body, 64<<10)
}

func TestServerErrorOnRecordCallIsOutcomeUnknown(t *testing.T) {
	c, mt := wiretest.NewMockClient(t)
	var rec wiretest.Recorder
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/purchase/tuition", rec.Respond(500, `{"message":"boom"}`))

	_, err := c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
	assert.ErrorIs(t, err, insurance.ErrServer)
	assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown, "the policy may exist: the partner must check before buying again")
	assert.Contains(t, err.Error(), "outcome unknown")
	assert.Equal(t, 1, rec.Count())
}

func TestClientErrorOnRecordCallIsDefinite(t *testing.T) {
	c, mt := wiretest.NewMockClient(t)
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/purchase/tuition", httpmock.NewStringResponder(402, `{"message":"declined"}`))

	_, err := c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
	assert.ErrorIs(t, err, insurance.ErrPaymentFailed)
	assert.NotErrorIs(t, err, insurance.ErrOutcomeUnknown, "a 402 is a definite answer: no policy was issued")
}

// TestMalformedSuccessBodyKeepsIt: a 2xx whose body is not JSON is an error that keeps
// the body, and on a purchase it says the outcome is unknown.
func TestMalformedSuccessBodyKeepsIt(t *testing.T) {
	for _, body := range []string{`{"policy_id": "pol_`, `<html>OK</html>`, `{"policy_id": true}`} {
		c, mt := wiretest.NewMockClient(t)
		mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/purchase/tuition", httpmock.NewStringResponder(201, body))

		policy, err := c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
		assert.Nil(t, policy)
		var reqErr *insurance.RequestError
		require.ErrorAs(t, err, &reqErr, body)
		assert.Equal(t, 201, reqErr.StatusCode)
		assert.Equal(t, body, string(reqErr.Body))
		assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
		assert.Contains(t, err.Error(), "decoding response body")
	}
}

func TestErrorsAreComparable(t *testing.T) {
	err := error(&insurance.APIError{StatusCode: 422, Method: "POST", Path: "/v1/quote/travel"})
	assert.True(t, errors.Is(err, insurance.ErrQuoteUnavailable))
	assert.Equal(t, "insurance: POST /v1/quote/travel: 422 Unprocessable Entity", err.Error())
}

// Every 422 matches ErrUnprocessable; ErrQuoteUnavailable only a 422 to a quote or a
// purchase, where the interface says what it means.
func TestErrQuoteUnavailableIsA422ToAQuoteOrPurchase(t *testing.T) {
	for path, quoteGone := range map[string]bool{
		"/v1/quote/travel": true, "/v1/quote/gap-medical": true, "/v1/purchase/tuition": true,
		"/v1/purchase/gap-medical": true, "/v1/events": false, "/v1/partners/onboard": false, "/v1/quote": false,
	} {
		err := error(&insurance.APIError{StatusCode: 422, Method: "POST", Path: path})
		assert.ErrorIs(t, err, insurance.ErrUnprocessable, path)
		assert.Equal(t, quoteGone, errors.Is(err, insurance.ErrQuoteUnavailable), path)
	}
	c, mt := wiretest.NewMockClient(t)
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/events", httpmock.NewStringResponder(422,
		`{"error":"invalid_request","error_code":"EVENT_CLOSED","message":"the venue is closed","reason":"venue","status":422}`))
	_, err := c.CreateEvent(context.Background(), wiretest.FullCreateEvent())
	assert.ErrorIs(t, err, insurance.ErrUnprocessable)
	assert.NotErrorIs(t, err, insurance.ErrQuoteUnavailable, "a 422 to an event says nothing about a quote")
}

// A partner's fake builds the error the SDK returns for a purchase the server may
// have processed, and it matches what the SDK's own does.
func TestAFakeBuildsTheSDKsOutcomeUnknownError(t *testing.T) {
	fake := error(&insurance.APIError{StatusCode: 503, Method: "POST", Path: "/v1/purchase/tuition", OutcomeUnknown: true})

	c, mt := wiretest.NewMockClient(t)
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/purchase/tuition", httpmock.NewStringResponder(503, ``))
	_, real := c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())

	for _, err := range []error{fake, real} {
		assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
		assert.ErrorIs(t, err, insurance.ErrServer)
		var apiErr *insurance.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.True(t, apiErr.OutcomeUnknown)
	}
	assert.NotErrorIs(t, &insurance.APIError{StatusCode: 503}, insurance.ErrOutcomeUnknown, "unset, it is a definite answer")
}

// A call that got no usable answer says where its last request got: in Why always,
// and in the error's text when the outcome is unknown, for whoever reads the log.
func TestRequestErrorSaysWhy(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // asks for a purchase's body, then hangs up
		conn, _, _ := w.(http.Hijacker).Hijack()
		_ = conn.Close()
	}))
	defer srv.Close()
	c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithMaxRetries(0))

	_, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	var reqErr *insurance.RequestError
	require.ErrorAs(t, err, &reqErr)
	assert.Equal(t, "the request went out and the connection closed before an answer", reqErr.Why)
	assert.NotContains(t, err.Error(), reqErr.Why, "a quote's outcome is no mystery")

	_, err = c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
	require.ErrorAs(t, err, &reqErr)
	assert.Equal(t, "the body went out and the connection closed before an answer", reqErr.Why)
	assert.Contains(t, err.Error(), "(outcome unknown: the body went out and the connection closed before an answer; check before trying again)")

	refused, err := insurance.NewClient("http://127.0.0.1:1", wiretest.Credentials, insurance.WithMaxRetries(0))
	require.NoError(t, err)
	_, err = refused.ListProducts(context.Background())
	require.ErrorAs(t, err, &reqErr)
	assert.Equal(t, "nothing could connect", reqErr.Why)
}

// An error's text is safe to log whatever the server sent: a message that forges a
// log line and paints the terminal comes back escaped and cut, and the fields keep
// it raw for code that needs it.
func TestErrorTextIsSafeToLog(t *testing.T) {
	forged := "rejected\n2026-11-27T12:00:00Z level=INFO msg=\"payment ok\"\x1b[31m\u0085" + strings.Repeat("x", 10_000)
	c, mt := wiretest.NewMockClient(t)
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/events", func(*http.Request) (*http.Response, error) {
		body, _ := json.Marshal(map[string]any{"error": "bad\r\nrequest", "error_code": "E\x1b[0m", "message": forged, "status": 400})
		resp := httpmock.NewBytesResponse(400, body)
		resp.Header.Set("X-Request-Id", "req\n42")
		return resp, nil
	})
	_, err := c.CreateEvent(context.Background(), wiretest.FullCreateEvent())
	var apiErr *insurance.APIError
	require.ErrorAs(t, err, &apiErr)

	text := err.Error()
	assert.NotContains(t, text, "\n")
	assert.NotContains(t, text, "\r")
	assert.NotContains(t, text, "\x1b")
	assert.NotContains(t, text, "\u0085")
	assert.Contains(t, text, `rejected\n2026-11-27`, "escaped, not dropped")
	assert.Contains(t, text, `E\u001b[0m`)
	assert.Contains(t, text, `(request id req\n42)`)
	assert.Less(t, len(text), 600, "each server string cut to 200 runes")
	assert.Equal(t, forged, apiErr.Message, "the field keeps what the server sent")
}

// An answer with no status, as a caller's transport may make up, is an *APIError
// whose text can be printed: never a nil one in a non-nil error.
func TestAnAnswerWithoutAStatusIsAnAPIError(t *testing.T) {
	madeUp := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{Header: http.Header{}, Body: http.NoBody, Request: r}, nil
	})
	c, err := insurance.NewClient("https://api.example.com", insurance.WithCredentials("id", "secret"),
		insurance.WithHTTPClient(&http.Client{Transport: madeUp}), insurance.WithMaxRetries(0))
	require.NoError(t, err)

	_, err = c.ListProducts(context.Background())
	var apiErr *insurance.APIError
	require.ErrorAs(t, err, &apiErr)
	require.NotNil(t, apiErr)
	assert.Zero(t, apiErr.StatusCode)
	assert.Contains(t, err.Error(), "insurance: GET /v1/products")
}
