package insurance_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/internal/contracttest"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// The fixtures only the root tests use. What they share with internal/pipeline's
// tests (credentials, clients, full requests, every endpoint with its wire fixtures,
// misbehaving loopback servers) is in internal/wiretest.

// sent is what a mock server saw of one request.
type sent = contracttest.Sent

// only is the one request rec saw, which api/openapi.yaml must allow: every request a
// test inspects is checked against the document.
func only(t *testing.T, rec *wiretest.Recorder) sent {
	t.Helper()
	requests := rec.Requests()
	require.Len(t, requests, 1)
	contracttest.RequireAllowed(t, sent(requests[0]))
	return sent(requests[0])
}

// roundTripFunc answers every request itself: the fuzzers feed the client arbitrary
// answers without a socket.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
