package pipeline_test

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/http2"

	"github.com/partnerinsure/insurance-go/internal/pipeline"
)

// silentH2 is an HTTP/2 peer that completes the handshake, takes requests, and then
// says nothing more: no answer, no PING acknowledgement, as a middlebox that lost the
// connection's other side. It returns its URL and a pool trusting it.
func silentH2(t *testing.T) string {
	t.Helper()
	cert, _ := testCert(t)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2"}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				preface := make([]byte, len(http2.ClientPreface))
				if _, err := io.ReadFull(conn, preface); err != nil {
					return
				}
				fr := http2.NewFramer(conn, conn)
				if fr.WriteSettings() != nil {
					return
				}
				for { // read every frame, acknowledge the settings, answer nothing else
					f, err := fr.ReadFrame()
					if err != nil {
						return
					}
					if s, ok := f.(*http2.SettingsFrame); ok && !s.IsAck() {
						_ = fr.WriteSettingsAck()
					}
				}
			}()
		}
	}()
	return "https://" + ln.Addr().String()
}

// The default transport pings an HTTP/2 connection that falls silent and drops it
// when the ping goes unanswered, so the request on it fails instead of waiting for
// ever; here with the ping's timeouts shortened, against a peer that answers nothing.
func TestTheDefaultTransportDropsASilentHTTP2Connection(t *testing.T) {
	transport := pipeline.NewTransport()
	require.NotNil(t, transport.HTTP2)
	assert.Equal(t, 30*time.Second, transport.HTTP2.SendPingTimeout, "a connection silent for 30 s is pinged")
	assert.Equal(t, 15*time.Second, transport.HTTP2.PingTimeout, "and dropped 15 s later without an answer")

	url := silentH2(t)
	for name, ping := range map[string]time.Duration{"pinged": 100 * time.Millisecond, "never pinged": 0} {
		transport := pipeline.NewTransport()
		transport.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} // the peer's own certificate
		transport.HTTP2.SendPingTimeout, transport.HTTP2.PingTimeout = ping, ping
		ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/v1/products", nil)
		require.NoError(t, err)
		start := time.Now()
		_, err = transport.RoundTrip(req)
		took := time.Since(start)
		cancel()
		transport.CloseIdleConnections()

		require.Error(t, err, name)
		if ping > 0 {
			assert.NotErrorIs(t, err, context.DeadlineExceeded, "%s: the connection was dropped: %v", name, err)
			assert.Less(t, took, time.Second, name)
			assert.ErrorContains(t, err, "connection lost", name)
		} else {
			assert.ErrorIs(t, err, context.DeadlineExceeded, "%s: only the context ends it", name)
		}
	}
}
