// Package pipeline is the one path every SDK call takes to the wire: it builds the
// request, sets its headers, sends it with the retry policy, and reads a capped body.
// Mapping answers to the SDK's public errors and result types happens in package
// insurance, which owns those types.
package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
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
	Logger        *slog.Logger
	UserAgent     string
}

// Request is one call: route, JSON body, the single auth header, and its retry class.
type Request struct {
	Method     string
	Path       string
	Body       any // JSON-encoded when not nil
	AuthHeader string
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
	// server (dial failures, 429 answers) or none was made.
	MayHaveArrived bool
	StatusCode     int // status of a 2xx whose body failed; 0 when no answer came
	Header         http.Header
	Body           []byte // what was read of that body
	Err            error
}

// Error returns the cause's text.
func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Pipeline sends requests for one client. It is safe for concurrent use.
type Pipeline struct {
	baseURL       string
	userAgent     string
	maxRetryAfter time.Duration
	transport     http.RoundTripper
	retrying      *retryablehttp.Client
}

// New builds a Pipeline. go-retryablehttp's defaults are all replaced: its retry
// policy resends POSTs, its backoff trusts any Retry-After, its error handler drops the
// last answer, its logger prints URLs, and it empties the idle pool after any failure.
func New(cfg Config) *Pipeline {
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Transport: NewTransport()}
	}
	next := hc.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	p := &Pipeline{
		baseURL:       cfg.BaseURL,
		userAgent:     cfg.UserAgent,
		maxRetryAfter: cfg.MaxRetryAfter,
		transport:     next,
	}
	p.retrying = &retryablehttp.Client{
		HTTPClient: &http.Client{
			// attemptTransport does not expose CloseIdleConnections, so a failed call
			// does not tear down the connections other goroutines are reusing.
			Transport:     &attemptTransport{next: next, logger: cfg.Logger},
			CheckRedirect: refuseRedirect,
			Jar:           hc.Jar,
			Timeout:       hc.Timeout,
		},
		RetryMax:     cfg.MaxRetries,
		RetryWaitMin: cfg.RetryWaitMin,
		RetryWaitMax: cfg.RetryWaitMax,
		CheckRetry:   checkRetry,
		Backoff:      p.backoff,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
	}
	return p
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

// CloseIdleConnections closes the idle connections of the underlying transport.
func (p *Pipeline) CloseIdleConnections() {
	if c, ok := p.transport.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// Send performs the request, retrying as its Class allows.
func (p *Pipeline) Send(ctx context.Context, r Request) (Response, error) {
	if err := ctx.Err(); err != nil {
		return Response{}, &Error{Err: err}
	}
	var body any // nil interface: no body at all
	if r.Body != nil {
		encoded, err := json.Marshal(r.Body)
		if err != nil {
			return Response{}, &Error{Err: fmt.Errorf("encoding request body: %w", err)}
		}
		body = encoded
	}

	st := &callState{Context: ctx, class: r.Class, method: r.Method, path: r.Path}
	req, err := retryablehttp.NewRequestWithContext(st, r.Method, p.baseURL+r.Path, body)
	if err != nil {
		return Response{}, &Error{Err: fmt.Errorf("building request: %w", err)}
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("User-Agent", p.userAgent)
	if r.AuthHeader != "" {
		req.Header.Set(r.AuthHeader, r.AuthValue)
	}
	// Called on the answer retryablehttp will not retry on status alone.
	req.SetResponseHandler(st.readBody)

	resp, err := p.retrying.Do(req)
	if err != nil {
		e := &Error{Attempts: st.attempts, MayHaveArrived: st.mayHaveArrived, Body: st.body, Err: unwrapURLError(err)}
		if resp != nil {
			e.StatusCode, e.Header = resp.StatusCode, resp.Header
		}
		return Response{}, e
	}
	if !st.bodyRead {
		// Retries ran out on a retryable status: retryablehttp hands back that last
		// answer without calling the response handler. It is never a 2xx.
		_ = st.readBody(resp)
	}
	return Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: st.body, Attempts: st.attempts}, nil
}

// callState follows one call across its attempts. It is the context of the call's
// requests, so the retry hooks, which see only a context or a request, can find it.
// The attempts of a call run one after another, so it needs no lock.
type callState struct {
	context.Context
	class          Class
	method, path   string
	attempts       int
	mayHaveArrived bool
	bodyRead       bool
	body           []byte
}

type callKey struct{}

// Value returns the callState itself for callKey.
func (st *callState) Value(key any) any {
	if key == (callKey{}) {
		return st
	}
	return st.Context.Value(key)
}

func stateOf(ctx context.Context) *callState {
	st, _ := ctx.Value(callKey{}).(*callState)
	return st
}

// readBody reads the final answer's body, capped, and closes it. Only a 2xx body
// that cannot be read in full is an error: it is the answer the caller needs.
func (st *callState) readBody(resp *http.Response) error {
	defer resp.Body.Close()
	st.bodyRead = true
	success := resp.StatusCode >= 200 && resp.StatusCode < 300
	limit := int64(MaxErrorBody)
	if success {
		limit = MaxSuccessBody
		if resp.ContentLength > limit {
			return ErrResponseTooLarge // refused without reading it
		}
	}
	body, err := readCapped(resp.Body, resp.ContentLength, limit)
	st.body = body
	resp.Body = http.NoBody
	if !success {
		return nil // the status is the answer; a short or capped error body is kept as it is
	}
	return err
}

// readCapped reads at most limit bytes; more is ErrResponseTooLarge. A known length
// is read into one exact allocation.
func readCapped(r io.Reader, length, limit int64) ([]byte, error) {
	if length >= 0 && length <= limit {
		body := make([]byte, length)
		n, err := io.ReadFull(r, body)
		if err != nil {
			return body[:n], fmt.Errorf("reading response body: %w", err)
		}
		return body, nil
	}
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	body := buf.Bytes()
	switch {
	case n > limit:
		return body[:limit], ErrResponseTooLarge
	case err != nil:
		return body, fmt.Errorf("reading response body: %w", err)
	}
	return body, nil
}

// checkRetry is the retry table of conventions.md.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, nil
	}
	st := stateOf(ctx)
	if err != nil {
		if errors.Is(err, ErrResponseTooLarge) {
			return false, nil
		}
		return isDialError(err) || st.class == Idempotent, nil
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests:
		return true, nil
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return st.class == Idempotent, nil
	}
	return false, nil
}

// backoff waits exponentially longer with jitter, or as long as the server's
// Retry-After asks, capped so that a hostile or mistaken header cannot stall a call.
func (p *Pipeline) backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return min(d, p.maxRetryAfter)
		}
	}
	wait := maxWait
	if attempt < 32 && minWait<<attempt > 0 && minWait<<attempt < maxWait {
		wait = minWait << attempt
	}
	// Equal jitter: at least half the wait, so waits still grow.
	return wait/2 + rand.N(wait/2+1)
}

// parseRetryAfter reads delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
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

// attemptTransport counts and logs every attempt. It logs method, path, status,
// attempt and latency: never a header, a body or a query.
type attemptTransport struct {
	next   http.RoundTripper
	logger *slog.Logger
}

// RoundTrip sends one attempt, counting and logging it.
func (t *attemptTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	st := stateOf(req.Context())
	if st == nil {
		return t.next.RoundTrip(req)
	}
	st.attempts++
	start := time.Now()
	resp, err := t.next.RoundTrip(req)
	switch {
	case err != nil && isDialError(err):
	case err == nil && resp.StatusCode == http.StatusTooManyRequests:
	default:
		st.mayHaveArrived = true
	}
	if t.logger != nil && t.logger.Enabled(req.Context(), slog.LevelDebug) {
		attrs := []slog.Attr{
			slog.String("method", st.method),
			slog.String("path", st.path),
			slog.Int("attempt", st.attempts),
			slog.Duration("latency", time.Since(start)),
		}
		if err != nil {
			attrs = append(attrs, slog.String("error", unwrapURLError(err).Error()))
		} else {
			attrs = append(attrs, slog.Int("status", resp.StatusCode))
		}
		t.logger.LogAttrs(req.Context(), slog.LevelDebug, "insurance: http attempt", attrs...)
	}
	return resp, err
}
