package insurance_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

func TestNewClientChecksTheBaseURL(t *testing.T) {
	tests := []struct {
		url     string
		opts    []insurance.Option
		wantErr string // "" means accepted
		wantURL string
	}{
		{url: "https://api.example.com", wantURL: "https://api.example.com"},
		{url: "https://api.example.com/", wantURL: "https://api.example.com"},
		{url: "https://api.example.com/prefix/", wantURL: "https://api.example.com/prefix"},
		{url: "http://127.0.0.1:8080", wantURL: "http://127.0.0.1:8080"},
		{url: "http://127.5.5.5", wantURL: "http://127.5.5.5"},
		{url: "http://localhost:9000", wantURL: "http://localhost:9000"},
		{url: "http://[::1]:9000", wantURL: "http://[::1]:9000"},
		{url: "http://sandbox.internal", opts: []insurance.Option{insurance.WithInsecureHTTP()}, wantURL: "http://sandbox.internal"},
		{url: "http://api.example.com", wantErr: "clear text"},
		{url: "http://10.0.0.1", wantErr: "clear text"},
		{url: "", wantErr: "http or https"},
		{url: "api.example.com", wantErr: `base URL "api.example.com" has no scheme: did you mean "https://api.example.com"?`},
		{url: "//api.example.com", wantErr: `did you mean "https://api.example.com"?`},
		{url: "https://api.example.com//", wantURL: "https://api.example.com"},
		{url: "https://api.example.com/prefix//", wantURL: "https://api.example.com/prefix"},
		{url: "https://api.example.com/v1", wantErr: `ends in /v1, which the SDK adds to every path: use "https://api.example.com"`},
		{url: "https://api.example.com/partner/v1/", wantErr: `use "https://api.example.com/partner"`},
		{url: "https://api.example.com/v10", wantURL: "https://api.example.com/v10"},
		{url: "ftp://api.example.com", wantErr: "http or https"},
		{url: "https://", wantErr: "no host"},
		{url: "https://:443", wantErr: "no host"},
		{url: "https://user:pw@api.example.com", wantErr: "user info"},
		{url: "ci_1:cs_SECRET@api.example.com", wantErr: "user info"},
		{url: "ftp://id:cs_SECRET@host", wantErr: "user info"},
		{url: "https://id:cs_SECRET@host/%zz", wantErr: "user info"},
		{url: "https://api.example.com?x=1", wantErr: "query"},
		{url: "https://api.example.com/%zz?token=SECRET", wantErr: "malformed"},
		{url: "https://api.example.com/?token=SECRET", wantErr: "query"},
		{url: "https://api.example.com/#frag", wantErr: "query or fragment"},
		{url: "https://api.example.com/%zz", wantErr: "malformed"},
		{url: "ht tp://x", wantErr: "malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			c, err := insurance.NewClient(tt.url, tt.opts...)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				assert.NotContains(t, err.Error(), "SECRET", "a base URL's user info is never repeated")
				assert.Nil(t, c)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantURL, c.BaseURL())
		})
	}
}

func TestNewClientFromEnv(t *testing.T) {
	t.Run("full credentials", func(t *testing.T) {
		t.Setenv(insurance.EnvBaseURL, testBaseURL)
		t.Setenv(insurance.EnvClientID, testClientID)
		t.Setenv(insurance.EnvClientSecret, testClientSecret)
		c, err := insurance.NewClientFromEnv()
		require.NoError(t, err)
		assert.Equal(t, testBaseURL, c.BaseURL())
		assert.Contains(t, fmt.Sprintf("%v", c), `ClientID: "`+testClientID+`"`)
	})
	t.Run("client id only", func(t *testing.T) {
		t.Setenv(insurance.EnvBaseURL, testBaseURL)
		t.Setenv(insurance.EnvClientID, testClientID)
		t.Setenv(insurance.EnvClientSecret, "")
		c, err := insurance.NewClientFromEnv()
		require.NoError(t, err)
		_, err = c.ListProducts(context.Background())
		assert.ErrorIs(t, err, insurance.ErrMissingCredentials, "a client-id-only client cannot make Basic calls")
	})
	t.Run("no base URL", func(t *testing.T) {
		t.Setenv(insurance.EnvBaseURL, "")
		_, err := insurance.NewClientFromEnv()
		assert.ErrorContains(t, err, insurance.EnvBaseURL)
	})
	t.Run("secret without id", func(t *testing.T) {
		t.Setenv(insurance.EnvBaseURL, testBaseURL)
		t.Setenv(insurance.EnvClientID, "")
		t.Setenv(insurance.EnvClientSecret, testClientSecret)
		_, err := insurance.NewClientFromEnv()
		assert.ErrorContains(t, err, insurance.EnvClientID)
		assert.NotContains(t, err.Error(), testClientSecret)
	})
	t.Run("options win over the environment", func(t *testing.T) {
		t.Setenv(insurance.EnvBaseURL, testBaseURL)
		t.Setenv(insurance.EnvClientID, "from-env")
		t.Setenv(insurance.EnvClientSecret, "env-secret")
		c, err := insurance.NewClientFromEnv(insurance.WithClientID("from-option"))
		require.NoError(t, err)
		assert.Contains(t, fmt.Sprintf("%v", c), "from-option")
	})
}
