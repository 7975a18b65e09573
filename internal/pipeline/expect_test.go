package pipeline

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A purchase asks "Expect: 100-continue" and holds its body back until the server asks
// for it. These tests are the servers and proxies that do not play along.

func purchase(quoteID string, needsBody bool) *Request {
	return &Request{Method: http.MethodPost, Path: "/v1/purchase/tuition", Body: map[string]string{"quote_id": quoteID}, Class: CreatesRecord, NeedsBody: needsBody}
}

// ignoringExpect is a pipeline whose server ignores Expect (IgnoresExpect): it reads a
// request's body once the client sends it unasked, then lets answer write the response
// (or close the connection without one). The client's transport waits 50 ms for
// "100 Continue"; cfg is the pipeline's, but for its BaseURL.
func ignoringExpect(t *testing.T, expects *ExpectLog, cfg Config, answer func(n int, w *rawWriter)) *Pipeline {
	var requests atomic.Int32
	cfg.BaseURL = IgnoresExpect(t, func(c net.Conn, r *http.Request) {
		expects.Record(r)
		_, _ = io.Copy(io.Discard, r.Body)
		answer(int(requests.Add(1)), &rawWriter{c})
		_ = c.Close()
	})
	transport := NewTransport()
	transport.ExpectContinueTimeout = 50 * time.Millisecond
	return newPipeline(cfg, &http.Client{Transport: transport})
}

// rawWriter writes raw HTTP/1.1 answers.
type rawWriter struct{ w io.Writer }

func (b *rawWriter) answer(status string) {
	_, _ = fmt.Fprintf(b.w, "HTTP/1.1 %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", status)
}

// A server that never says "100 Continue" gets each purchase's body after the
// transport's wait for it; after three such purchases the pools stop asking it.
func TestAServerThatIgnoresExpectIsAskedThreeTimes(t *testing.T) {
	var expects ExpectLog
	p := ignoringExpect(t, &expects, Config{}, func(_ int, w *rawWriter) { w.answer("201 Created") })

	for i := range 5 {
		res, err := p.Send(context.Background(), purchase(fmt.Sprint("q", i), true))
		require.NoError(t, err)
		assert.Equal(t, http.StatusCreated, res.StatusCode)
	}
	assert.Equal(t, []string{"100-continue", "100-continue", "100-continue", "", ""}, expects.All())
}

// A proxy whose upstream is down says neither "100 Continue" nor anything else until
// it has the body, then answers 502 (Caddy does): however long the outage, that says
// nothing about Expect, and the purchases after it still ask.
func TestAGatewayOutageKeepsExpect(t *testing.T) {
	var expects ExpectLog
	p := ignoringExpect(t, &expects, Config{}, func(n int, w *rawWriter) {
		status := "502 Bad Gateway"
		if n > 5 {
			status = "201 Created" // the upstream is back
		}
		w.answer(status)
	})

	for i := range 6 {
		_, _ = p.Send(context.Background(), purchase(fmt.Sprint("q", i), true))
	}
	assert.Equal(t, []string{"100-continue", "100-continue", "100-continue", "100-continue", "100-continue", "100-continue"}, expects.All())
}

// Turned off, Expect stays off for expectPause, then the pools ask again; a
// "100 Continue" clears the count of answers that ignored it.
func TestExpectIsAskedAgainAfterAPause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s expectSwitch
		ignored := &try{holdsBody: true, answer: &Answer{StatusCode: http.StatusCreated}}
		ignored.ev.answerBegan.Store(answerAfterBody)
		honoured := &try{holdsBody: true, answer: &Answer{StatusCode: http.StatusCreated}}
		honoured.ev.continued.Store(true)

		s.observe(judge(ignored, false))
		s.observe(judge(ignored, false))
		s.observe(judge(honoured, false))
		s.observe(judge(ignored, false))
		s.observe(judge(ignored, false))
		assert.True(t, s.asks(), "a 100 Continue in between clears the count")

		s.observe(judge(ignored, false))
		assert.False(t, s.asks(), "three in a row turn Expect off")
		s.observe(judge(ignored, false)) // purchases in flight as it turned off
		s.observe(judge(ignored, false))
		time.Sleep(expectPause - time.Second)
		assert.False(t, s.asks())
		time.Sleep(time.Second)
		assert.True(t, s.asks(), "and only for expectPause")
		s.observe(judge(ignored, false))
		assert.True(t, s.asks(), "a pause ends with no answer counted against Expect")
	})
}

// An answer whose first byte net/http never reported proves nothing about the body:
// here attempt middleware turns a connection the server closed after taking the
// purchase's body (sent unasked) into a 503 of its own. The purchase may have been
// processed, and is not sent again.
func TestAnAnswerMadeUpByMiddlewareIsNoProof(t *testing.T) {
	var expects ExpectLog
	madeUp503 := func(next http.RoundTripper) http.RoundTripper {
		return roundTripFunc(func(req *http.Request) (*http.Response, error) {
			resp, err := next.RoundTrip(req)
			if err != nil {
				return &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{}, Body: http.NoBody, Request: req}, nil
			}
			return resp, nil
		})
	}
	cfg := Config{MaxRetries: 2, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond, Middleware: madeUp503}
	p := ignoringExpect(t, &expects, cfg, func(int, *rawWriter) {}) // takes the body, closes unanswered

	res, err := p.Send(context.Background(), purchase("q1", true))

	require.NoError(t, err)
	assert.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
	assert.True(t, res.MayHaveArrived)
	assert.Len(t, expects.All(), 1, "sent once")
}

// A proxy whose upstream is down may answer at once, before the body went out and
// without asking for it (Apache answers 503). A typed purchase (NeedsBody) cannot have
// been processed without its body: it is tried again, and when every answer came
// before the body, the call ends known not to have arrived. Do's requests (no
// NeedsBody) keep the stricter rule: the server may act on the path alone.
func TestAnAnswerBeforeTheBodyProvesATypedPurchaseUnprocessed(t *testing.T) {
	for _, tc := range []struct {
		name      string
		needsBody bool
		failures  int32
		want      string // what the call ends with
		requests  int32
	}{
		{"typed, one 503", true, 1, "201, 2 requests", 2},
		{"typed, every answer 503", true, 99, "503 unprocessed, 3 requests", 3},
		{"Do, one 503", false, 1, "503 may have arrived, 1 requests", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var requests, bodies atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if requests.Add(1) <= tc.failures {
					w.Header().Set("Connection", "close")
					w.WriteHeader(http.StatusServiceUnavailable) // before reading the body: no 100 Continue
					return
				}
				_, _ = io.Copy(io.Discard, r.Body)
				bodies.Add(1)
				w.WriteHeader(http.StatusCreated)
			}))
			defer srv.Close()
			p := newPipeline(Config{BaseURL: srv.URL, MaxRetries: 2, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond}, srv.Client())

			res, err := p.Send(context.Background(), purchase("q1", tc.needsBody))
			require.NoError(t, err)

			got := fmt.Sprintf("%d, %d requests", res.StatusCode, requests.Load())
			if res.StatusCode != http.StatusCreated {
				arrived := "unprocessed"
				if res.MayHaveArrived {
					arrived = "may have arrived"
				}
				got = fmt.Sprintf("%d %s, %d requests", res.StatusCode, arrived, requests.Load())
			}
			assert.Equal(t, tc.want, got)
			assert.LessOrEqual(t, bodies.Load(), int32(1))
		})
	}
}
