// Package pipeline is the one path every SDK call takes to the wire and back.
//
// Out: Send (send.go) loops over tries. newTry (wire.go) builds a try's request,
// whose context is the try itself, and deliver (try.go) sends it on one of the
// Pipeline's three lanes (their pools: transport.go): idempotent calls ride the
// caller's transport (its first burst over TLS through a gate: conngate.go);
// record-creating ones an HTTP/1.1-only copy that asks "Expect: 100-continue" and
// holds the body back (expect.go says when); a retry after a failed connection, a
// connection of its own. A try sends its request twice at most: net/http resends it
// once, or the try sends an idempotent one again itself over HTTP/1.1. Each request
// sent is an attempt.
//
// On the wire, net/http reports to the try through callbacks, all in wire.go but the
// gate's: they alone write the try's evidence. GetBody answers there whether net/http
// may send the request again.
//
// Back: deliver (try.go) reads the answer, capped (response.go), and decodes it.
// judge (verdict.go) decides from the evidence and the answer whether the request may
// have reached the server, may go again, on a fresh connection, whether the server
// failed Expect, and why, in words. Send ends the call, or waits and tries again
// within the retry budget (retry.go).
package pipeline

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// Class says whether a request may be sent again once it may have reached the server
// (see judge).
type Class int

const (
	Idempotent    Class = iota // products, quotes, customer secrets
	CreatesRecord              // purchases, onboarding, events: twice could buy two policies
)

// Body size caps.
const (
	MaxSuccessBody = 16 << 20 // a 2xx body larger than this is an error
	MaxErrorBody   = 64 << 10 // a non-2xx body is kept up to this size
)

// ErrResponseTooLarge reports a 2xx body over MaxSuccessBody.
var ErrResponseTooLarge = fmt.Errorf("response body exceeds %d MiB", MaxSuccessBody>>20)

// Config is one client's way of sending, validated by the caller. (Pools and Budget
// are apart: derived clients share them.)
type Config struct {
	BaseURL       string // scheme://host[/prefix], no trailing slash
	MaxRetries    int
	RetryWaitMin  time.Duration
	RetryWaitMax  time.Duration
	MaxRetryAfter time.Duration // cap on a server's Retry-After
	// AttemptTimeout bounds each try, reading the answer included: a request and
	// the resend below it share it. 0: no bound beyond the context and the
	// *http.Client's Timeout.
	AttemptTimeout time.Duration
	Logger         *slog.Logger // nil: attempts are not logged
	UserAgent      string
	// BeforeAttempt runs before each request the SDK hands to net/http (not before
	// net/http's own resends), with that request's header.
	BeforeAttempt func(ctx context.Context, attempt int, header http.Header)
	// Middleware, when set, wraps each pool's RoundTripper.
	Middleware func(http.RoundTripper) http.RoundTripper
	// Decode decodes a 2xx body into a Request's Out; needed when requests carry one.
	Decode func(body []byte, out any) error
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
	// record-creating calls): an answer before the body went out proves it unsent.
	NeedsBody bool
	// Out, when set, is where Config.Decode decodes a 2xx body (empty for a 204 or a
	// HEAD). A body cut or not JSON is then a failed answer (see deliver).
	Out any
}

// Answer is what a call came to: its answer (read in full for a 2xx, up to
// MaxErrorBody else) and what its tries did. Beside an error, the answer is a 2xx
// whose body failed, when the call ended on one; or, when the call's context ended
// after a non-2xx answer (while waiting to retry it, or during the retry), that
// answer; else none (a zero StatusCode).
type Answer struct {
	StatusCode     int
	Header         http.Header
	Body           []byte
	Attempts       int    // requests sent, net/http's own resends included
	MayHaveArrived bool   // some request may have reached the server
	BudgetRefused  bool   // the retry budget refused a retry, or a resend, the table allowed
	Why            string // where the last request got, in words (see judge); "" for a success
}

// Pipeline sends the requests of one client. It is safe for concurrent use.
type Pipeline struct {
	cfg       Config
	budget    *Budget
	expect    *expectSwitch // shared with the pipelines on the same pools
	seesConns bool          // the pools report connections (see Pools)
	// The clients of the three lanes (see Pools): each on its pool, through the
	// caller's middleware, with the caller's timeout, never a cookie jar (the
	// interface has no cookies, and clients derived with With must share nothing
	// through one).
	idempotent, records, ownConn *http.Client
}

// New builds a Pipeline that sends on pools and draws its retries from budget (nil:
// retries are not budgeted). Pipelines may share both.
func New(cfg Config, pools *Pools, budget *Budget) *Pipeline {
	p := &Pipeline{budget: budget, expect: pools.expect, seesConns: pools.seesConns}
	p.setConfig(cfg)
	client := func(rt http.RoundTripper) *http.Client {
		if cfg.Middleware != nil {
			rt = cfg.Middleware(rt)
		}
		return &http.Client{Transport: rt, CheckRedirect: refuseRedirect, Timeout: pools.timeout}
	}
	idempotent, records, ownConn := pools.roundTrippers()
	p.idempotent, p.records, p.ownConn = client(idempotent), client(records), client(ownConn)
	return p
}

// With returns a Pipeline like p, on p's clients, with cfg, whose Middleware is
// taken to be p's: it builds no transport and calls no middleware.
func (p *Pipeline) With(cfg Config) *Pipeline {
	q := *p
	q.setConfig(cfg)
	return &q
}

func (p *Pipeline) setConfig(cfg Config) {
	if cfg.BeforeAttempt == nil {
		cfg.BeforeAttempt = func(context.Context, int, http.Header) {}
	}
	p.cfg = cfg
}
