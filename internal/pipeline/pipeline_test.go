package pipeline

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWaitGrowsWithJitterUpToTheMax(t *testing.T) {
	p := newPipeline(Config{RetryWaitMin: 100 * time.Millisecond, RetryWaitMax: 2 * time.Second, MaxRetryAfter: 10 * time.Second}, nil)
	for retries, ceiling := range []time.Duration{100, 200, 400, 800, 1600, 2000, 2000} {
		ceiling *= time.Millisecond
		seen := map[time.Duration]bool{}
		for range 200 {
			d := p.wait(retries, nil)
			assert.GreaterOrEqual(t, d, ceiling/2, "after %d retries", retries)
			assert.LessOrEqual(t, d, ceiling, "after %d retries", retries)
			seen[d] = true
		}
		assert.Greater(t, len(seen), 1, "after %d retries: waits must be jittered", retries)
	}
	assert.LessOrEqual(t, p.wait(200, nil), 2*time.Second, "no overflow on huge retry counts")
}

func TestWaitHonoursRetryAfterUpToTheCap(t *testing.T) {
	p := newPipeline(Config{RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond, MaxRetryAfter: 10 * time.Second}, nil)
	answer := func(status int, retryAfter string) *Response {
		return &Response{StatusCode: status, Header: http.Header{"Retry-After": {retryAfter}}}
	}
	assert.Equal(t, 3*time.Second, p.wait(0, answer(429, "3")))
	assert.Equal(t, 3*time.Second, p.wait(0, answer(503, "3")))
	assert.Equal(t, 10*time.Second, p.wait(0, answer(429, "3600")), "capped")
	assert.Equal(t, 10*time.Second, p.wait(0, answer(429, "99999999999999999")), "no overflow")
	assert.LessOrEqual(t, p.wait(0, answer(502, "3")), time.Millisecond, "only 429 and 503 carry Retry-After")
	assert.LessOrEqual(t, p.wait(0, answer(429, "soon")), time.Millisecond, "unparseable: normal backoff")
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"7", 7 * time.Second, true},
		{"-1", 0, false},
		{"", 0, false},
		{"1.5", 0, false},
		{"Sat, 21 Nov 2026 12:00:30 GMT", 30 * time.Second, true},
		{"Sat, 21 Nov 2026 11:00:00 GMT", 0, true}, // in the past: retry now
	}
	for _, tt := range tests {
		got, ok := ParseRetryAfter(tt.in, now)
		assert.Equal(t, tt.ok, ok, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
}

func TestIsDialError(t *testing.T) {
	assert.True(t, isDialError(&net.OpError{Op: "dial", Err: errors.New("connection refused")}))
	assert.False(t, isDialError(&net.OpError{Op: "read", Err: errors.New("connection reset")}))
	assert.False(t, isDialError(errors.New("EOF")))
}

// FuzzParseRetryAfter: any header value gives a wait that is never negative.
func FuzzParseRetryAfter(f *testing.F) {
	for _, v := range []string{"0", "120", "-1", "Sat, 21 Nov 2026 12:00:30 GMT", "soon", "99999999999999999999"} {
		f.Add(v)
	}
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := ParseRetryAfter(v, now)
		if d < 0 || (!ok && d != 0) {
			t.Fatalf("ParseRetryAfter(%q) = %v, %v", v, d, ok)
		}
	})
}

// roundTripFunc is a transport made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// canned is an answer a test transport gives: its status, body and Content-Length.
type canned struct {
	status int
	body   string
	length int64
}

// answering is a transport giving the answers in turn (the last one again once they
// run out), counting the requests in sent.
func answering(sent *int, answers ...canned) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		a := answers[min(*sent, len(answers)-1)]
		*sent++
		return &http.Response{StatusCode: a.status, Header: http.Header{}, ContentLength: a.length,
			Body: io.NopCloser(strings.NewReader(a.body)), Request: r}, nil
	})
}

// Every attempt is counted once and its body read, also the answer the call ends
// with.
func TestEveryAttemptIsCountedOnce(t *testing.T) {
	sent := 0
	p := newPipeline(Config{MaxRetries: 3}, &http.Client{Transport: answering(&sent,
		canned{503, "busy", 4}, canned{503, "busy", 4}, canned{200, `{"ok":true}`, 11})})
	res, err := p.Send(context.Background(), &Request{Method: http.MethodGet, Path: "/v1/products", Class: Idempotent})
	require.NoError(t, err)
	assert.Equal(t, 3, sent)
	assert.Equal(t, 3, res.Attempts)
	assert.Equal(t, `{"ok":true}`, string(res.Body))
}

// A 2xx whose body breaks off is retried like a failed attempt while retries are
// left; when none are, it is an error that keeps what was read, never a success.
func TestATruncatedSuccessBodyIsAnErrorOnceRetriesRunOut(t *testing.T) {
	sent := 0
	p := newPipeline(Config{MaxRetries: 1}, &http.Client{Transport: answering(&sent, canned{200, `{"ok":`, 11})})
	_, err := p.Send(context.Background(), &Request{Method: http.MethodGet, Path: "/v1/products", Class: Idempotent})
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 2, sent)
	assert.Equal(t, 2, e.Attempts)
	assert.Equal(t, http.StatusOK, e.StatusCode)
	assert.Equal(t, `{"ok":`, string(e.Body))
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
}

// Each attempt's ClientTrace composes with a caller's own trace, whose hooks still
// run: the connection it reports tells an attempt that may have reached the server
// (here one the server hung up on) from one that never left.
func TestTheCallTraceComposesWithTheCallers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		conn, _, _ := w.(http.Hijacker).Hijack()
		_ = conn.Close()
	}))
	defer srv.Close()
	p := newPipeline(Config{BaseURL: srv.URL}, srv.Client())

	var callerSaw int
	callerTrace := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
		GotConn: func(httptrace.GotConnInfo) { callerSaw++ },
	})
	for _, ctx := range []context.Context{context.Background(), callerTrace} {
		_, err := p.Send(ctx, &Request{Method: http.MethodPost, Path: "/v1/purchase/tuition", Class: CreatesRecord})
		var e *Error
		require.ErrorAs(t, err, &e)
		assert.True(t, e.MayHaveArrived, "the call's trace saw the connection")
		assert.Equal(t, 1, e.Attempts)
	}
	assert.Equal(t, 1, callerSaw, "the caller's GotConn hook runs")
}

// newPipeline is a pipeline on the pools of hc (nil: the default transport), with no
// retry budget.
func newPipeline(cfg Config, hc *http.Client) *Pipeline {
	return New(cfg, NewPools(hc, 0, false), nil)
}
