package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http/httptrace"
	"sync/atomic"
	"time"
)

// try is one turn of Send's loop: a request handed to net/http, sent again once by
// net/http (rewind) or by the try (deliver), and what came back; each request sent is
// an attempt. Fields net/http's callbacks set are atomic: some run on its goroutines.
type try struct {
	// The call's context. The try is its request's context too, carrying itself
	// to the pool's guard (see Value): one context value a request, not two.
	context.Context
	p            *Pipeline
	method, path string // the request's, for the log
	class        Class
	needsBody    bool      // Request.NeedsBody
	lane         lane      // the pool it goes out on
	number       int       // of the call's first request in this try, from 1
	start        time.Time // zero: the try is not logged (debug level disabled)
	trace        httptrace.ClientTrace

	// The held-back body (expect.go): the request asks "Expect: 100-continue";
	// bodyRead turns true when net/http takes the body to write it; answerBegan says
	// whether it had when the first byte of an answer came.
	holdsBody                          bool
	bodyRead, continued, informational atomic.Bool
	answerBegan                        atomic.Int32 // answerBeforeBody, answerAfterBody; 0: no byte yet

	conns         atomic.Int32         // connections obtained: each one carried the request
	handOffs      atomic.Int32         // requests handed to the pools (see guardedPool)
	resends       atomic.Int32         // times net/http asked to send the request again
	answered      atomic.Bool          // the pool returned an answer (see guardedPool)
	budgetRefused atomic.Bool          // a resend was refused, the budget being spent
	newBody       func() io.ReadCloser // a fresh copy of the request's body; nil: none

	// What came back: an answer whose body was read, or err (without net/http's *url.Error).
	answer *Answer
	err    error
}

// errResendRefused ends a try whose request net/http wanted to send again
// beyond what the try allows; the SDK's retry loop decides what follows.
var errResendRefused = errors.New("no answer, and net/http's own resend was refused")

// errResendOverHTTP1 stops net/http from sending an idempotent request again on its
// own pool: the try sends it again over HTTP/1.1 (see rewind).
var errResendOverHTTP1 = errors.New("no answer: the request is sent again over HTTP/1.1")

// newTry starts the next try of call c to send r, on the lane c's last try
// calls for.
func (p *Pipeline) newTry(ctx context.Context, r *Request, c *tally) *try {
	t := &try{Context: ctx, p: p, method: r.Method, path: r.Path, class: r.Class, needsBody: r.NeedsBody, number: c.attempts + 1}
	switch {
	case c.freshConn:
		t.lane = ownConnLane
	case r.Class == CreatesRecord:
		t.lane = recordsLane
	}
	if r.Body != nil && r.Class == CreatesRecord && p.pools.traced && !c.skipExpect && p.pools.expect.asks() {
		t.holdBack()
	}
	if p.cfg.Logger != nil && p.cfg.Logger.Enabled(ctx, slog.LevelDebug) {
		t.start = time.Now()
	}
	t.trace.GotConn = t.gotConn
	return t
}

// tryKey is the context key of a request's try: the pool's guard refuses a
// request whose context lost it (see guardedPool).
type tryKey struct{}

// Value is the context's: the try itself for tryKey, else the call's value.
func (t *try) Value(key any) any {
	if key == (tryKey{}) {
		return t
	}
	return t.Context.Value(key)
}

// gotConn runs when net/http hands the request to a connection, once per send,
// before any of it is written and before RoundTrip returns: a try that obtained
// no connection provably sent nothing.
func (t *try) gotConn(httptrace.GotConnInfo) {
	t.conns.Add(1)
	if t.lane == idempotentLane && t.p.pools.gate != nil {
		t.p.pools.gate.open()
	}
}

// rewind is the request's GetBody: net/http calls it to send the request again by
// itself (a reused HTTP/1.1 connection failed; an HTTP/2 stream was refused, cut by a
// GOAWAY or reset with PROTOCOL_ERROR). One resend a try, so a call sends at most
// 2 × (1 + MaxRetries) requests; none while the budget is spent, though resends do not
// draw on it (most are streams a server never took, not failures). An idempotent
// request is sent again by the try, over HTTP/1.1 (deliver): over HTTP/2 net/http
// would put it on a connection whose stream limit it does not know yet. A
// record-creating one only where nothing written is resent (see Pools).
func (t *try) rewind() (io.ReadCloser, error) {
	if t.answered.Load() {
		return t.newBody(), nil // for a redirect, refused before anything is sent
	}
	traced := t.p.pools.traced
	why := ""
	switch {
	case t.resends.Add(1) > 1:
		why = "net/http already sent it again once"
	case t.class == CreatesRecord && !traced:
		why = "a record-creating request may have reached the server"
	case t.p.budget.Spent():
		why = "the retry budget is spent"
		t.budgetRefused.Store(true)
	}
	if why != "" {
		return nil, fmt.Errorf("%w: %s", errResendRefused, why)
	}
	t.log(context.Background(), t.number+int(t.conns.Load())-1, slog.String("error", "no answer: the request is sent again"))
	if t.class == Idempotent && traced {
		return nil, errResendOverHTTP1
	}
	return t.newBody(), nil
}

// Attempts is how many requests the try put on the wire: the connections it obtained,
// or 1 for none (a dial failure, or a transport that does not report connections).
func (t *try) Attempts() int { return max(1, int(t.conns.Load())) }

// mayHaveArrived reports whether the try's request may have reached the server:
// not after an answer that refused it unprocessed (expect.go), a dial failure, no
// connection at all (on a transport that reports them), or a held-back body never
// taken (a connection the server closed as the request went out).
func (t *try) mayHaveArrived() bool {
	switch {
	case t.err == nil:
		return !t.refusedUnprocessed()
	case t.answer != nil: // a 2xx whose body broke off
		return true
	case isDialError(t.err), t.p.pools.traced && t.conns.Load() == 0, t.holdsBody && !t.bodyRead.Load():
		return false
	}
	return true
}

// wantsFreshConn reports a try after which the next one takes a new HTTP/1.1
// connection of its own: an idempotent one that got no full answer, or a record-
// creating one whose connection closed before its body went out. Such a connection's
// siblings likely fail too (a reloading proxy closes every idle one; Caddy 2.6 left
// accepted HTTP/2 streams unanswered on a connection it closed).
func (t *try) wantsFreshConn() bool {
	if t.class == Idempotent {
		return t.err != nil
	}
	return t.holdsBody && t.answer == nil && t.conns.Load() > 0 && !t.bodyRead.Load()
}

// logEnd logs the try's last request and how it ended.
func (t *try) logEnd(ctx context.Context) {
	switch {
	case t.start.IsZero():
	case t.err != nil:
		t.log(ctx, t.number+t.Attempts()-1, slog.String("error", t.err.Error()))
	default:
		t.log(ctx, t.number+t.Attempts()-1, slog.Int("status", t.answer.StatusCode))
	}
}

// log writes a debug line about request n of the call: method, path, attempt and
// latency, never a header, a body or a query, and its outcome.
func (t *try) log(ctx context.Context, n int, outcome slog.Attr) {
	if !t.start.IsZero() {
		t.p.cfg.Logger.LogAttrs(ctx, slog.LevelDebug, "insurance: http attempt", slog.String("method", t.method),
			slog.String("path", t.path), slog.Int("attempt", n), slog.Duration("latency", time.Since(t.start)), outcome)
	}
}

// isDialError reports a failure to connect: the request was never written.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
