// Package pipeline is the one path every SDK call takes to the wire, step by step:
//
//  1. Send (send.go) encodes the body once and loops: try, account, classify,
//     decide, wait (retry.go: the retry table and waits; budget.go: the retry budget).
//  2. Each try (try.go) builds one *http.Request (request.go) whose context is the
//     try itself (its Value answers net/http's lookups, on any goroutine), with its
//     httptrace.ClientTrace, and whose GetBody is the try's rewind, for the
//     http.Client of a lane (transport.go; no redirects): idempotent calls to the
//     caller's transport (HTTP/2 over TLS, its first burst through a gate:
//     conngate.go); record-creating ones to an HTTP/1.1-only copy, asking
//     "Expect: 100-continue" and holding the body back (expect.go; off for 5 minutes
//     after 3 unanswered in a row); a retry after a failed connection, to a new one.
//  3. net/http then calls back, in Do on the caller's goroutine unless said:
//     - guardedPool.RoundTrip, as the request enters the pool: it lets in one request
//     per hand-off, and marks the try answered once the pool returned a response;
//     - GotConn, each time the request gets a connection, before anything is written:
//     it counts the attempts (a try with none sent nothing) and opens the gate;
//     - for a held-back body, on the connection's goroutines: Got100Continue,
//     Got1xxResponse, GotFirstResponseByte and the body's first Read (which may come
//     after Do returned), which tell whether the body went out before the answer;
//     - GetBody (rewind), when net/http would send the request again by itself (or
//     follow a redirect): it allows one resend a try; the try sends an idempotent
//     request again itself, over HTTP/1.1 (deliver in send.go).
//  4. The try reads the answer (response.go) and says what it proves:
//     mayHaveArrived, whether the request may have reached the server. Send decides;
//     package insurance maps what it returns to its public errors and result types.
package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// Class says whether a request may be sent again once it may have reached the server.
type Class int

const (
	// Idempotent requests are retried on 429, 502, 503, 504 and transport failures.
	Idempotent Class = iota
	// CreatesRecord requests are retried only on 429 and when nothing was sent: sending
	// one twice could buy two policies.
	CreatesRecord
)

// Body size caps.
const (
	MaxSuccessBody = 16 << 20 // a 2xx body larger than this is an error
	MaxErrorBody   = 64 << 10 // a non-2xx body is kept up to this size
)

// ErrResponseTooLarge reports a 2xx body over MaxSuccessBody.
var ErrResponseTooLarge = fmt.Errorf("response body exceeds %d MiB", MaxSuccessBody>>20)

// Config is one client's way of sending, validated by the caller. (Pools and Budget
// are apart: clients derived from one another share them.)
type Config struct {
	BaseURL       string // scheme://host[/prefix], no trailing slash
	MaxRetries    int
	RetryWaitMin  time.Duration
	RetryWaitMax  time.Duration
	MaxRetryAfter time.Duration // cap on a server's Retry-After
	// AttemptTimeout bounds each Do, reading the body included (a resend net/http
	// makes within it shares it); 0: no bound beyond the context and Client.Timeout.
	AttemptTimeout time.Duration
	Logger         *slog.Logger // nil: attempts are not logged
	UserAgent      string
	// BeforeAttempt, when set, runs before each request the SDK sends (a try's, and
	// deliver's) with that request's own header (trace context goes there).
	BeforeAttempt func(ctx context.Context, attempt int, header http.Header)
	// Middleware, when set, wraps each pool's RoundTripper: the caller's logging or
	// tracing sees each request the SDK sends, and the pools stay the SDK's.
	Middleware func(http.RoundTripper) http.RoundTripper
}

// Request is one call: method and path, JSON body, the single auth header, and its
// retry class.
type Request struct {
	Method     string
	Path       string
	Body       any    // JSON-encoded when not nil
	AuthHeader string // "": none
	AuthValue  string
	Class      Class
	// NeedsBody: the server cannot act on the request without its body (the typed
	// record-creating calls). An answer that came before the body went out then
	// proves the request unprocessed, and the retry table treats it as not sent.
	NeedsBody bool
}

// Answer is an answer whose body was read in full (2xx) or up to MaxErrorBody.
type Answer struct {
	StatusCode     int
	Header         http.Header
	Body           []byte
	Attempts       int  // requests sent, net/http's own resends included
	MayHaveArrived bool // as Error's
	BudgetRefused  bool // the table allowed a retry of this (non-2xx) answer, the budget not
}

// Error is a call that ended without a usable answer: the request could not be
// encoded or sent, the context ended, or a 2xx body could not be read.
type Error struct {
	Attempts int
	// MayHaveArrived is false only when no request may have reached the server (see
	// try.mayHaveArrived), or none was made.
	MayHaveArrived bool
	StatusCode     int // status of a 2xx whose body failed; 0 when no answer came
	Header         http.Header
	Body           []byte // what was read of that body
	// Last is the last non-2xx answer, when the call's context ended after it: during
	// the wait before its retry, or during that retry.
	Last          *Answer
	BudgetRefused bool // the retry budget refused the retry the table allowed
	Err           error
}

// Error returns the cause's text.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Pipeline sends the requests of one client. It is safe for concurrent use.
type Pipeline struct {
	cfg    Config
	pools  *Pools
	budget *Budget
	// clients send requests on each lane: on its pool, through the caller's
	// middleware, with the caller's cookie jar and timeout.
	clients [lanes]*http.Client
	// attemptTimeout is Config.AttemptTimeout when it, not the *http.Client's
	// Timeout, bounds each Do: the error of a request it ends names it.
	attemptTimeout time.Duration
}

// New builds a Pipeline that sends on pools and draws its retries from budget (nil:
// retries are not budgeted). Pipelines may share both.
func New(cfg Config, pools *Pools, budget *Budget) *Pipeline {
	if cfg.BeforeAttempt == nil {
		cfg.BeforeAttempt = func(context.Context, int, http.Header) {}
	}
	p := &Pipeline{cfg: cfg, pools: pools, budget: budget}
	timeout := pools.timeout
	if cfg.AttemptTimeout > 0 && (timeout == 0 || cfg.AttemptTimeout < timeout) {
		timeout = cfg.AttemptTimeout
		p.attemptTimeout = timeout
	}
	for l, rt := range pools.roundTrippers() {
		if cfg.Middleware != nil {
			rt = cfg.Middleware(rt)
		}
		p.clients[l] = &http.Client{Transport: rt, CheckRedirect: refuseRedirect, Jar: pools.jar, Timeout: timeout}
	}
	return p
}

// CloseIdleConnections closes the idle connections of the pipeline's pools, which
// the pipelines sharing them see closed too.
func (p *Pipeline) CloseIdleConnections() { p.pools.CloseIdleConnections() }

// refuseRedirect returns a 3xx as it is: the interface has no redirects, and following
// one could carry credentials or a card number to another host.
func refuseRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// Pools returns the pools the pipeline sends on, to share with another pipeline.
func (p *Pipeline) Pools() *Pools { return p.pools }

// Budget returns the retry budget the pipeline draws on, to share with another pipeline.
func (p *Pipeline) Budget() *Budget { return p.budget }
