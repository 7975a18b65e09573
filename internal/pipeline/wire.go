package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"sync/atomic"
)

// What net/http calls as it sends a try's request is all in this file (but the
// gate's GotConn, conngate.go): newTry builds the request with its trace hooks, its
// body and GetBody (rewind); the try is the request's context (Value); the pools'
// guard; CheckRedirect. These callbacks alone write the try's evidence, which judge
// (verdict.go) reads once the try is over; rewind also answers, as net/http asks,
// whether it may send the request again. RoundTrip, GotConn and GetBody run in Do on
// the caller's goroutine; a held-back body's hooks run on the connection's
// goroutines, and its first Read may come after Do returned.

// evidence is what net/http told a try while it sent the request.
type evidence struct {
	conns         atomic.Int32 // connections the request got; each one carried it
	handOffs      atomic.Int32 // times a request of the try entered a pool
	resends       atomic.Int32 // times net/http asked to send the request again
	budgetRefused atomic.Bool  // a resend refused because the retry budget is spent
	answered      atomic.Bool  // a pool returned an answer
	continued     atomic.Bool  // the server said "100 Continue"
	informational atomic.Bool  // the server sent another 1xx
	bodyRead      atomic.Bool  // net/http took the held-back body to write it
	answerBegan   atomic.Int32 // answerBeforeBody or answerAfterBody; 0: no byte yet
}

// When the first byte of an answer came, relative to the held-back body.
const (
	answerBeforeBody = 1 + iota
	answerAfterBody
)

// newTry starts the call's next try, whose first request is attempt number, on the
// lane the last try's verdict calls for, and builds its request with every callback
// net/http makes into it: the trace hooks, the body, GetBody (which net/http must ask
// before sending the request again), and the try itself as its context.
func (p *Pipeline) newTry(ctx context.Context, r *Request, body []byte, number int, last verdict) (*try, *http.Request, error) {
	t := &try{Context: ctx, req: *r, client: p.idempotent, seesConns: p.seesConns, budget: p.budget, number: number}
	switch {
	case last.freshConn:
		t.client = p.ownConn
	case r.Class == CreatesRecord:
		t.client = p.records
	}
	t.holdsBody = body != nil && r.Class == CreatesRecord && t.seesConns && !last.expectUnwelcome && p.expect.asks()
	// What net/http reports: GotConn, and for a body held back until the server asks
	// for it, what the server says meanwhile. Set before the trace goes into the
	// context, so that a caller's own hooks compose.
	t.trace.GotConn = func(httptrace.GotConnInfo) { t.ev.conns.Add(1) } // before anything is written
	if t.holdsBody {
		t.trace.Got100Continue = func() { t.ev.continued.Store(true) }
		t.trace.Got1xxResponse = func(code int, _ textproto.MIMEHeader) error {
			if code != http.StatusContinue {
				t.ev.informational.Store(true)
			}
			return nil
		}
		// net/http also writes the body after a final answer, on a connection it
		// keeps: too late for the server to have used it.
		t.trace.GotFirstResponseByte = func() {
			if t.ev.bodyRead.Load() {
				t.ev.answerBegan.Store(answerAfterBody)
			} else {
				t.ev.answerBegan.Store(answerBeforeBody)
			}
		}
	}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(t, &t.trace), r.Method, p.cfg.BaseURL+r.Path, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("building request: %w", err)
	}
	switch {
	case body != nil:
		t.newBody = func() io.ReadCloser { return io.NopCloser(bytes.NewReader(body)) }
		if t.holdsBody { // the body goes out once the server asks for it
			req.Header.Set("Expect", "100-continue")
			t.newBody = func() io.ReadCloser { return heldBody{r: bytes.NewReader(body), read: &t.ev.bodyRead} }
		}
		req.Body, req.GetBody, req.ContentLength = t.newBody(), t.rewind, int64(len(body))
		req.Header.Set("Content-Type", "application/json")
	case r.Class == Idempotent || !t.seesConns:
		// An empty body, so that net/http asks GetBody before it sends the request again
		// (unasked, it sent a GET thousands of times under HTTP/2 resets): see
		// docs/decisions/bodiless-requests.md. (A bodiless record-creating request
		// needs none: on the HTTP/1.1 lanes nothing written is resent.)
		t.newBody = func() io.ReadCloser { return emptyBody{} }
		req.Body, req.GetBody, req.TransferEncoding = t.newBody(), t.rewind, identity
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", p.cfg.UserAgent)
	if r.AuthHeader != "" {
		req.Header.Set(r.AuthHeader, r.AuthValue)
	}
	return t, req, nil
}

// heldBody is a held-back request body: net/http reads it only to write it.
type heldBody struct {
	r    *bytes.Reader
	read *atomic.Bool
}

func (b heldBody) Read(p []byte) (int, error) { b.read.Store(true); return b.r.Read(p) }
func (heldBody) Close() error                 { return nil }

// identity is the TransferEncoding of an empty body: no chunking, no probe of it on a
// goroutine of net/http's own.
var identity = []string{"identity"}

// emptyBody is the body of a request that has none. WriteTo keeps io.Copy off the
// connection's ReadFrom, which would allocate a 32 KiB buffer to copy nothing.
type emptyBody struct{}

func (emptyBody) Read([]byte) (int, error)         { return 0, io.EOF }
func (emptyBody) WriteTo(io.Writer) (int64, error) { return 0, nil }
func (emptyBody) Close() error                     { return nil }

// rewind is the request's GetBody: net/http asks it to follow a redirect, which the
// client refuses unsent, and before it sends the request again by itself (a reused
// HTTP/1.1 connection failed; an HTTP/2 stream was refused, cut by a GOAWAY or
// reset). It allows that once a try at most (a call sends at most 2 × (1 +
// MaxRetries) requests), never while the retry budget is spent (though resends do
// not draw on it), never for a record-creating request on pools that do not report
// connections. The try sends an idempotent one again itself, over HTTP/1.1 (see
// deliver): net/http would put it on an HTTP/2 connection whose stream limit it does
// not know yet. A record-creating one goes again on its HTTP/1.1 pool, where net/http
// resends only what it wrote nothing of.
func (t *try) rewind() (io.ReadCloser, error) {
	if t.ev.answered.Load() { // a redirect
		return t.newBody(), nil
	}
	switch {
	case t.ev.resends.Add(1) > 1:
		return nil, errResentOnce
	case t.req.Class == CreatesRecord && !t.seesConns:
		return nil, errMayHaveArrived
	case t.budget.Spent():
		t.ev.budgetRefused.Store(true)
		return nil, errBudgetSpent
	case t.req.Class == Idempotent && t.seesConns:
		return nil, errResendOverHTTP1
	}
	return t.newBody(), nil
}

// What rewind answers net/http when it refuses a resend.
var (
	errResentOnce      = errors.New("no answer, and net/http's own resend was refused: net/http already sent it again once")
	errMayHaveArrived  = errors.New("no answer, and net/http's own resend was refused: a record-creating request may have reached the server")
	errBudgetSpent     = errors.New("no answer, and net/http's own resend was refused: the retry budget is spent")
	errResendOverHTTP1 = errors.New("no answer: the request is sent again over HTTP/1.1") // by the try (see deliver)
)

// tryKey is the context key of a request's try (see guardedPool).
type tryKey struct{}

// Value is the context's: the try itself for tryKey, else the call's value.
func (t *try) Value(key any) any {
	if key == (tryKey{}) {
		return t
	}
	return t.Context.Value(key)
}

// guardedPool stands between a caller's attempt middleware and a pool, and keeps what
// the middleware could break. It lets in the requests the try sends, no more (the
// first may have been processed), and notes that an answer came. Where connections
// are reported, a request must carry its try's context, whose trace counts them:
// without it a purchase sent would look unsent. And on the HTTP/1.1 lanes it strips
// Idempotency-Key and X-Idempotency-Key: with one, net/http resends a written POST.
type guardedPool struct {
	pool                 http.RoundTripper
	seesConns, stripKeys bool
}

// errContextDropped refuses a request whose context no longer carries its try.
var errContextDropped = permanent(errors.New("attempt middleware replaced the request's context: the SDK can no longer tell a request that was sent from one that was not, so none is sent (pass req.Context() on)"))

// errSentAgainAbove refuses a request that attempt middleware sends a second time.
var errSentAgainAbove = permanent(errors.New("attempt middleware sent the request again by itself: refused, as the first may have been processed (the SDK retries)"))

// RoundTrip sends req on the pool, guarded.
func (g guardedPool) RoundTrip(req *http.Request) (*http.Response, error) {
	t, ok := req.Context().Value(tryKey{}).(*try)
	switch {
	case !ok && g.seesConns:
		return nil, errContextDropped
	case !ok:
		return g.pool.RoundTrip(req)
	case t.ev.handOffs.Add(1) > t.sends.Load():
		return nil, errSentAgainAbove
	}
	if g.stripKeys && (hasKey(req.Header, "Idempotency-Key") || hasKey(req.Header, "X-Idempotency-Key")) {
		req = req.Clone(req.Context())
		req.Header.Del("Idempotency-Key")
		req.Header.Del("X-Idempotency-Key")
	}
	resp, err := g.pool.RoundTrip(req)
	if err == nil {
		t.ev.answered.Store(true)
	}
	return resp, err
}

// hasKey reports a header present, even empty: net/http takes a request with an empty
// Idempotency-Key for replayable too.
func hasKey(h http.Header, key string) bool {
	_, ok := h[key]
	return ok
}

// refuseRedirect returns a 3xx as it is: the interface has no redirects, and following
// one could carry credentials or a card number to another host.
func refuseRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
