// Package pipeline is the one path every SDK call takes to the wire. Read it in this
// order:
//
//   - pipeline.go: what a call needs (Config, Request) and gives back (Response, Error).
//   - send.go: the attempt loop, top to bottom: attempt, account, classify, decide, wait.
//   - attempt.go: one attempt and what it proves about reaching the server.
//   - expect.go: a record-creating request holds its body back (Expect: 100-continue).
//   - request.go: building the HTTP request of an attempt.
//   - response.go: reading an answer's body, capped.
//   - retry.go: the retry table and the waits between attempts.
//   - budget.go: the retry budget a client and the clients derived from it share.
//   - transport.go: the connection pools; conngate.go: their first connection.
//
// Mapping answers to the SDK's public errors and result types happens in package
// insurance, which owns those types.
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

// Config is one client's way of sending; every field is already validated by the caller.
// The pools and the retry budget come apart from it, as clients derived from one
// another share them.
type Config struct {
	BaseURL       string // scheme://host[/prefix], no trailing slash
	MaxRetries    int
	RetryWaitMin  time.Duration
	RetryWaitMax  time.Duration
	MaxRetryAfter time.Duration // cap on a server's Retry-After
	// AttemptTimeout bounds each attempt, reading the body included; 0: no bound
	// beyond the context (and the *http.Client's Timeout).
	AttemptTimeout time.Duration
	Logger         *slog.Logger // nil: attempts are not logged
	UserAgent      string
	// BeforeAttempt, when set, runs before each attempt is sent with that attempt's
	// own header (trace context goes there).
	BeforeAttempt func(ctx context.Context, attempt int, header http.Header)
	// Middleware, when set, wraps each pool's RoundTripper: the caller's logging or
	// tracing sees every attempt, and the pools stay the SDK's.
	Middleware func(http.RoundTripper) http.RoundTripper
}

// Request is one call: route, JSON body, the single auth header, and its retry class.
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

// Response is an answer whose body was read in full (2xx) or up to MaxErrorBody.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
	Attempts   int // requests sent, net/http's own resends included
	// MayHaveArrived is false when no request of the call provably reached the
	// server: each was refused unprocessed or never sent (see Error).
	MayHaveArrived bool
	// BudgetRefused is true when the retry table allowed a retry of this (non-2xx)
	// answer but the retry budget refused it.
	BudgetRefused bool
}

// Error is a call that ended without a usable answer: the request could not be
// encoded or sent, the context ended, or a 2xx body could not be read.
type Error struct {
	Attempts int
	// MayHaveArrived is false only when no request provably reached the server: none
	// was written to a connection, an answer refused it unprocessed (see
	// attempt.refusedUnprocessed), its held-back body never went out, or none was made.
	MayHaveArrived bool
	StatusCode     int // status of a 2xx whose body failed; 0 when no answer came
	Header         http.Header
	Body           []byte // what was read of that body
	// Last is the last non-2xx answer, when the call's context ended after it: during
	// the wait before its retry, or during that retry.
	Last *Response
	// BudgetRefused is true when the retry budget refused the retry the table allowed.
	BudgetRefused bool
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
	// clients send requests on each route: on its pool, through the caller's
	// middleware, with the caller's cookie jar and timeout.
	clients [routes]*http.Client
	// attemptTimeout is Config.AttemptTimeout when it, not the *http.Client's
	// Timeout, bounds an attempt: the error of an attempt it ends names it.
	attemptTimeout time.Duration
}

// New builds a Pipeline that sends on pools and draws its retries from budget (nil:
// retries are not budgeted). Pipelines may share both.
func New(cfg Config, pools *Pools, budget *Budget) *Pipeline {
	p := &Pipeline{cfg: cfg, pools: pools, budget: budget}
	timeout := pools.timeout
	if cfg.AttemptTimeout > 0 && (timeout == 0 || cfg.AttemptTimeout < timeout) {
		timeout = cfg.AttemptTimeout
		p.attemptTimeout = timeout
	}
	for r, rt := range pools.roundTrippers() {
		if cfg.Middleware != nil {
			rt = cfg.Middleware(rt)
		}
		p.clients[r] = &http.Client{Transport: rt, CheckRedirect: refuseRedirect, Jar: pools.jar, Timeout: timeout}
	}
	return p
}

// CloseIdleConnections closes the idle connections of the pipeline's pools, which
// the pipelines sharing them see closed too.
func (p *Pipeline) CloseIdleConnections() { p.pools.CloseIdleConnections() }

func refuseRedirect(*http.Request, []*http.Request) error {
	// The interface has no redirects. Following one could carry credentials or a card
	// number to another host, so the 3xx is returned as it is.
	return http.ErrUseLastResponse
}

// Pools returns the pools the pipeline sends on, to share with another pipeline.
func (p *Pipeline) Pools() *Pools { return p.pools }

// Budget returns the retry budget the pipeline draws on, to share with another
// pipeline.
func (p *Pipeline) Budget() *Budget { return p.budget }
