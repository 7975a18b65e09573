package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Each try's ClientTrace composes with a caller's own trace, whose hooks still
// run: the connection it reports tells a try that may have reached the server
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
		res, err := p.Send(ctx, &Request{Method: http.MethodPost, Path: "/v1/purchase/tuition", Class: CreatesRecord})
		require.Error(t, err)
		assert.True(t, res.MayHaveArrived, "the call's trace saw the connection")
		assert.Equal(t, 1, res.Attempts)
	}
	assert.Equal(t, 1, callerSaw, "the caller's GotConn hook runs")
}

func TestIsDialError(t *testing.T) {
	assert.True(t, isDialError(&net.OpError{Op: "dial", Err: errors.New("connection refused")}))
	assert.False(t, isDialError(&net.OpError{Op: "read", Err: errors.New("connection reset")}))
	assert.False(t, isDialError(errors.New("EOF")))
}

var errStreamReset = errors.New("stream error: PROTOCOL_ERROR; received from peer")

// resetEveryStream behaves as net/http's HTTP/2 transport does against a server that
// resets every stream with PROTOCOL_ERROR: it reports each connection to the
// request's ClientTrace, sends the request, and sends it again up to six times,
// asking GetBody for the body first (a request without a body it resends as it is).
type resetEveryStream struct{ sends int }

func (t *resetEveryStream) RoundTrip(req *http.Request) (*http.Response, error) {
	for retry := 0; ; retry++ {
		httptrace.ContextClientTrace(req.Context()).GotConn(httptrace.GotConnInfo{})
		t.sends++
		if req.Body != nil {
			_, _ = io.Copy(io.Discard, req.Body)
		}
		if retry == 6 {
			return nil, errStreamReset
		}
		if req.Body != nil && req.Body != http.NoBody {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			req = req.Clone(req.Context())
			req.Body = body
		}
	}
}

// net/http sends a request at most twice a try, bodiless ones included, so a
// call sends at most 2 × (1 + MaxRetries) requests whatever the server answers; a
// record-creating request on a transport the SDK does not own is never resent.
func TestNetHTTPResendsAtMostOncePerTry(t *testing.T) {
	for _, tc := range []struct {
		name      string
		method    string
		body      any
		class     Class
		wantSends int
	}{
		{"quote", http.MethodPost, map[string]string{"a": "b"}, Idempotent, 6},
		{"products, no body", http.MethodGet, nil, Idempotent, 6},
		{"purchase", http.MethodPost, map[string]string{"a": "b"}, CreatesRecord, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			transport := &resetEveryStream{}
			p := newPipeline(Config{BaseURL: "https://api.example.com", MaxRetries: 2, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond},
				&http.Client{Transport: transport})
			res, err := p.Send(context.Background(), &Request{Method: tc.method, Path: "/v1/x", Body: tc.body, Class: tc.class})
			require.Error(t, err)
			assert.Equal(t, tc.wantSends, transport.sends, "requests sent")
			assert.Equal(t, tc.wantSends, res.Attempts, "Attempts counts every request")
			assert.True(t, res.MayHaveArrived)
		})
	}
}

// A resend net/http asks for does not draw on the retry budget, but is refused once
// the budget is spent, and the call then says so.
func TestAResendIsRefusedOnceTheBudgetIsSpent(t *testing.T) {
	transport := &resetEveryStream{}
	budget := NewBudget(5, 5)
	p := New(Config{BaseURL: "https://api.example.com", MaxRetries: 2, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond},
		NewPools(&http.Client{Transport: transport}, 0, true), budget)
	res, err := p.Send(context.Background(), &Request{Method: http.MethodGet, Path: "/v1/products", Class: Idempotent})
	require.Error(t, err)
	assert.Equal(t, 3, transport.sends, "a free resend; the retry the budget paid for, whose resend it refused")
	assert.True(t, res.BudgetRefused)
	assert.Zero(t, budget.Tokens())

	transport.sends = 0
	_, err = p.Send(context.Background(), &Request{Method: http.MethodGet, Path: "/v1/products", Class: Idempotent})
	require.Error(t, err)
	assert.Equal(t, 1, transport.sends, "the budget spent, net/http may not resend either")
	assert.ErrorContains(t, err, "the retry budget is spent")
}

// The debug log has a line for every request that went on the wire, net/http's own
// resends included.
func TestTheLogHasALineForEveryRequest(t *testing.T) {
	var lines strings.Builder
	logger := slog.New(slog.NewTextHandler(&lines, &slog.HandlerOptions{Level: slog.LevelDebug}))
	transport := &resetEveryStream{}
	p := newPipeline(Config{BaseURL: "https://api.example.com", MaxRetries: 1, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond, Logger: logger},
		&http.Client{Transport: transport})
	_, err := p.Send(context.Background(), &Request{Method: http.MethodPost, Path: "/v1/quote/travel", Body: map[string]int{"n": 1}, Class: Idempotent})
	require.Error(t, err)
	require.Equal(t, 4, transport.sends)
	assert.Equal(t, 4, strings.Count(lines.String(), "insurance: http attempt"), "a line per request")
	for n := 1; n <= 4; n++ {
		assert.Contains(t, lines.String(), fmt.Sprintf("attempt=%d ", n))
	}
	assert.Contains(t, lines.String(), "net/http's own resend was refused: net/http already sent it again once")
	assert.Equal(t, 4, strings.Count(lines.String(), " why="), "each line of a request that did not succeed says why")
	assert.Contains(t, lines.String(), `why="the request went to a transport that does not say what it sent, and the connection closed before an answer"`)
}

// A purchase asks "Expect: 100-continue" and holds its body back until the server
// asks for it. A server that closes the connection before that (a proxy reloading)
// cannot have processed it: the call is not outcome unknown but tried again, on a
// connection of its own, as the connections around the closed one may be closing too.
func TestAPurchaseWhoseConnectionClosedBeforeItsBodyIsTriedAgain(t *testing.T) {
	var mu sync.Mutex
	var seen []*http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r)
		first := len(seen) == 1
		mu.Unlock()
		if first { // close before asking for the body
			conn, _, _ := w.(http.Hijacker).Hijack()
			_ = conn.Close()
			return
		}
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	p := newPipeline(Config{BaseURL: srv.URL, MaxRetries: 2}, srv.Client())

	res, err := p.Send(context.Background(), &Request{Method: http.MethodPost, Path: "/v1/purchase/tuition", Body: map[string]string{"quote_id": "q1"}, Class: CreatesRecord})

	require.NoError(t, err)
	assert.Equal(t, 2, res.Attempts)
	require.Len(t, seen, 2)
	assert.Equal(t, "100-continue", seen[0].Header.Get("Expect"))
	assert.False(t, seen[0].Close)
	assert.True(t, seen[1].Close, "tried again on a connection of its own, closed after it")
}

// Once the server asked for the body and the connection then broke, the purchase may
// have been processed: it is not tried again.
func TestAPurchaseWhoseBodyWentOutIsNotTriedAgain(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		_, _ = io.Copy(io.Discard, r.Body) // sends "100 Continue"
		conn, _, _ := w.(http.Hijacker).Hijack()
		_ = conn.Close()
	}))
	defer srv.Close()
	p := newPipeline(Config{BaseURL: srv.URL, MaxRetries: 2}, srv.Client())

	res, err := p.Send(context.Background(), &Request{Method: http.MethodPost, Path: "/v1/purchase/tuition", Body: map[string]string{"quote_id": "q1"}, Class: CreatesRecord})

	require.Error(t, err)
	assert.True(t, res.MayHaveArrived)
	assert.Equal(t, int32(1), requests.Load())
}
