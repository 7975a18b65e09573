package pipeline_test

import (
	"context"
	"crypto/tls"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"golang.org/x/net/http2"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// An answer that began (a 103 Early Hints) and then broke off does not lift the bound
// on what a call sends: over HTTP/2 net/http still wants to send the request again
// after it, and each time it asks the try.
func TestAnAnswerThatBeganDoesNotLiftTheBound(t *testing.T) {
	for _, ep := range wiretest.Endpoints() {
		if ep.CreatesRecord {
			continue
		}
		for name, v := range map[string]verdict{"refused": {kind: refuse}, "reset PROTOCOL_ERROR": {kind: resetAfter, code: http2.ErrCodeProtocol}} {
			t.Run(ep.Name+"/"+name, func(t *testing.T) {
				t.Parallel()
				srv := newRawServer(t, func(arrival) verdict { return v }, func(s *rawServer) { s.earlyHints = true })
				took, _ := timedCall(rawClient(t, srv, insurance.WithMaxRetries(0)), ep)

				arrived, _ := srv.Totals()
				assert.LessOrEqual(t, arrived, 2, "at most 2 x (1 + MaxRetries)")
				assert.Less(t, took, callBound)
			})
		}
	}
}

// opaque is a RoundTripper the SDK cannot see into, as otelhttp.NewTransport is.
type opaque struct{ rt http.RoundTripper }

func (o opaque) RoundTrip(r *http.Request) (*http.Response, error) { return o.rt.RoundTrip(r) }

// On a transport the SDK cannot copy, purchases ride HTTP/2, and the try refuses
// every resend net/http asks for: a purchase reset with PROTOCOL_ERROR after a 103
// and after it was processed is processed once, and is outcome unknown.
func TestAPurchaseOnAnOpaqueTransportIsProcessedOnce(t *testing.T) {
	srv := newRawServer(t, func(arrival) verdict { return verdict{kind: resetAfter, code: http2.ErrCodeProtocol} },
		func(s *rawServer) { s.earlyHints = true })
	transport := insurance.NewTransport()
	transport.TLSClientConfig = &tls.Config{RootCAs: srv.Pool}
	c := wiretest.NewLoopbackClient(t, srv.URL, insurance.WithHTTPClient(&http.Client{Transport: opaque{transport}}))
	ctx, cancel := context.WithTimeout(context.Background(), callBound)
	defer cancel()

	err := wiretest.BuyTuition(ctx, c, "q_opaque")

	assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
	assert.Equal(t, 1, srv.Processed("q_opaque"))
	assert.Equal(t, 1, srv.ByProto("HTTP/2.0"), "over HTTP/2, once")
}
