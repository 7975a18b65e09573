package insurance_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// A header given to the Client goes out with every call; one given to a call goes
// out with that call alone, and replaces the Client's of the same name.
func TestWithHeaderOnTheClientAndOnACall(t *testing.T) {
	c, mt := wiretest.NewMockClient(t, insurance.WithHeader("X-Partner-Shop", "shop-1"), insurance.WithHeader("X-Correlation-Id", "client"))
	var rec wiretest.Recorder
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/purchase/tuition", rec.Respond(201, wiretest.CreatedBody))
	ctx := context.Background()

	_, err := c.PurchaseTuition(ctx, wiretest.FullTuitionPurchase(), insurance.WithHeader("x-correlation-id", "order-42"))
	require.NoError(t, err)
	_, err = c.PurchaseTuition(ctx, wiretest.FullTuitionPurchase())
	require.NoError(t, err)

	sent := rec.Requests()
	require.Len(t, sent, 2)
	assert.Equal(t, []string{"order-42"}, sent[0].Header.Values("X-Correlation-Id"), "the call's replaces the client's")
	assert.Equal(t, "shop-1", sent[0].Header.Get("X-Partner-Shop"))
	assert.Equal(t, "client", sent[1].Header.Get("X-Correlation-Id"), "the next call is the client's again")
	assert.Equal(t, wiretest.BasicHeader, sent[1].Header.Get("Authorization"))
}

// The headers the SDK or the protocol owns, and what net/http would refuse to send,
// are refused wherever WithHeader is given, and nothing is sent.
func TestWithHeaderRefusesWhatItMustNotSet(t *testing.T) {
	refused := []struct{ key, value string }{
		{"Authorization", "Basic eA=="}, {"x-api-client-id", "someone"}, {"accept", "text/html"},
		{"Content-Type", "text/plain"}, {"Content-Length", "1"}, {"Expect", "100-continue"},
		{"Host", "evil.example"}, {"User-Agent", "me"}, {"Connection", "close"},
		{"Transfer-Encoding", "chunked"}, {"TE", "trailers"}, {"Trailer", "X"}, {"Upgrade", "h2c"},
		{"Cookie", "a=b"}, {"Proxy-Authorization", "Basic eA=="},
		{"Idempotency-Key", "key-1"}, {"x-idempotency-key", "key-1"},
		{"", "val-1"}, {"X Space", "val-1"}, {"X-Bad:Name", "val-1"}, {"X-Ünicode", "val-1"},
		{"X-Split", "a\r\nX-Injected: 1"}, {"X-Nul", "a\x00b"}, {"X-Del", "a\x7fb"},
	}
	for _, h := range refused {
		t.Run(fmt.Sprintf("%q", h.key), func(t *testing.T) {
			_, err := insurance.NewClient(wiretest.BaseURL, insurance.WithHeader(h.key, h.value))
			require.Error(t, err)
			assert.Regexp(t, `^insurance: WithHeader\(`, err.Error())
			assert.NotContains(t, err.Error(), h.value, "the value is never repeated")

			c, mt := wiretest.NewMockClient(t)
			var rec wiretest.Recorder
			mt.RegisterNoResponder(rec.Respond(200, `[]`))
			_, err = c.ListProducts(context.Background(), insurance.WithHeader(h.key, h.value))
			require.Error(t, err)
			assert.Zero(t, rec.Count(), "nothing is sent")
		})
	}
	_, err := insurance.NewClient(wiretest.BaseURL, insurance.WithHeader("X-Tabbed", "a\tb"))
	assert.NoError(t, err, "a tab is a valid header value")
}

// Header values are the partner's business: neither fmt nor testify's diff of two
// Client values shows them, and a derived Client's header leaves its parent's as
// they were.
func TestHeaderValuesAreOutOfSight(t *testing.T) {
	const value = "gw-token-7f3a9c"
	c, err := insurance.NewClient(wiretest.BaseURL, wiretest.Credentials, insurance.WithHeader("X-Gateway-Token", value))
	require.NoError(t, err)
	derived, err := c.With(insurance.WithHeader("X-Gateway-Token", "other-"+value))
	require.NoError(t, err)

	for _, shown := range []string{fmt.Sprintf("%+v", *c), fmt.Sprintf("%#v", *c), fmt.Sprintf("%v", c), diffOf(*c, *derived)} {
		assert.NotContains(t, shown, value)
	}

	mt := &headerEcho{}
	for _, client := range []*insurance.Client{c, derived} {
		scoped, err := client.With(insurance.WithHTTPClient(&http.Client{Transport: mt}))
		require.NoError(t, err)
		_, _ = scoped.ListProducts(context.Background())
	}
	assert.Equal(t, []string{value, "other-" + value}, mt.seen, "With copies the headers: the parent keeps its own")
}

// headerEcho answers every request with an empty list and notes its X-Gateway-Token.
type headerEcho struct{ seen []string }

func (h *headerEcho) RoundTrip(req *http.Request) (*http.Response, error) {
	h.seen = append(h.seen, req.Header.Get("X-Gateway-Token"))
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: http.NoBody, Request: req}, nil
}

// diffOf is what testify prints when a and b differ.
func diffOf(a, b any) string {
	var printed recordingT
	assert.Equal(&printed, a, b)
	return printed.String()
}

// recordingT keeps what an assertion would print.
type recordingT struct{ strings.Builder }

func (r *recordingT) Errorf(format string, args ...any) { fmt.Fprintf(r, format, args...) }
