package pipeline

import (
	"bytes"
	"net/http"
	"net/textproto"
	"sync"
	"sync/atomic"
	"time"
)

// A record-creating request asks "Expect: 100-continue" and holds its body back
// until the server asks for it: a connection that closes before that (a proxy
// reloading) carried the headers at most, so the request was provably not processed.

// holdBack makes the try's request hold its body back, and watches what the
// server says meanwhile: "100 Continue", a 103, the first byte of an answer (net/http
// also writes the body after a final answer, on a connection it keeps: too late for
// the server to have used it). It runs before the trace goes into the request's
// context, so that a caller's own hooks compose.
func (t *try) holdBack() {
	t.holdsBody = true
	t.trace.Got100Continue = func() { t.continued.Store(true) }
	t.trace.GotFirstResponseByte = func() {
		if t.bodyRead.Load() {
			t.answerBegan.Store(answerAfterBody)
		} else {
			t.answerBegan.Store(answerBeforeBody)
		}
	}
	t.trace.Got1xxResponse = func(code int, _ textproto.MIMEHeader) error {
		if code != http.StatusContinue {
			t.informational.Store(true)
		}
		return nil
	}
}

// When the first byte of an answer came, relative to the held-back body.
const (
	answerBeforeBody = 1 + iota
	answerAfterBody
)

// answeredBeforeBody reports a final answer that the server began before the held-back
// body went out and without asking for it: the server decided on the headers alone.
// An answer whose first byte net/http never reported (one that attempt middleware
// made up) proves nothing.
func (t *try) answeredBeforeBody() bool {
	return t.holdsBody && t.answer != nil && !t.continued.Load() && !t.informational.Load() && t.answerBegan.Load() == answerBeforeBody
}

// refusedUnprocessed reports a non-2xx answer that proves the request was not
// processed: a 429; a 417 to its Expect before the body went out (RFC 9110 then has
// the client send it again without Expect); and, for a request the server cannot act
// on without its body (Request.NeedsBody), any answer before the body went out, such
// as a proxy's 503 while its upstream is down. Other early answers prove nothing: a
// server may act on a request's path alone, as one behind Do may.
func (t *try) refusedUnprocessed() bool {
	switch status := t.answer.StatusCode; {
	case isSuccess(status):
		return false
	case status == http.StatusTooManyRequests:
		return true
	case status == http.StatusExpectationFailed || t.needsBody:
		return t.answeredBeforeBody()
	}
	return false
}

// expectUnwelcome reports a server that does not answer Expect: 100-continue: it
// refused it (417); it answered a request whose body went out unasked, after net/http
// waited its ExpectContinueTimeout for nothing; or it said nothing while the request
// timed out (timedOut) waiting for its "100 Continue". A gateway's 502, 503 or 504
// after the body went out unasked is not counted: a proxy whose upstream is down
// waits for the body, then answers that, and says nothing about Expect.
func (t *try) expectUnwelcome(timedOut bool) bool {
	ignored := t.holdsBody && t.answer != nil && t.answerBegan.Load() == answerAfterBody && !t.continued.Load() && !isGatewayFailure(t.answer.StatusCode)
	silent := timedOut && t.holdsBody && t.conns.Load() > 0 && !t.bodyRead.Load() && !t.continued.Load() // waiting for 100 Continue
	refused := t.answeredBeforeBody() && t.answer.StatusCode == http.StatusExpectationFailed
	return refused || ignored || silent
}

func isGatewayFailure(status int) bool {
	return status == http.StatusBadGateway || status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout
}

// heldBody is a request body that records when net/http first reads it, which it does
// only to write it.
type heldBody struct {
	r    *bytes.Reader
	read *atomic.Bool
}

func (b heldBody) Read(p []byte) (int, error) {
	b.read.Store(true)
	return b.r.Read(p)
}

func (heldBody) Close() error { return nil }

// What turns Expect off: more answers in a row than a passing fault gives; and for
// how long: then the pools ask again, in case the verdict was wrong or is no more.
const (
	expectStrikes = 3
	expectPause   = 5 * time.Minute
)

// expectSwitch decides whether record-creating requests ask "Expect: 100-continue".
// A server that does not answer it costs each of them a wait of up to
// ExpectContinueTimeout (at most 1 s) for a "100 Continue" that never comes, so after
// expectStrikes answers in a row that show it (see expectUnwelcome) the pools stop
// asking, for expectPause. A "100 Continue" clears the count. It is shared by the
// pools of a client and of the clients derived from it.
type expectSwitch struct {
	mu       sync.Mutex
	strikes  int
	offUntil time.Time
}

// asks reports whether a record-creating request asks Expect now.
func (s *expectSwitch) asks() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !time.Now().Before(s.offUntil)
}

// observe counts what try t showed of the server's Expect, timedOut if the
// attempt timeout ended it, and reports whether the server failed to answer it.
func (s *expectSwitch) observe(t *try, timedOut bool) (unwelcome bool) {
	if !t.holdsBody {
		return false
	}
	unwelcome = t.expectUnwelcome(timedOut)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case t.continued.Load():
		s.strikes = 0
	case unwelcome && !time.Now().Before(s.offUntil): // not while off: a pause ends with none
		if s.strikes++; s.strikes >= expectStrikes {
			s.strikes, s.offUntil = 0, time.Now().Add(expectPause)
		}
	}
	return unwelcome
}
