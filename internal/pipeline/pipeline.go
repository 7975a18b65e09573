// Package pipeline is the one path every SDK call takes to the wire: it builds the
// request, sets its headers, sends it with the retry policy, and reads a capped body.
// Mapping answers to the SDK's public errors and result types happens in package
// insurance, which owns those types.
package pipeline

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Class says whether a request may be sent again once it may have reached the server.
type Class int

const (
	// Idempotent requests are retried on 429, 502, 503, 504 and transport failures.
	Idempotent Class = iota
	// CreatesRecord requests are retried only on 429 and when nothing was sent (a
	// dial failure): sending one twice could buy two policies.
	CreatesRecord
)

// Body size caps.
const (
	MaxSuccessBody = 16 << 20 // a 2xx body larger than this is an error
	MaxErrorBody   = 64 << 10 // a non-2xx body is kept up to this size
)

// ErrResponseTooLarge reports a 2xx body over MaxSuccessBody.
var ErrResponseTooLarge = fmt.Errorf("response body exceeds %d MiB", MaxSuccessBody>>20)

// Config is what a Pipeline needs; every field is already validated by the caller.
type Config struct {
	BaseURL       string       // scheme://host[/prefix], no trailing slash
	HTTPClient    *http.Client // nil: a pooled client of our own
	MaxRetries    int
	RetryWaitMin  time.Duration
	RetryWaitMax  time.Duration
	MaxRetryAfter time.Duration // cap on a server's Retry-After
	// AttemptTimeout bounds each attempt, reading the body included; 0: no bound
	// beyond the context (and HTTPClient.Timeout).
	AttemptTimeout time.Duration
	// RecordIdleTimeout is the longest a connection may have been idle for a
	// CreatesRecord request to ride it; 0: such requests share the other pool.
	RecordIdleTimeout time.Duration
	Logger            *slog.Logger // nil: attempts are not logged
	UserAgent         string
	// BeforeAttempt, when set, runs before each attempt is sent with a private copy of
	// the attempt's header (trace context goes there).
	BeforeAttempt func(ctx context.Context, attempt int, header http.Header)
}

// Request is one call: route, JSON body, the single auth header, and its retry class.
type Request struct {
	Method     string
	Path       string
	Body       any    // JSON-encoded when not nil
	AuthHeader string // in canonical form (http.CanonicalHeaderKey); "": none
	AuthValue  string
	Class      Class
}

// Response is an answer whose body was read in full (2xx) or up to MaxErrorBody.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
	Attempts   int
}

// Error is a call that ended without a usable answer: the request could not be
// encoded or sent, the context ended, or a 2xx body could not be read.
type Error struct {
	Attempts int
	// MayHaveArrived is false only when every attempt provably never reached the
	// server (no connection was obtained, or a 429 answered it) or none was made.
	MayHaveArrived bool
	StatusCode     int // status of a 2xx whose body failed; 0 when no answer came
	Header         http.Header
	Body           []byte // what was read of that body
	// Last is the last non-2xx answer, when the call's context ended after it: during
	// the wait before its retry, or during that retry.
	Last *Response
	Err  error
}

// Error returns the cause's text.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Pipeline sends requests for one client. It is safe for concurrent use.
type Pipeline struct {
	baseURL        string
	userAgent      string
	maxRetries     int
	retryWaitMin   time.Duration
	retryWaitMax   time.Duration
	maxRetryAfter  time.Duration
	attemptTimeout time.Duration // WithAttemptTimeout, when it is the bound of an attempt
	// traced is true when the transport reports the connections an attempt obtains (an
	// *http.Transport): an attempt that obtained none provably sent nothing.
	traced        bool
	shared        http.RoundTripper // idempotent requests
	records       http.RoundTripper // CreatesRecord requests: connections idle only briefly
	logger        *slog.Logger
	beforeAttempt func(context.Context, int, http.Header)
	// retrying runs the attempts of each Class on that class's pool, through the
	// pool's gate, if it has one.
	retrying [2]*retryablehttp.Client
	gates    [2]*connGate
}

// New builds a Pipeline. go-retryablehttp runs the attempts, asking checkRetry after
// each and prepareRetry before each retry; every policy of its own is replaced: its
// retry policy resends POSTs, its backoff trusts any Retry-After and sleeps past
// deadlines, its error handler drops the last answer, its logger prints URLs, and it
// empties the idle pool after any failure.
func New(cfg Config) *Pipeline {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Transport: NewTransport()}
	}
	shared := hc.Transport
	if shared == nil {
		shared = http.DefaultTransport
	}
	// Only an *http.Transport reports connections, and only it can be copied with a
	// shorter idle bound; any other RoundTripper carries every request as it is.
	transport, traced := shared.(*http.Transport)
	separate := traced && cfg.RecordIdleTimeout > 0
	records := shared
	if separate {
		records = boundIdle(transport, cfg.RecordIdleTimeout)
	}
	p := &Pipeline{
		baseURL:       cfg.BaseURL,
		userAgent:     cfg.UserAgent,
		maxRetries:    cfg.MaxRetries,
		retryWaitMin:  cfg.RetryWaitMin,
		retryWaitMax:  cfg.RetryWaitMax,
		maxRetryAfter: cfg.MaxRetryAfter,
		traced:        traced,
		shared:        shared,
		records:       records,
		logger:        cfg.Logger,
		beforeAttempt: cfg.BeforeAttempt,
	}
	timeout := hc.Timeout
	if cfg.AttemptTimeout > 0 && (timeout == 0 || cfg.AttemptTimeout < timeout) {
		timeout = cfg.AttemptTimeout
		p.attemptTimeout = timeout // named in the error of an attempt it ends
	}
	gated := traced && strings.HasPrefix(cfg.BaseURL, "https://") // see connGate
	newClient := func(class Class, pool http.RoundTripper) {
		if gated {
			p.gates[class] = newConnGate(maxGateWait)
		}
		p.retrying[class] = &retryablehttp.Client{
			HTTPClient: &http.Client{
				Transport:     poolTransport{pool: pool, gate: p.gates[class]},
				CheckRedirect: refuseRedirect,
				Jar:           hc.Jar,
				Timeout:       timeout, // per attempt: net/http applies it to each Do
			},
			RetryMax:     cfg.MaxRetries,
			CheckRetry:   p.checkRetry,
			Backoff:      func(time.Duration, time.Duration, int, *http.Response) time.Duration { return 0 }, // checkRetry waits
			ErrorHandler: retryablehttp.PassthroughErrorHandler,
			PrepareRetry: p.prepareRetry,
		}
	}
	newClient(Idempotent, shared)
	if separate {
		newClient(CreatesRecord, records)
	} else {
		p.retrying[CreatesRecord], p.gates[CreatesRecord] = p.retrying[Idempotent], p.gates[Idempotent]
	}
	return p
}

// boundIdle returns a copy of t whose idle connections are closed after d, so that a
// request never rides a connection a server or proxy is about to close: closed as the
// request goes out, it leaves the request's fate unknown.
func boundIdle(t *http.Transport, d time.Duration) *http.Transport {
	bounded := t.Clone()
	if bounded.IdleConnTimeout == 0 || bounded.IdleConnTimeout > d {
		bounded.IdleConnTimeout = d
	}
	return bounded
}

// MaxConnsPerHost bounds the connections of the default transport to one host.
// net/http dials a new connection for a request that finds none idle and hands a
// connection freed meanwhile to that request instead, parking the new one: without a
// bound, 64 goroutines open 70 and more. Further calls wait for a free connection
// (or their context).
const MaxConnsPerHost = 64

// NewTransport is the transport used when the caller brings no *http.Client: the
// usual net/http timeouts, and a pool that keeps every connection it opens idle for
// reuse, so a client shared by many goroutines does not churn connections.
func NewTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          4 * MaxConnsPerHost,
		MaxIdleConnsPerHost:   MaxConnsPerHost,
		MaxConnsPerHost:       MaxConnsPerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// CloseIdleConnections closes the idle connections of both pools.
func (p *Pipeline) CloseIdleConnections() {
	for _, rt := range []http.RoundTripper{p.shared, p.records} {
		if c, ok := rt.(interface{ CloseIdleConnections() }); ok {
			c.CloseIdleConnections()
		}
	}
}

// Send performs the request, retrying as its Class allows.
func (p *Pipeline) Send(ctx context.Context, r *Request) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, &Error{Err: err}
	}
	var body []byte // nil: no body at all
	if r.Body != nil {
		encoded, err := json.Marshal(r.Body)
		if err != nil {
			return Response{}, &Error{Err: fmt.Errorf("encoding request body: %w", err)}
		}
		body = encoded
	}

	st := &callState{Context: ctx, class: r.Class, method: r.Method, path: r.Path, gate: p.gates[r.Class]}
	st.logs = p.logger != nil && p.logger.Enabled(ctx, slog.LevelDebug)
	var reqCtx context.Context = st
	if p.traced {
		st.trace.GotConn = st.gotConn
		if httptrace.ContextClientTrace(ctx) == nil {
			st.tracing = true // st answers net/http's lookup itself
		} else {
			reqCtx = httptrace.WithClientTrace(st, &st.trace) // runs the caller's hooks too
		}
	}
	req, err := p.newRequest(reqCtx, r, body)
	if err != nil {
		return Response{}, &Error{Err: fmt.Errorf("building request: %w", err)}
	}
	p.startAttempt(st, req.Request)
	resp, err := p.retrying[r.Class].Do(req)
	if err != nil {
		return Response{}, p.callError(st, resp, err)
	}
	return Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: st.body, Attempts: st.attempts}, nil
}

// callError is the Error of a call that ended with err, and with resp if an answer
// came whose body failed.
func (p *Pipeline) callError(st *callState, resp *http.Response, err error) *Error {
	err = unwrapURLError(err)
	if p.attemptTimeout > 0 && st.Context.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("no answer within the attempt timeout of %s: %w", p.attemptTimeout, context.DeadlineExceeded)
	}
	e := &Error{Attempts: st.attempts, MayHaveArrived: st.mayHaveArrived, Err: err}
	switch {
	case st.answer != nil && st.Context.Err() != nil && !isSuccess(st.answer.StatusCode):
		e.Last = &Response{StatusCode: st.answer.StatusCode, Header: st.answer.Header, Body: st.body, Attempts: st.attempts}
	case resp != nil:
		e.StatusCode, e.Header, e.Body = resp.StatusCode, resp.Header, st.body
	}
	return e
}

// newRequest builds the request with net/http, which keeps the body rewindable
// through GetBody, and wraps it for retryablehttp as it is: its own constructors would
// copy the body into closures of their own. prepareRetry rewinds it for each retry.
func (p *Pipeline) newRequest(ctx context.Context, r *Request, body []byte) (*retryablehttp.Request, error) {
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	httpReq, err := http.NewRequestWithContext(ctx, r.Method, p.baseURL+r.Path, reader)
	if err != nil {
		return nil, err
	}
	// The header values share one array instead of one []string per Header.Set; each
	// value's slice is capped, so appending to one cannot overwrite the next.
	values := &[...]string{"application/json", "application/json", p.userAgent, r.AuthValue}
	h := httpReq.Header
	h["Accept"] = values[0:1:1]
	if body != nil {
		h["Content-Type"] = values[1:2:2]
	}
	h["User-Agent"] = values[2:3:3]
	if r.AuthHeader != "" {
		h[r.AuthHeader] = values[3:4:4]
	}
	return &retryablehttp.Request{Request: httpReq}, nil
}

// prepareRetry readies the copy of the request that retryablehttp sends next: the
// body from its start again, and the attempt begun.
func (p *Pipeline) prepareRetry(req *http.Request) error {
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return fmt.Errorf("rewinding request body: %w", err)
		}
		req.Body = body
	}
	if p.beforeAttempt != nil {
		req.Header = req.Header.Clone() // the last attempt's may still be being written
	}
	p.startAttempt(stateOf(req.Context()), req)
	return nil
}

// startAttempt runs before each attempt goes out: the BeforeAttempt hook writes to
// the attempt's header, and the attempt's connections are counted from zero.
func (p *Pipeline) startAttempt(st *callState, req *http.Request) {
	if p.beforeAttempt != nil {
		p.beforeAttempt(req.Context(), st.attempts+1, req.Header)
	}
	st.conns.Store(0)
	if st.logs {
		st.attemptStart = time.Now()
	}
}

// endAttempt accounts for the attempt that just ended: how many times it went on the
// wire, and whether it may have reached the server.
func (p *Pipeline) endAttempt(st *callState, resp *http.Response, err error) {
	conns := int(st.conns.Load())
	st.attempts += max(1, conns)
	switch {
	case err == nil && resp.StatusCode == http.StatusTooManyRequests:
		st.lastSent = false // refused unprocessed
	case err != nil && (isDialError(err) || (p.traced && conns == 0)):
		st.lastSent = false // no connection: nothing was written
	default:
		st.lastSent = true
		st.mayHaveArrived = true
	}
	if st.logs {
		p.logAttempt(st, resp, err)
	}
}

// logAttempt logs an attempt with method, path, status, attempt and latency, never a
// header, a body or a query.
func (p *Pipeline) logAttempt(st *callState, resp *http.Response, err error) {
	attrs := []slog.Attr{
		slog.String("method", st.method),
		slog.String("path", st.path),
		slog.Int("attempt", st.attempts),
		slog.Duration("latency", time.Since(st.attemptStart)),
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", unwrapURLError(err).Error()))
	} else {
		attrs = append(attrs, slog.Int("status", resp.StatusCode))
	}
	p.logger.LogAttrs(st, slog.LevelDebug, "insurance: http attempt", attrs...)
}

func isSuccess(status int) bool { return status >= 200 && status < 300 }

// hasNoBody reports an answer that carries no body whatever its Content-Length says:
// to a HEAD, a 204 or a 304.
func hasNoBody(resp *http.Response) bool {
	return resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusNotModified ||
		(resp.Request != nil && resp.Request.Method == http.MethodHead)
}

// callState follows one call across its attempts. It is the context of the call's
// requests, so the retry hooks, which see only a context or a request, can find it.
// The attempts of a call run one after another, so it needs no lock but for conns,
// which net/http's connection hooks touch.
type callState struct {
	context.Context
	class          Class
	method, path   string
	attempts       int       // times the request went out, net/http's own resends included
	retries        int       // retries decided so far
	mayHaveArrived bool      // some attempt may have reached the server
	lastSent       bool      // the last attempt may have reached the server
	logs           bool      // attempts are logged
	attemptStart   time.Time // when the attempt went out, if logged
	trace          httptrace.ClientTrace
	tracing        bool         // Value gives trace to net/http
	conns          atomic.Int32 // connections obtained during the current attempt
	gate           *connGate    // the gate of the call's pool, if any

	answer *http.Response // the last answer read, whose body is body
	body   []byte
}

type callKey struct{}

// Value returns the callState itself for callKey, and its trace for the key net/http
// looks a ClientTrace up with, when tracing.
func (st *callState) Value(key any) any {
	switch {
	case key == (callKey{}):
		return st
	case st.tracing && key == clientTraceKey:
		return &st.trace
	}
	return st.Context.Value(key)
}

// stateOf finds the callState of a request's context.
func stateOf(ctx context.Context) *callState {
	if st, ok := ctx.(*callState); ok {
		return st
	}
	st, _ := ctx.Value(callKey{}).(*callState)
	return st
}

// clientTraceKey is the context key of an *httptrace.ClientTrace. httptrace does not
// export it, but ContextClientTrace looks it up with Value, so a context that notes
// the key it is asked for learns it. With it, a call's context answers for its own
// trace: one layer instead of httptrace.WithClientTrace's second, on the hot path.
var clientTraceKey = func() any {
	var probe keyProbe
	httptrace.ContextClientTrace(&probe)
	return probe.asked
}()

// keyProbe is a context that notes the key its Value is asked for.
type keyProbe struct {
	context.Context // nil: only Value is called
	asked           any
}

func (p *keyProbe) Value(key any) any { p.asked = key; return nil }

// gotConn counts the connections an attempt obtains: net/http silently sends an
// idempotent request again on a fresh connection when a reused one fails.
func (st *callState) gotConn(httptrace.GotConnInfo) {
	st.conns.Add(1)
	if st.gate != nil {
		st.gate.open()
	}
}

// readBody reads an answer's body, capped, and closes it. Only a 2xx body that cannot
// be read in full is an error: it is the answer the caller needs.
func (st *callState) readBody(resp *http.Response) error {
	defer resp.Body.Close()
	st.answer, st.body = resp, nil
	if hasNoBody(resp) {
		return nil
	}
	limit := int64(MaxErrorBody)
	if isSuccess(resp.StatusCode) {
		limit = MaxSuccessBody
		if resp.ContentLength > limit {
			return ErrResponseTooLarge // refused without reading it
		}
	}
	body, err := readCapped(resp.Body, resp.ContentLength, limit)
	st.body = body
	resp.Body = http.NoBody
	if isSuccess(resp.StatusCode) {
		return err // a short or capped error body is kept as it is
	}
	return nil
}

// readCapped reads at most limit bytes; more is ErrResponseTooLarge. A known length
// is read into one exact allocation; an unknown one (chunked) through io.ReadAll,
// which grows in chunks and copies once into an exact slice.
func readCapped(r io.Reader, length, limit int64) ([]byte, error) {
	if length >= 0 && length <= limit {
		body := make([]byte, length)
		n, err := io.ReadFull(r, body)
		if err != nil {
			return body[:n], fmt.Errorf("reading response body: %w", err)
		}
		return body, nil
	}
	body, err := io.ReadAll(io.LimitReader(r, limit+1))
	switch {
	case int64(len(body)) > limit:
		return body[:limit], ErrResponseTooLarge
	case err != nil:
		return body, fmt.Errorf("reading response body: %w", err)
	}
	return body, nil
}

// checkRetry runs after each attempt. It accounts for the attempt, reads the answer's
// body, and applies the whole retry policy: whether the answer (or failure) may be
// tried again under the retry table of conventions.md, and after how long. It waits
// itself, so that a wait that would outlast the context's deadline is not begun: the
// call then ends at once with what it has. A context that ends during the wait ends
// the call with the context's error. A 2xx body that could not be read ends the call
// with that error, unless a retry follows.
func (p *Pipeline) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	st := stateOf(ctx)
	p.endAttempt(st, resp, err)
	if resp != nil {
		err = st.readBody(resp) // kept: it is the answer if no retry follows
	}
	if ctx.Err() != nil || !st.retryable(resp, err) || st.retries >= p.maxRetries {
		return false, err
	}
	wait := p.wait(st.retries, resp)
	if deadline, ok := ctx.Deadline(); ok && !time.Now().Add(wait).Before(deadline) {
		return false, err
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		if err != nil {
			return false, fmt.Errorf("%w while waiting to retry after: %v", ctx.Err(), unwrapURLError(err))
		}
		return false, ctx.Err()
	case <-timer.C:
	}
	st.retries++
	return true, nil
}

// retryable is the retry table of conventions.md for one attempt's outcome.
func (st *callState) retryable(resp *http.Response, err error) bool {
	if err != nil { // no answer, or a 2xx whose body could not be read
		if errors.Is(err, ErrResponseTooLarge) || isPermanent(err) {
			return false
		}
		return st.class == Idempotent || !st.lastSent
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		return true
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return st.class == Idempotent
	}
	return false
}

// wait is how long to wait before retry number retries+1: as long as the server's
// Retry-After asks, capped so that a hostile or mistaken header cannot stall a call,
// or exponentially longer with jitter.
func (p *Pipeline) wait(retries int, resp *http.Response) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return min(d, p.maxRetryAfter)
		}
	}
	wait := p.retryWaitMax
	if retries < 32 && p.retryWaitMin<<retries > 0 && p.retryWaitMin<<retries < p.retryWaitMax {
		wait = p.retryWaitMin << retries
	}
	// Equal jitter: at least half the wait, so waits still grow.
	return wait/2 + rand.N(wait/2+1)
}

// ParseRetryAfter reads a Retry-After value: delay-seconds or an HTTP date.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(time.Duration(1<<62)/time.Second) {
			secs = int64(time.Duration(1<<62) / time.Second)
		}
		return time.Duration(secs) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(now), 0), true
	}
	return 0, false
}

// isPermanent reports a failure that trying again cannot cure: a certificate that does
// not verify, or a server that does not speak TLS.
func isPermanent(err error) bool {
	var certErr *tls.CertificateVerificationError
	var recordErr tls.RecordHeaderError
	return errors.As(err, &certErr) || errors.As(err, &recordErr)
}

// isDialError reports a failure to connect: the request was never written.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// unwrapURLError drops net/http's *url.Error layer, whose text repeats the full URL;
// the SDK's own error names method and path.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func refuseRedirect(*http.Request, []*http.Request) error {
	// The interface has no redirects. Following one could carry credentials or a card
	// number to another host, so the 3xx is returned as it is.
	return http.ErrUseLastResponse
}

// poolTransport sends attempts on a pool, through the pool's gate if it has one. It
// does not pass on CloseIdleConnections: retryablehttp calls it after every failed
// call, which would tear down the connections other goroutines are reusing.
type poolTransport struct {
	pool http.RoundTripper
	gate *connGate
}

// RoundTrip sends one attempt.
func (t poolTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.gate == nil {
		return t.pool.RoundTrip(req)
	}
	return t.gate.roundTrip(t.pool, req)
}

// connGate lets a pool's attempts out one at a time until the pool has its first
// connection. net/http dials a connection for every request that finds none idle;
// over HTTP/2, where one connection carries every request, it then closes all but
// one of them after their TLS handshake, so 64 goroutines starting on a new Client
// would open 64 connections to use one. Once a connection is up, the gate stays
// open: over HTTP/2 the attempts share that connection, over HTTP/1.1 they dial
// their own as before. The callState's gotConn opens it.
type connGate struct {
	up      chan struct{} // closed once the pool has had a connection
	once    sync.Once
	turn    chan struct{} // full while one attempt is connecting
	maxWait time.Duration // how long an attempt waits for another's connection
}

// maxGateWait bounds the wait at a gate: an attempt whose turn has not come by then
// goes out on its own, so a dial that hangs (an address that drops packets) holds a
// burst for a second, not for the dialer's 30s timeout.
const maxGateWait = time.Second

func newConnGate(maxWait time.Duration) *connGate {
	return &connGate{up: make(chan struct{}), turn: make(chan struct{}, 1), maxWait: maxWait}
}

func (g *connGate) open() { g.once.Do(func() { close(g.up) }) }

// roundTrip sends req on rt, first waiting, while the gate is not open yet, for the
// pool's first connection or for the turn to make it, at most maxWait.
func (g *connGate) roundTrip(rt http.RoundTripper, req *http.Request) (*http.Response, error) {
	select {
	case <-g.up:
		return rt.RoundTrip(req)
	default:
	}
	timer := time.NewTimer(g.maxWait)
	defer timer.Stop()
	select {
	case <-g.up:
	case g.turn <- struct{}{}:
		defer func() { <-g.turn }() // connected or failed: the next may try
	case <-timer.C:
		// The connecting attempt is slow: go out as if there were no gate.
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
	return rt.RoundTrip(req)
}
