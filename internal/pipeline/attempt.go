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

// attempt is one try of a call: one request handed to net/http, which may send it
// twice (see rewind), and what came back. The fields that net/http's callbacks set
// are atomic: some run on its connections' goroutines, even after Do returned.
type attempt struct {
	// The call's context. The attempt is its request's context too, carrying itself
	// to the pool's guard (see Value): one context value a request, not two.
	context.Context
	p            *Pipeline
	method, path string // the request's, for the log
	class        Class
	needsBody    bool      // Request.NeedsBody
	lane         lane      // the pool it goes out on
	number       int       // of the call's first request in this attempt, from 1
	start        time.Time // zero: the attempt is not logged (debug level disabled)
	trace        httptrace.ClientTrace

	// The held-back body (expect.go): the request asks "Expect: 100-continue";
	// bodyRead turns true when net/http takes the body to write it; answerBegan says
	// whether it had when the first byte of an answer came.
	holdsBody                          bool
	bodyRead, continued, informational atomic.Bool
	answerBegan                        atomic.Int32 // answerBeforeBody, answerAfterBody; 0: no byte yet

	sends         atomic.Int32         // connections obtained: each one carried the request
	handOffs      atomic.Int32         // requests handed to the pools (see guardedPool)
	resends       atomic.Int32         // times net/http asked to send the request again
	answered      atomic.Bool          // the pool returned an answer (see guardedPool)
	budgetRefused atomic.Bool          // a resend was refused, the budget being spent
	newBody       func() io.ReadCloser // a fresh copy of the request's body; nil: none

	// What came back: an answer whose body was read, or err (without net/http's *url.Error).
	answer *Answer
	err    error
}

// errResendRefused ends an attempt whose request net/http wanted to send again
// beyond what the attempt allows; the SDK's retry loop decides what follows.
var errResendRefused = errors.New("no answer, and net/http's own resend was refused")

// errResendOverHTTP1 stops net/http from sending an idempotent request again on its
// own pool: the attempt sends it again over HTTP/1.1 (see rewind).
var errResendOverHTTP1 = errors.New("no answer: the request is sent again over HTTP/1.1")

// newAttempt starts the next attempt of call c to send r, on the lane c's last
// attempt calls for.
func (p *Pipeline) newAttempt(ctx context.Context, r *Request, c *tally) *attempt {
	a := &attempt{Context: ctx, p: p, method: r.Method, path: r.Path, class: r.Class, needsBody: r.NeedsBody, number: c.sent + 1}
	switch {
	case c.freshConn:
		a.lane = ownConnLane
	case r.Class == CreatesRecord:
		a.lane = recordsLane
	}
	if r.Body != nil && r.Class == CreatesRecord && p.pools.traced && !c.skipExpect && p.pools.expect.asks() {
		a.holdBack()
	}
	if p.cfg.Logger != nil && p.cfg.Logger.Enabled(ctx, slog.LevelDebug) {
		a.start = time.Now()
	}
	a.trace.GotConn = a.gotConn
	return a
}

// attemptKey is the context key of a request's attempt: the pool's guard refuses a
// request whose context lost it (see guardedPool).
type attemptKey struct{}

// Value is the context's: the attempt itself for attemptKey, else the call's value.
func (a *attempt) Value(key any) any {
	if key == (attemptKey{}) {
		return a
	}
	return a.Context.Value(key)
}

// gotConn runs when net/http hands the request to a connection, once per send,
// before any of it is written and before RoundTrip returns: an attempt that obtained
// no connection provably sent nothing.
func (a *attempt) gotConn(httptrace.GotConnInfo) {
	a.sends.Add(1)
	if a.lane == idempotentLane && a.p.pools.gate != nil {
		a.p.pools.gate.open()
	}
}

// rewind is the request's GetBody: net/http calls it to send the request again by
// itself (a reused HTTP/1.1 connection failed; an HTTP/2 stream was refused, cut by a
// GOAWAY or reset with PROTOCOL_ERROR). One resend an attempt, so a call sends at most
// 2 × (1 + MaxRetries) requests; none while the budget is spent, though resends do not
// draw on it (most are streams a server never took, not failures). An idempotent
// request is sent again by the attempt, over HTTP/1.1 (deliver): over HTTP/2 net/http
// would put it on a connection whose stream limit it does not know yet. A
// record-creating one only where nothing written is resent (see Pools).
func (a *attempt) rewind() (io.ReadCloser, error) {
	if a.answered.Load() {
		return a.newBody(), nil // for a redirect, refused before anything is sent
	}
	traced := a.p.pools.traced
	why := ""
	switch {
	case a.resends.Add(1) > 1:
		why = "net/http already sent it again once"
	case a.class == CreatesRecord && !traced:
		why = "a record-creating request may have reached the server"
	case a.p.budget.Spent():
		why = "the retry budget is spent"
		a.budgetRefused.Store(true)
	}
	if why != "" {
		return nil, fmt.Errorf("%w: %s", errResendRefused, why)
	}
	a.log(context.Background(), a.number+int(a.sends.Load())-1, slog.String("error", "no answer: the request is sent again"))
	if a.class == Idempotent && traced {
		return nil, errResendOverHTTP1
	}
	return a.newBody(), nil
}

// Sends is how many requests the attempt put on the wire: the connections it obtained,
// or 1 for none (a dial failure, or a transport that does not report connections).
func (a *attempt) Sends() int { return max(1, int(a.sends.Load())) }

// mayHaveArrived reports whether the attempt's request may have reached the server:
// not after an answer that refused it unprocessed (expect.go), a dial failure, no
// connection at all (on a transport that reports them), or a held-back body never
// taken (a connection the server closed as the request went out).
func (a *attempt) mayHaveArrived() bool {
	switch {
	case a.err == nil:
		return !a.refusedUnprocessed()
	case a.answer != nil: // a 2xx whose body broke off
		return true
	case isDialError(a.err), a.p.pools.traced && a.sends.Load() == 0, a.holdsBody && !a.bodyRead.Load():
		return false
	}
	return true
}

// wantsFreshConn reports an attempt after which the next one takes a new HTTP/1.1
// connection of its own: an idempotent one that got no full answer, or a record-
// creating one whose connection closed before its body went out. Such a connection's
// siblings likely fail too (a reloading proxy closes every idle one; Caddy 2.6 left
// accepted HTTP/2 streams unanswered on a connection it closed).
func (a *attempt) wantsFreshConn() bool {
	if a.class == Idempotent {
		return a.err != nil
	}
	return a.holdsBody && a.answer == nil && a.sends.Load() > 0 && !a.bodyRead.Load()
}

// logEnd logs the attempt's last send and how it ended.
func (a *attempt) logEnd(ctx context.Context) {
	switch {
	case a.start.IsZero():
	case a.err != nil:
		a.log(ctx, a.number+a.Sends()-1, slog.String("error", a.err.Error()))
	default:
		a.log(ctx, a.number+a.Sends()-1, slog.Int("status", a.answer.StatusCode))
	}
}

// log writes a debug line about request n of the call: method, path, attempt and
// latency, never a header, a body or a query, and its outcome.
func (a *attempt) log(ctx context.Context, n int, outcome slog.Attr) {
	if !a.start.IsZero() {
		a.p.cfg.Logger.LogAttrs(ctx, slog.LevelDebug, "insurance: http attempt", slog.String("method", a.method),
			slog.String("path", a.path), slog.Int("attempt", n), slog.Duration("latency", time.Since(a.start)), outcome)
	}
}

// isDialError reports a failure to connect: the request was never written.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
