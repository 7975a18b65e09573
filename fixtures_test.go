package insurance_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// The fixtures only the root tests use. What they share with internal/pipeline's
// tests (credentials, clients, full requests, every endpoint with its wire fixtures,
// misbehaving loopback servers) is in internal/wiretest.

// only is the one request rec saw. The module contract/ checks the same requests
// against api/openapi.yaml (contract/requests_test.go).
func only(t *testing.T, rec *wiretest.Recorder) wiretest.Sent {
	t.Helper()
	requests := rec.Requests()
	require.Len(t, requests, 1)
	return requests[0]
}

// roundTripFunc answers every request itself: the fuzzers feed the client arbitrary
// answers without a socket.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
