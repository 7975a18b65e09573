package pipeline

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strconv"
)

// verdict is what a try means for its call.
type verdict struct {
	arrived   bool       // the request may have reached the server
	retry     bool       // the retry table allows sending it again
	freshConn bool       // and then on a new connection of its own
	expect    expectNews // what the try showed of the server's way with Expect
	why       string     // where the request got, in words
}

// judge decides what try t means from its evidence and what came back; timedOut: the
// attempt timeout, not the call's context, ended it. It is the retry table: an
// idempotent request goes again after a failure that may pass (429, 502, 503, 504, a
// broken connection, a cut or corrupt 2xx body); a record-creating one only when it
// cannot have been processed (429, nothing sent, an answer before its body went out).
func judge(t *try, timedOut bool) verdict {
	v := verdict{arrived: true, expect: t.expectNews(timedOut)}
	idempotent := t.req.Class == Idempotent
	if t.answer == nil { // the connection, the context or a guard ended the try
		v.arrived, v.why = t.unanswered(timedOut)
		v.retry = !isPermanent(t.err) && (idempotent || !v.arrived)
		v.freshConn = idempotent || (t.holdsBody && t.ev.conns.Load() > 0 && !t.ev.bodyRead.Load())
		return v
	}
	status := t.answer.StatusCode
	if t.err == nil && isSuccess(status) {
		return v // nothing to explain
	}
	answered := "the server answered " + strconv.Itoa(status) + " " + http.StatusText(status)
	switch {
	case t.err != nil: // a 2xx whose body failed
		v.why = answered + ", but " + bodyProblem(t.err)
		v.retry = idempotent && !isPermanent(t.err)
		v.freshConn = idempotent
	case status == http.StatusTooManyRequests:
		v.arrived, v.retry = false, true
		v.why = answered + ": it refused the request unprocessed"
	case t.answeredBeforeBody() && (status == http.StatusExpectationFailed || t.req.NeedsBody):
		// RFC 9110 has a 417 sent again without Expect; and a server cannot act on a
		// typed record-creating request without its body (Do's may act on the path).
		v.arrived = false
		v.retry = status == http.StatusExpectationFailed || isGatewayFailure(status)
		v.why = answered + " before the body went out: it cannot have acted on the request"
	default:
		v.retry = idempotent && isGatewayFailure(status)
		v.why = answered
	}
	return v
}

// unanswered says whether a try without an answer may have reached the server, and why.
func (t *try) unanswered(timedOut bool) (arrived bool, why string) {
	ended := "the connection closed"
	switch {
	case timedOut:
		ended = "the attempt timeout passed"
	case errors.Is(t.err, context.Canceled) || errors.Is(t.err, context.DeadlineExceeded):
		ended = "the context ended"
	}
	switch {
	case isDialError(t.err):
		return false, "nothing could connect"
	case t.seesConns && t.ev.conns.Load() == 0:
		return false, "the request got no connection: nothing was sent"
	case t.holdsBody && !t.ev.bodyRead.Load():
		return false, ended + " before the server asked for the body: the body never went out"
	case t.holdsBody:
		return true, "the body went out and " + ended + " before an answer"
	case !t.seesConns:
		return true, "the request went to a transport that does not say what it sent, and " + ended + " before an answer"
	}
	return true, "the request went out and " + ended + " before an answer"
}

// bodyProblem says what was wrong with a 2xx body.
func bodyProblem(err error) string {
	var syntax *json.SyntaxError
	switch {
	case errors.Is(err, ErrResponseTooLarge):
		return "its body is larger than the SDK reads"
	case errors.As(err, &syntax):
		return "its body is cut or not JSON"
	case isPermanent(err):
		return "its body does not decode into the result"
	}
	return "its body was cut short"
}

// answeredBeforeBody reports a final answer the server began before the held-back
// body went out, unasked: it decided on the headers alone. An answer whose first byte
// net/http never reported (made up by attempt middleware) proves nothing.
func (t *try) answeredBeforeBody() bool {
	return t.holdsBody && t.answer != nil && !t.ev.continued.Load() && !t.ev.informational.Load() &&
		t.ev.answerBegan.Load() == answerBeforeBody
}

// expectNews says what the try showed of the server's way with Expect. It is
// unwelcome when the server refused it (417), sat on it until the attempt timed out,
// or ignored it: answered after net/http sent the body unasked (but for a gateway's
// 502, 503 or 504: a proxy whose upstream is down waits for the body, then says so).
func (t *try) expectNews(timedOut bool) expectNews {
	switch {
	case !t.holdsBody:
		return expectNoNews
	case t.ev.continued.Load():
		return expectHonoured
	case timedOut && t.ev.conns.Load() > 0 && !t.ev.bodyRead.Load(), // silent
		t.answeredBeforeBody() && t.answer.StatusCode == http.StatusExpectationFailed,                           // refused
		t.answer != nil && t.ev.answerBegan.Load() == answerAfterBody && !isGatewayFailure(t.answer.StatusCode): // ignored
		return expectUnwelcome
	}
	return expectNoNews
}

// What mayResend answers net/http.
var (
	errResentOnce      = errors.New("no answer, and net/http's own resend was refused: net/http already sent it again once")
	errMayHaveArrived  = errors.New("no answer, and net/http's own resend was refused: a record-creating request may have reached the server")
	errBudgetSpent     = errors.New("no answer, and net/http's own resend was refused: the retry budget is spent")
	errResendOverHTTP1 = errors.New("no answer: the request is sent again over HTTP/1.1") // by the try (see send)
)

// mayResend decides on the nth time net/http asks to send the request again: once a
// try at most (a call sends at most 2 × (1 + MaxRetries) requests), never while the
// retry budget is spent (though resends do not draw on it), never a record-creating
// request on pools that do not report connections. The try sends an idempotent one
// again itself, over HTTP/1.1: net/http would put it on an HTTP/2 connection whose
// stream limit it does not know yet. A record-creating one goes again on its
// HTTP/1.1 pool, where net/http resends only what it wrote nothing of.
func (t *try) mayResend(n int32) error {
	switch {
	case n > 1:
		return errResentOnce
	case t.req.Class == CreatesRecord && !t.seesConns:
		return errMayHaveArrived
	case t.budget.Spent():
		return errBudgetSpent
	case t.req.Class == Idempotent && t.seesConns:
		return errResendOverHTTP1
	}
	return nil
}

// permanentError marks, where the SDK makes it, an error trying again cannot cure.
type permanentError struct{ error }

func (e permanentError) Unwrap() error { return e.error }

func permanent(err error) error { return permanentError{err} }

// isPermanent reports a failure trying again cannot cure: marked so by the SDK, a
// certificate that does not verify, a server that does not speak TLS.
func isPermanent(err error) bool {
	var marked permanentError
	var certErr *tls.CertificateVerificationError
	var recordErr tls.RecordHeaderError
	return errors.As(err, &marked) || errors.As(err, &certErr) || errors.As(err, &recordErr)
}

// isDialError reports a failure to connect: the request was never written.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

func isGatewayFailure(status int) bool {
	return status == http.StatusBadGateway || status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout
}

func isSuccess(status int) bool { return status >= 200 && status < 300 }
