package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"sync/atomic"
)

// try is one turn of Send's loop: a request handed to net/http, sent again once at
// most (by net/http, or by the try over HTTP/1.1: see deliver), and what came back. Each
// request sent is an attempt; a resend shares the attempt timeout of the request it
// repeats.
type try struct {
	// The call's context; from deliver on, bounded by the attempt timeout (ended
	// once deliver returns, its error tells a timeout). The try is its request's
	// context too (see Value).
	context.Context
	req       Request               // the call's, copied: a pointer would make it escape
	client    *http.Client          // of the lane it goes out on (see Pools)
	holdsBody bool                  // it asks "Expect: 100-continue" and holds its body back
	seesConns bool                  // its pools report connections (see Pools)
	budget    *Budget               // asked before net/http resends (see rewind)
	number    int                   // of the call's first request in this try, from 1
	sends     atomic.Int32          // requests the try handed to net/http itself
	trace     httptrace.ClientTrace // its hooks: see newTry (wire.go)
	newBody   func() io.ReadCloser  // a fresh copy of the request's body; nil: none
	ev        evidence              // what net/http reported (wire.go)

	// What came back: an answer whose body was read, or err (without net/http's
	// *url.Error), or both for a 2xx whose body failed.
	answer *Answer
	err    error
}

// deliver hands the try's request to its lane (an idempotent one net/http would resend,
// again to the records lane: see rewind) within the attempt timeout, reads the
// answer's body, capped, and decodes a 2xx body into Request.Out. Only a 2xx body
// that cannot be read in full is an error; a short or capped error body is kept as
// it is. A body cut or not JSON may be a proxy's doing (reloading, Apache's mod_http2
// answered 201 with NUL bytes): worth asking again. Any other decoding failure is the
// answer's own, and permanent.
func (p *Pipeline) deliver(t *try, req *http.Request) {
	if p.cfg.AttemptTimeout > 0 { // the request's context is t: it sees the bound
		var cancel context.CancelFunc
		t.Context, cancel = context.WithTimeout(t.Context, p.cfg.AttemptTimeout)
		defer cancel()
	}
	p.cfg.BeforeAttempt(t.Context, t.number, req.Header)
	t.sends.Store(1)
	resp, err := t.client.Do(req)
	if errors.Is(err, errResendOverHTTP1) {
		again := req.Clone(req.Context()) // the try's context: its trace counts the send
		again.Body = t.newBody()
		p.cfg.BeforeAttempt(t.Context, t.number+max(1, int(t.ev.conns.Load())), again.Header) // after those sent so far
		t.sends.Store(2)
		resp, err = p.records.Do(again)
	}
	if u, ok := errors.AsType[*url.Error](err); ok {
		err = u.Err // its text repeats the URL; the SDK's own error names method and path
	}
	if t.err = err; err != nil {
		return
	}
	defer resp.Body.Close()
	t.answer = &Answer{StatusCode: resp.StatusCode, Header: resp.Header}
	switch {
	case hasNoBody(resp):
	case !isSuccess(resp.StatusCode):
		t.answer.Body, _ = readCapped(resp.Body, resp.ContentLength, MaxErrorBody) // kept as it is
	case resp.ContentLength > MaxSuccessBody:
		t.err = errTooLarge // refused unread
	default:
		t.answer.Body, t.err = readCapped(resp.Body, resp.ContentLength, MaxSuccessBody)
	}
	if t.err == nil && t.req.Out != nil && isSuccess(t.answer.StatusCode) {
		t.err = p.cfg.Decode(t.answer.Body, t.req.Out)
		if _, corrupt := errors.AsType[*json.SyntaxError](t.err); t.err != nil && !corrupt {
			t.err = permanent(t.err)
		}
	}
}
