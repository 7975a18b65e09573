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

// attempt is one try of a call: one request handed to net/http. Below the SDK,
// net/http may send that request more than once: again on a fresh connection when a
// reused HTTP/1.1 one failed (before writing it; a GET also before its answer), and
// over HTTP/2 when a stream was refused, went away with the connection, or was reset
// with PROTOCOL_ERROR. It asks for the body again through GetBody first, and rewind
// decides:
//
//   - a request goes out at most twice per attempt, so a call sends at most
//     2 × (1 + MaxRetries) requests whatever the server answers;
//   - a resend is refused while the retry budget is spent, but does not draw on it:
//     what net/http resends is mostly a stream the server refused or never took
//     (REFUSED_STREAM, a graceful GOAWAY), a sign of a server shedding load or
//     restarting, not failing; a budget charged for those would run dry behind a
//     proxy that rotates its connections (as gRPC's transparent retries are not
//     throttled either);
//   - an idempotent request is not sent again by net/http but by the attempt, over
//     HTTP/1.1: over HTTP/2 net/http would put it on a connection whose limits it does
//     not know yet, with every other request waiting for one, and a server that
//     allows one stream a connection (or one stream before a GOAWAY) would refuse it
//     again;
//   - a record-creating request is sent again only on a pool that resends nothing
//     that may have reached the server (see Pools): an HTTP/2 reset with
//     PROTOCOL_ERROR comes after the server may have processed it.
type attempt struct {
	number     int // of the call's first request in this attempt, from 1
	class      Class
	route      route
	resendSafe bool // the pool resends only what never reached the server
	// resendOverHTTP1: when net/http would send the request again, the attempt does
	// it itself, on the records pool (see rewind).
	resendOverHTTP1 bool
	// holdsBody: the request asks "Expect: 100-continue" and net/http writes its body
	// only once the server says to go on (see newRequest); bodyRead turns true when
	// net/http takes the body to write it. Until then the server has the request's
	// headers at most: it cannot have processed a purchase it never saw.
	holdsBody bool
	needsBody bool // Request.NeedsBody
	bodyRead  atomic.Bool
	continued atomic.Bool // the server said "100 Continue"
	// bodyBeforeAnswer: the body had gone out when the first byte of an answer came.
	// (net/http also writes it after a final answer, on a connection it keeps: too
	// late for the server to have used it.)
	bodyBeforeAnswer atomic.Bool
	waited100        atomic.Bool // net/http waited for "100 Continue"
	informational    atomic.Bool // a 1xx other than 100 came (a 103): no inference
	budget           *Budget
	gate             *connGate
	logger           *slog.Logger // nil: not logged
	method           string
	path             string
	start            time.Time

	trace httptrace.ClientTrace
	sends atomic.Int32 // connections obtained: each one carried the request
	// answered: the pool returned an answer (see guardedPool); net/http resends
	// nothing after that, and asks for the body only to follow a redirect (which the
	// client refuses).
	answered atomic.Bool
	// handOffs counts the requests handed to the pools; mayHandOff is how many the
	// attempt sends: 1, or 2 once it sends one again over HTTP/1.1 (see guardedPool).
	handOffs, mayHandOff atomic.Int32
	resends              atomic.Int32         // times net/http asked to send the request again
	newBody              func() io.ReadCloser // a fresh copy of the request's body; nil: none
	// budgetRefused is set when a resend was refused because the budget is spent.
	budgetRefused atomic.Bool

	// What came back: an answer whose body was read, or err.
	answer *Response
	err    error
}

// errResendRefused ends an attempt whose request net/http wanted to send again
// beyond what the attempt allows; the SDK's retry loop decides what follows.
var errResendRefused = errors.New("no answer, and net/http's own resend was refused")

// errResendOverHTTP1 stops net/http from sending an idempotent request again on its
// own pool: the attempt sends it again over HTTP/1.1 (see rewind).
var errResendOverHTTP1 = errors.New("no answer: the request is sent again over HTTP/1.1")

// newAttempt starts the next attempt of call c to send r, as c's last attempt
// calls for (see call).
func (p *Pipeline) newAttempt(ctx context.Context, r *Request, c *call) *attempt {
	a := &attempt{
		number:          c.sent + 1,
		class:           r.Class,
		route:           idempotentRoute,
		needsBody:       r.NeedsBody,
		resendSafe:      r.Class == Idempotent || p.pools.traced,
		resendOverHTTP1: r.Class == Idempotent && p.pools.traced,
		budget:          p.budget,
		method:          r.Method,
		path:            r.Path,
	}
	switch {
	case r.Class == Idempotent && c.unanswered:
		a.route = ownConnRoute
	case r.Class == Idempotent:
		a.gate = p.pools.gate
	case c.closedUnder:
		a.route = ownConnRoute
	default:
		a.route = recordsRoute
	}
	if r.Body != nil && r.Class == CreatesRecord && p.pools.traced && !c.skipExpect && p.pools.expect.asks() {
		a.holdBack()
	}
	if p.cfg.Logger != nil && p.cfg.Logger.Enabled(ctx, slog.LevelDebug) {
		a.logger, a.start = p.cfg.Logger, time.Now()
	}
	a.mayHandOff.Store(1)
	a.trace.GotConn = a.gotConn
	return a
}

// gotConn runs when net/http hands the request to a connection, once per send,
// before any of it is written and before RoundTrip returns: an attempt that obtained
// no connection provably sent nothing.
func (a *attempt) gotConn(httptrace.GotConnInfo) {
	a.sends.Add(1)
	if a.gate != nil {
		a.gate.open()
	}
}

// rewind is the request's GetBody: net/http calls it to send the request again.
func (a *attempt) rewind() (io.ReadCloser, error) {
	if a.answered.Load() {
		return a.newBody(), nil // for a redirect, refused before anything is sent
	}
	why := ""
	switch {
	case a.resends.Add(1) > 1:
		why = "net/http already sent it again once"
	case !a.resendSafe:
		why = "a record-creating request may have reached the server"
	case a.budget.Spent():
		why = "the retry budget is spent"
		a.budgetRefused.Store(true)
	}
	if why != "" {
		return nil, fmt.Errorf("%w: %s", errResendRefused, why)
	}
	a.logResend()
	if a.resendOverHTTP1 {
		return nil, errResendOverHTTP1
	}
	return a.newBody(), nil
}

// Sends is how many requests the attempt put on the wire: the connections it
// obtained, or 1 for one that obtained none (a dial failure, or a transport that
// does not report connections).
func (a *attempt) Sends() int { return max(1, int(a.sends.Load())) }

// mayHaveArrived reports whether the attempt's request may have reached the server.
// A 429 refused it unprocessed; a dial failure or no connection at all (on a transport
// that reports them) means nothing was written; a body held back and never taken
// means the server never had it (a connection closed by the server as the request
// went out: a reloading proxy).
func (a *attempt) mayHaveArrived(traced bool) bool {
	switch {
	case a.err == nil:
		return !a.refusedUnprocessed()
	case a.answer != nil: // a 2xx whose body broke off
		return true
	case isDialError(a.err):
		return false
	case traced && a.sends.Load() == 0:
		return false
	case a.holdsBody && !a.bodyRead.Load():
		return false
	}
	return true
}

// logResend logs a send that failed and that is made again. Like every line
// the pipeline logs, it names method, path and attempt, never a header, a body or a
// query.
func (a *attempt) logResend() {
	if a.logger == nil {
		return
	}
	attrs := a.logAttrs(a.number + int(a.sends.Load()) - 1)
	attrs = append(attrs, slog.String("error", "no answer: the request is sent again"))
	a.logger.LogAttrs(context.Background(), slog.LevelDebug, "insurance: http attempt", attrs...)
}

// logEnd logs the attempt's last send and how it ended.
func (a *attempt) logEnd(ctx context.Context) {
	if a.logger == nil {
		return
	}
	attrs := a.logAttrs(a.number + a.Sends() - 1)
	if a.err != nil {
		attrs = append(attrs, slog.String("error", unwrapURLError(a.err).Error()))
	} else {
		attrs = append(attrs, slog.Int("status", a.answer.StatusCode))
	}
	a.logger.LogAttrs(ctx, slog.LevelDebug, "insurance: http attempt", attrs...)
}

func (a *attempt) logAttrs(request int) []slog.Attr {
	return []slog.Attr{
		slog.String("method", a.method),
		slog.String("path", a.path),
		slog.Int("attempt", request),
		slog.Duration("latency", time.Since(a.start)),
	}
}

// isDialError reports a failure to connect: the request was never written.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
