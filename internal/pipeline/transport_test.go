package pipeline

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The pool of record-creating requests speaks HTTP/1.1 to a server that offers
// HTTP/2, also when the caller's transport has already negotiated HTTP/2 (net/http
// then advertises h2 in the transport's TLS config), and the caller's transport is
// left as it was.
func TestRecordsRideHTTP1EvenOnATransportThatSpokeHTTP2(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	transport := NewTransport()
	transport.TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	get := func(rt http.RoundTripper) int {
		req, err := http.NewRequest(http.MethodGet, srv.URL, nil)
		require.NoError(t, err)
		resp, err := rt.RoundTrip(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.ProtoMajor
	}
	require.Equal(t, 2, get(transport), "the caller's transport speaks HTTP/2")
	advertised := append([]string(nil), transport.TLSClientConfig.NextProtos...)
	require.Contains(t, advertised, "h2")

	pools := NewPools(&http.Client{Transport: transport}, 0, true)
	assert.Equal(t, 1, get(pools.records))
	assert.Equal(t, 2, get(pools.idempotent))
	assert.Equal(t, advertised, transport.TLSClientConfig.NextProtos, "the caller's transport is unchanged")
	assert.True(t, pools.traced)
	assert.True(t, pools.recordsResendSafe)
}

// A RoundTripper other than an *http.Transport carries both kinds of request as it
// is; nothing proves a request unsent, and record-creating ones are never resent.
func TestAnOpaqueTransportCarriesEverything(t *testing.T) {
	opaque := roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, nil })
	pools := NewPools(&http.Client{Transport: opaque}, 0, true)
	assert.False(t, pools.traced)
	assert.False(t, pools.recordsResendSafe)
	assert.Nil(t, pools.gates[Idempotent], "no gate: connections are not seen")
}

// Requests may ride HTTP/2 over https, over a transport the SDK cannot see into, and
// with unencrypted HTTP/2 turned on; only then does a bodiless request need the empty
// body that makes net/http ask before resending it.
func TestPoolsKnowWhenRequestsMayRideHTTP2(t *testing.T) {
	h2c := NewTransport()
	h2c.Protocols = new(http.Protocols)
	h2c.Protocols.SetUnencryptedHTTP2(true)
	opaque := roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, nil })
	for _, tc := range []struct {
		name      string
		transport http.RoundTripper
		https     bool
		want      bool
	}{
		{"http", NewTransport(), false, false},
		{"https", NewTransport(), true, true},
		{"h2c", h2c, false, true},
		{"opaque", opaque, false, true},
	} {
		assert.Equal(t, tc.want, NewPools(&http.Client{Transport: tc.transport}, 0, tc.https).mayHTTP2, tc.name)
	}
}
