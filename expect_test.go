package insurance_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

// A purchase asks "Expect: 100-continue" and holds its body back until the server
// asks for it (see TestAReloadProcessesNoPurchaseTwice for why). These tests are the
// servers that do not play along.

// A server that refuses the expectation with 417 never saw the body: the purchase is
// sent again without Expect, as RFC 9110 asks, and so are the purchases after it.
func TestAPurchaseRefused417IsSentAgainWithoutExpect(t *testing.T) {
	var withExpect, without atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Expect") != "" {
			withExpect.Add(1)
			w.WriteHeader(http.StatusExpectationFailed)
			return
		}
		without.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, tlsAnswer)
	}))
	defer srv.Close()
	c := newLoopbackClient(t, srv.URL)

	require.NoError(t, buyTuition(context.Background(), c, "q_1"))
	require.NoError(t, buyTuition(context.Background(), c, "q_2"))

	assert.Equal(t, int32(1), withExpect.Load())
	assert.Equal(t, int32(2), without.Load())
}

// A server that ignores Expect and waits for the body: with an attempt timeout
// shorter than net/http's wait for "100 Continue", the first attempt times out with
// the body unsent, and the purchase is sent again without Expect.
func TestAPurchaseToAServerThatIgnoresExpectSucceedsWithinAnAttemptTimeout(t *testing.T) {
	var requests atomic.Int32
	url := ignoresExpect(t, func(c net.Conn, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			return // the client gave up before sending the body
		}
		requests.Add(1)
		_, _ = fmt.Fprintf(c, "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(tlsAnswer), tlsAnswer)
	})
	c := newLoopbackClient(t, url, insurance.WithAttemptTimeout(300*time.Millisecond))

	start := time.Now()
	require.NoError(t, buyTuition(context.Background(), c, "q_1"))
	assert.Less(t, time.Since(start), time.Second)
	assert.Equal(t, int32(1), requests.Load(), "one body arrived: the first attempt's never went out")
}

// A 2xx proves the purchase arrived, even when it came before the purchase's body
// went out and broke off: it is not sent again.
func TestAPurchaseAnswered2xxIsNotSentAgain(t *testing.T) {
	var requests atomic.Int32
	url := ignoresExpect(t, func(c net.Conn, _ *http.Request) {
		requests.Add(1)
		_, _ = io.WriteString(c, "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"quote_id\":")
		_ = c.Close()
	})
	c := newLoopbackClient(t, url)

	err := buyTuition(context.Background(), c, "q_1")

	assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
	assert.Equal(t, int32(1), requests.Load())
}

// ignoresExpect serves HTTP/1.1 on loopback as a server that knows nothing of
// Expect: it never says "100 Continue", and lets answer read each request's body
// (or not) and write the response.
func ignoresExpect(t *testing.T, answer func(c net.Conn, r *http.Request)) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var wg sync.WaitGroup
	t.Cleanup(func() { _ = ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer func() { _ = c.Close() }()
				br := bufio.NewReader(c)
				for {
					r, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					answer(c, r)
				}
			})
		}
	})
	return "http://" + ln.Addr().String()
}
