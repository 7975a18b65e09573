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
	attempts        int    // requests the try put on the wire, or tried to
	arrived         bool   // the request may have reached the server
	retry           bool   // the retry table allows sending it again
	freshConn       bool   // and then on a new connection of its own
	expectHonoured  bool   // the server said "100 Continue"
	expectUnwelcome bool   // the server refused Expect, sat on it or ignored it
	why             string // where the request got, in words; "" for a success
}

// judge decides what a finished try t means, and is the one place that does (while
// the try is on the wire, rewind answers net/http's own resends): from what net/http
// reported of it (its evidence), what came back, and timedOut (the attempt timeout,
// not the call's context, ended it). It is the retry table: an idempotent request
// goes again after a failure that may pass (429, 502, 503, 504, a broken connection,
// a cut or corrupt 2xx body); a record-creating one only when it cannot have been
// processed (429, nothing sent, a 417 before its body went out, and for the typed
// calls, whose Request.NeedsBody, a 502, 503 or 504 before it).
func judge(t *try, timedOut bool) (v verdict) {
	conns, bodyRead, continued := t.ev.conns.Load(), t.ev.bodyRead.Load(), t.ev.continued.Load()
	// The connections its requests obtained, or the requests it handed to net/http
	// (a dial failure obtains none; a transport that does not report connections
	// reports none).
	v.attempts = max(1, int(t.sends.Load()), int(conns))
	idempotent, status := t.req.Class == Idempotent, 0
	if t.answer != nil {
		status = t.answer.StatusCode
	}
	// A failure trying again cannot cure: marked so where the SDK made it, a
	// certificate that does not verify, a server that does not speak TLS. (Declared
	// only for a failure: errors.As's targets live on the heap.)
	incurable := false
	if t.err != nil {
		var marked permanentError
		var certErr *tls.CertificateVerificationError
		var recordErr tls.RecordHeaderError
		incurable = errors.As(t.err, &marked) || errors.As(t.err, &certErr) || errors.As(t.err, &recordErr)
	}
	// A final answer the server began before the held-back body went out, unasked,
	// was decided on the headers alone. One whose first byte net/http never reported
	// (made up by attempt middleware) proves nothing.
	before := t.holdsBody && status != 0 && !continued && !t.ev.informational.Load() &&
		t.ev.answerBegan.Load() == answerBeforeBody
	// Expect is honoured when the server said "100 Continue", and unwelcome when it
	// did not and refused it (417), sat on it until the attempt timed out, or ignored
	// it: answered after the body went out unasked (but for a gateway's 502, 503 or
	// 504: a proxy whose upstream is down waits for the body, then says so).
	if t.holdsBody {
		refused := before && status == http.StatusExpectationFailed
		satOn := timedOut && conns > 0 && !bodyRead
		ignored := status != 0 && t.ev.answerBegan.Load() == answerAfterBody && !isGatewayFailure(status)
		v.expectHonoured = continued
		v.expectUnwelcome = !continued && (refused || satOn || ignored)
	}

	v.arrived = true // unless what follows proves it was not
	if status == 0 { // the connection, the context or a guard ended the try
		ended := "the connection closed"
		switch {
		case timedOut:
			ended = "the attempt timeout passed"
		case errors.Is(t.err, context.Canceled) || errors.Is(t.err, context.DeadlineExceeded):
			ended = "the context ended"
		}
		switch {
		case isDialError(t.err):
			v.arrived, v.why = false, "nothing could connect"
		case t.seesConns && conns == 0:
			v.arrived, v.why = false, "the request got no connection: nothing was sent"
		case t.holdsBody && !bodyRead:
			v.arrived, v.why = false, ended+" before the server asked for the body: the body never went out"
		case t.holdsBody:
			v.why = "the body went out and " + ended + " before an answer"
		case !t.seesConns:
			v.why = "the request went to a transport that does not say what it sent, and " + ended + " before an answer"
		default:
			v.why = "the request went out and " + ended + " before an answer"
		}
		v.retry = !incurable && (idempotent || !v.arrived)
		v.freshConn = idempotent || t.holdsBody && conns > 0 && !bodyRead
		return v
	}
	if t.err == nil && isSuccess(status) {
		return v // nothing to explain
	}
	answered := "the server answered " + strconv.Itoa(status) + " " + http.StatusText(status)
	switch {
	case t.err != nil: // a 2xx whose body failed
		v.retry, v.freshConn = idempotent && !incurable, idempotent
		_, corrupt := errors.AsType[*json.SyntaxError](t.err)
		switch {
		case errors.Is(t.err, ErrResponseTooLarge):
			v.why = answered + ", but its body is larger than the SDK reads"
		case corrupt:
			v.why = answered + ", but its body is cut or not JSON"
		case incurable:
			v.why = answered + ", but its body does not decode into the result"
		default:
			v.why = answered + ", but its body was cut short"
		}
	case status == http.StatusTooManyRequests:
		v.arrived, v.retry = false, true
		v.why = answered + ": it refused the request unprocessed"
	case before && (status == http.StatusExpectationFailed || t.req.NeedsBody):
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

// permanentError marks, where the SDK makes it, an error trying again cannot cure.
type permanentError struct{ error }

func (e permanentError) Unwrap() error { return e.error }

func permanent(err error) error { return permanentError{err} }

// isDialError reports a failure to connect: the request was never written.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

func isGatewayFailure(status int) bool {
	return status == http.StatusBadGateway || status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout
}

func isSuccess(status int) bool { return status >= 200 && status < 300 }
