package insurance_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

func TestOptionsCheckTheirInput(t *testing.T) {
	tests := map[string]insurance.Option{
		"empty credentials":      insurance.WithCredentials("", ""),
		"missing secret":         insurance.WithCredentials("id", ""),
		"colon in client id":     insurance.WithCredentials("a:b", "secret"),
		"empty client id":        insurance.WithClientID(""),
		"nil http client":        insurance.WithHTTPClient(nil),
		"negative retries":       insurance.WithMaxRetries(-1),
		"absurd retries":         insurance.WithMaxRetries(1000),
		"zero retry wait":        insurance.WithRetryWait(0, time.Second),
		"max below min":          insurance.WithRetryWait(time.Second, time.Millisecond),
		"negative retry-after":   insurance.WithMaxRetryAfter(-time.Second),
		"nil logger":             insurance.WithLogger(nil),
		"empty user agent":       insurance.WithUserAgent("  "),
		"header injection in UA": insurance.WithUserAgent("shop/1.0\r\nX-Evil: 1"),
	}
	for name, opt := range tests {
		t.Run(name, func(t *testing.T) {
			c, err := insurance.NewClient(testBaseURL, opt)
			require.Error(t, err)
			assert.Nil(t, c)
			assert.Regexp(t, `^insurance: With`, err.Error())
		})
	}
}

func TestUserAgentIsTheSDKsFollowedByThePartners(t *testing.T) {
	c, mt := newMockClient(t, insurance.WithUserAgent("acme-shop/2.1"))
	var rec recorder
	mt.RegisterResponder("GET", testBaseURL+"/v1/products", rec.respond(200, `[]`))

	_, err := c.ListProducts(context.Background())
	require.NoError(t, err)
	assert.Regexp(t, `^insurance-go/`+insurance.Version+` go/go[0-9.]+\S* acme-shop/2\.1$`, rec.only(t).Header.Get("User-Agent"))
}

func TestWithObserverRefusesNil(t *testing.T) {
	_, err := insurance.NewClient(testBaseURL, insurance.WithObserver(nil))
	assert.ErrorContains(t, err, "WithObserver needs a non-nil Observer")
}
