// Package insurance is the Go client for the insurance partner HTTP JSON interface:
// list products, quote and buy travel, tuition and gap-medical cover, mint customer
// secrets for client-side checkout, onboard partners and record insured events.
//
// One [Client] holds the base URL and credentials. Each endpoint is one method that
// takes a context and a request struct, picks the right auth scheme, retries only what
// is safe to send twice, and returns a typed result or a typed error:
//
//	client, err := insurance.NewClient("https://api.example.com",
//		insurance.WithCredentials(clientID, clientSecret))
//	if err != nil {
//		return err
//	}
//	quote, err := client.QuoteTravel(ctx, &insurance.TravelQuoteRequest{...})
//	switch {
//	case errors.Is(err, insurance.ErrQuoteUnavailable):
//		// the quote is already bought
//	case err != nil:
//		return err
//	}
//	fmt.Println(quote.QuoteID, quote.Created)
//
// Package insurancetest runs a faithful in-process sandbox of the whole interface for
// partners' own tests.
package insurance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/partnerinsure/insurance-go/internal/pipeline"
)

// Version is the SDK version sent in the User-Agent header.
const Version = "0.3.0"

// Defaults of the retry policy; see WithMaxRetries, WithRetryWait and WithMaxRetryAfter.
const (
	DefaultMaxRetries    = 2
	DefaultRetryWaitMin  = 500 * time.Millisecond
	DefaultRetryWaitMax  = 8 * time.Second
	DefaultMaxRetryAfter = 10 * time.Second
)

// Client calls the insurance interface. Build it with NewClient or NewClientFromEnv.
// A Client is safe for concurrent use by many goroutines and reuses connections.
type Client struct {
	baseURL     string
	server      CallInfo // ServerAddress and ServerPort of baseURL, for observers
	credentials credentials
	pipe        *pipeline.Pipeline
	observers   []Observer
}

// Option configures a Client. Options check their input: NewClient returns the first
// error an option reports.
type Option func(*settings) error

type settings struct {
	clientID, clientSecret string
	httpClient             *http.Client
	maxRetries             int
	retryWaitMin           time.Duration
	retryWaitMax           time.Duration
	maxRetryAfter          time.Duration
	attemptTimeout         time.Duration
	recordIdleTimeout      time.Duration
	logger                 *slog.Logger
	userAgentSuffix        string
	insecureHTTP           bool
	observers              []Observer
}

// WithCredentials sets the partner's client id and client secret, for partner
// backends: Basic auth, and the client id header where an endpoint takes it.
func WithCredentials(clientID, clientSecret string) Option {
	return func(s *settings) error {
		if clientID == "" || clientSecret == "" {
			return errors.New("insurance: WithCredentials needs a client id and a client secret")
		}
		if strings.Contains(clientID, ":") {
			return errors.New("insurance: WithCredentials: a client id cannot contain ':'")
		}
		s.clientID, s.clientSecret = clientID, clientSecret
		return nil
	}
}

// WithClientID sets only the public client id, for code that must not hold the client
// secret: it can call the quote endpoints, which accept the x-api-client-id header.
// Given after WithCredentials, it drops the client secret set there: that is how
// insurancetest's srv.Client(insurance.WithClientID(srv.ClientID)) makes a client-side
// client, and how NewClientFromEnv's options can narrow a partner client to one.
func WithClientID(clientID string) Option {
	return func(s *settings) error {
		if clientID == "" {
			return errors.New("insurance: WithClientID needs a client id")
		}
		s.clientID, s.clientSecret = clientID, ""
		return nil
	}
}

// WithHTTPClient sets the *http.Client whose Transport, Jar and Timeout the Client uses:
// for httpmock, proxies or tracing. Redirects are never followed, whatever its
// CheckRedirect says: the interface has none, and following one could carry
// credentials to another host.
func WithHTTPClient(hc *http.Client) Option {
	return func(s *settings) error {
		if hc == nil {
			return errors.New("insurance: WithHTTPClient needs a non-nil *http.Client")
		}
		s.httpClient = hc
		return nil
	}
}

// WithMaxRetries sets how many times a failed call may be sent again (default 2).
// 0 disables retries: every call is sent once.
func WithMaxRetries(n int) Option {
	return func(s *settings) error {
		if n < 0 || n > 10 {
			return fmt.Errorf("insurance: WithMaxRetries(%d): want 0 to 10", n)
		}
		s.maxRetries = n
		return nil
	}
}

// WithRetryWait sets the shortest and longest wait between attempts (defaults 500ms
// and 8s). Waits double from min up to max, with jitter.
func WithRetryWait(min, max time.Duration) Option {
	return func(s *settings) error {
		if min <= 0 || max < min {
			return fmt.Errorf("insurance: WithRetryWait(%s, %s): want 0 < min <= max", min, max)
		}
		s.retryWaitMin, s.retryWaitMax = min, max
		return nil
	}
}

// WithMaxRetryAfter caps how long the Client honours a server's Retry-After header
// (default 10s); a longer Retry-After waits only this long.
func WithMaxRetryAfter(d time.Duration) Option {
	return func(s *settings) error {
		if d < 0 {
			return fmt.Errorf("insurance: WithMaxRetryAfter(%s): want >= 0", d)
		}
		s.maxRetryAfter = d
		return nil
	}
}

// WithAttemptTimeout bounds each attempt of a call, reading the answer included; the
// context bounds the whole call, waits and retries included. An idempotent call
// (products, quotes, customer secret) whose attempt times out is retried like one
// whose connection was reset; a record-creating call (purchases, onboarding, events)
// is not, and its error matches ErrOutcomeUnknown unless no connection was made.
// Default: no bound but the context's.
func WithAttemptTimeout(d time.Duration) Option {
	return func(s *settings) error {
		if d <= 0 {
			return fmt.Errorf("insurance: WithAttemptTimeout(%s): want > 0", d)
		}
		s.attemptTimeout = d
		return nil
	}
}

// DefaultRecordIdleTimeout is the default of WithRecordIdleTimeout.
const DefaultRecordIdleTimeout = time.Second

// WithRecordIdleTimeout sets the longest a connection may have sat idle for a
// record-creating call (purchases, onboarding, events) to reuse it; default 1s.
//
// Servers and proxies close idle keep-alive connections (nginx after 75s, cloud load
// balancers after 60s, Apache httpd and Node after 5s). A purchase written to a
// connection the other end is closing at that moment fails with no answer, and as it
// may have been processed, the SDK cannot send it again: ErrOutcomeUnknown, for
// nothing. So record-creating calls ride a pool of their own whose connections are
// closed after d idle, well before any common keep-alive timeout; other calls keep
// the main pool (net/http and the SDK retry them safely). Set d below the keep-alive
// timeout of every server and proxy on the way. With WithHTTPClient, this applies when
// its Transport is an *http.Transport (or nil): it is cloned; any other RoundTripper
// is used as it is. 0 turns the separate pool off: record-creating calls share the
// main pool.
func WithRecordIdleTimeout(d time.Duration) Option {
	return func(s *settings) error {
		if d < 0 {
			return fmt.Errorf("insurance: WithRecordIdleTimeout(%s): want >= 0", d)
		}
		s.recordIdleTimeout = d
		return nil
	}
}

// WithObserver adds an Observer that sees every call of the Client: once when it
// starts, before each attempt, and once when it ends. Observers run in the order
// given; EndCall in the reverse order.
func WithObserver(o Observer) Option {
	return func(s *settings) error {
		if o == nil {
			return errors.New("insurance: WithObserver needs a non-nil Observer")
		}
		s.observers = append(s.observers, o)
		return nil
	}
}

// WithLogger sets the logger. The Client logs one debug line per attempt with method,
// path, status, attempt and latency; never a header value or a body. Default: discard.
func WithLogger(l *slog.Logger) Option {
	return func(s *settings) error {
		if l == nil {
			return errors.New("insurance: WithLogger needs a non-nil *slog.Logger")
		}
		s.logger = l
		return nil
	}
}

// WithUserAgent appends s to the User-Agent header "insurance-go/<version> go/<runtime>".
func WithUserAgent(ua string) Option {
	return func(s *settings) error {
		ua = strings.TrimSpace(ua)
		if ua == "" || strings.ContainsAny(ua, "\r\n\x00") {
			return fmt.Errorf("insurance: WithUserAgent(%q): want printable, non-empty text", ua)
		}
		s.userAgentSuffix = ua
		return nil
	}
}

// WithInsecureHTTP allows an http:// base URL to a host other than loopback. Without
// it such a URL is refused, so credentials never travel in clear text by accident.
func WithInsecureHTTP() Option {
	return func(s *settings) error {
		s.insecureHTTP = true
		return nil
	}
}

// NewClient returns a Client for the interface at baseURL, for example
// "https://api.example.com". It rejects a malformed URL, a scheme other than http or
// https, a URL carrying user info, query or fragment, and http:// to a host other than
// loopback unless WithInsecureHTTP is given.
func NewClient(baseURL string, opts ...Option) (*Client, error) {
	s := settings{
		maxRetries:        DefaultMaxRetries,
		retryWaitMin:      DefaultRetryWaitMin,
		retryWaitMax:      DefaultRetryWaitMax,
		maxRetryAfter:     DefaultMaxRetryAfter,
		recordIdleTimeout: DefaultRecordIdleTimeout,
	}
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(&s); err != nil {
			return nil, err
		}
	}
	base, err := checkBaseURL(baseURL, s.insecureHTTP)
	if err != nil {
		return nil, err
	}
	userAgent := "insurance-go/" + Version + " go/" + runtime.Version()
	if s.userAgentSuffix != "" {
		userAgent += " " + s.userAgentSuffix
	}
	c := &Client{
		baseURL:     base,
		credentials: newCredentials(s.clientID, s.clientSecret),
		observers:   s.observers,
	}
	c.server = newServerInfo(base)
	cfg := pipeline.Config{
		BaseURL:           base,
		HTTPClient:        s.httpClient,
		MaxRetries:        s.maxRetries,
		RetryWaitMin:      s.retryWaitMin,
		RetryWaitMax:      s.retryWaitMax,
		MaxRetryAfter:     s.maxRetryAfter,
		AttemptTimeout:    s.attemptTimeout,
		RecordIdleTimeout: s.recordIdleTimeout,
		Logger:            s.logger,
		UserAgent:         userAgent,
	}
	if len(c.observers) > 0 {
		cfg.BeforeAttempt = c.startAttempt
	}
	c.pipe = pipeline.New(cfg)
	return c, nil
}

// Environment variables read by NewClientFromEnv.
const (
	EnvBaseURL      = "INSURANCE_BASE_URL"
	EnvClientID     = "INSURANCE_CLIENT_ID"
	EnvClientSecret = "INSURANCE_CLIENT_SECRET"
)

// NewClientFromEnv is NewClient with the base URL from INSURANCE_BASE_URL and the
// credentials from INSURANCE_CLIENT_ID and INSURANCE_CLIENT_SECRET (a client id
// alone gives a client-id-only Client). opts are applied after them and win.
func NewClientFromEnv(opts ...Option) (*Client, error) {
	baseURL := os.Getenv(EnvBaseURL)
	if baseURL == "" {
		return nil, fmt.Errorf("insurance: %s is not set", EnvBaseURL)
	}
	id, secret := os.Getenv(EnvClientID), os.Getenv(EnvClientSecret)
	var fromEnv []Option
	switch {
	case id != "" && secret != "":
		fromEnv = append(fromEnv, WithCredentials(id, secret))
	case id != "":
		fromEnv = append(fromEnv, WithClientID(id))
	case secret != "":
		return nil, fmt.Errorf("insurance: %s is set but %s is not", EnvClientSecret, EnvClientID)
	}
	return NewClient(baseURL, append(fromEnv, opts...)...)
}

func checkBaseURL(raw string, insecureHTTP bool) (string, error) {
	// User info, a query or a fragment may hold a secret: refuse the first before any
	// message repeats the URL, and never repeat the others.
	rest := raw
	if _, afterScheme, ok := strings.Cut(raw, "://"); ok {
		rest = afterScheme
	}
	if authority, _, _ := strings.Cut(rest, "/"); strings.Contains(authority, "@") {
		return "", errors.New("insurance: base URL must not carry user info: use WithCredentials")
	}
	shown, _, _ := strings.Cut(raw, "?")
	shown, _, _ = strings.Cut(shown, "#")
	if raw != "" && !strings.Contains(raw, "://") {
		return "", fmt.Errorf("insurance: base URL %q has no scheme: did you mean %q?", shown, "https://"+strings.TrimLeft(shown, "/"))
	}
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("insurance: base URL %q is malformed", shown)
	}
	path := strings.TrimRight(u.EscapedPath(), "/")
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("insurance: base URL %q: want an http or https URL", shown)
	case u.Host == "" || u.Hostname() == "":
		return "", fmt.Errorf("insurance: base URL %q has no host", shown)
	case u.User != nil:
		return "", errors.New("insurance: base URL must not carry user info: use WithCredentials")
	case u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" || u.ForceQuery:
		return "", fmt.Errorf("insurance: base URL %q must not have a query or fragment", shown)
	case u.Scheme == "http" && !insecureHTTP && !isLoopback(u.Hostname()):
		return "", fmt.Errorf("insurance: base URL %q sends credentials in clear text: use https, or WithInsecureHTTP", shown)
	case strings.HasSuffix(path, "/v1"):
		return "", fmt.Errorf("insurance: base URL %q ends in /v1, which the SDK adds to every path: use %q", shown, u.Scheme+"://"+u.Host+strings.TrimSuffix(path, "/v1"))
	}
	return u.Scheme + "://" + u.Host + path, nil
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// BaseURL returns the base URL the Client sends to.
func (c *Client) BaseURL() string { return c.baseURL }

// CloseIdleConnections closes the idle connections of the Client's transport.
func (c *Client) CloseIdleConnections() { c.pipe.CloseIdleConnections() }

// Format prints the Client without its secret, whatever the verb.
func (c *Client) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, "insurance.Client{BaseURL: %q, Credentials: %v}", c.baseURL, c.credentials)
}

// Response is what every result carries of the answer it came from.
type Response struct {
	StatusCode int             // HTTP status of the answer
	Header     http.Header     // response headers
	Raw        json.RawMessage // the body exactly as received
}

// Decode decodes the raw body into v, for fields the SDK does not type.
func (r *Response) Decode(v any) error {
	if len(r.Raw) == 0 {
		return errors.New("insurance: the response has no body to decode")
	}
	if err := json.Unmarshal(r.Raw, v); err != nil {
		return fmt.Errorf("insurance: decoding response body: %w", err)
	}
	return nil
}

// RequestID returns the X-Request-Id header of the answer, if any.
func (r *Response) RequestID() string { return r.Header.Get("X-Request-Id") }

func (r *Response) setResponse(resp Response) { *r = resp }

// Do calls an endpoint the SDK does not wrap yet, with the same auth selection,
// retries and error mapping as the typed methods. in is sent as the JSON body (nil:
// none) and a 2xx body is decoded into out (nil: not decoded; Response.Raw keeps it).
// GET, HEAD, PUT and DELETE are retried like the idempotent calls; any other method is
// treated as record-creating and never sent twice once it may have reached the server.
func (c *Client) Do(ctx context.Context, method, path string, auth Auth, in, out any) (*Response, error) {
	if method == "" || strings.ContainsAny(method, " \t\r\n") {
		return nil, &ValidationError{Field: "method", Problem: "want an HTTP method such as GET or POST"}
	}
	if !strings.HasPrefix(path, "/") || strings.Contains(path, "..") || strings.ContainsAny(path, "?#") {
		return nil, &ValidationError{Field: "path", Problem: "want an absolute path such as /v1/quote/pet, without query or '..'"}
	}
	class := pipeline.CreatesRecord
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete:
		class = pipeline.Idempotent
	}
	res, err := c.call(ctx, &route{method: method, path: path, auth: auth, class: class}, in, out)
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// route is one endpoint: method, path, auth scheme and retry class.
type route struct {
	method, path string
	auth         Auth
	class        pipeline.Class
}

// validator is implemented by request types with local checks.
type validator interface{ validate() error }

// responseHolder is implemented by every result type through its embedded Response.
type responseHolder interface{ setResponse(Response) }

// call is the single path of every endpoint: validate, authorize, send, map errors,
// decode, with the Client's observers around it all.
func (c *Client) call(ctx context.Context, rt *route, in, out any) (Response, error) {
	if ctx == nil {
		return Response{}, &ValidationError{Field: "ctx", Problem: "is nil"}
	}
	if len(c.observers) == 0 {
		res, _, err := c.exchange(ctx, rt, in, out)
		return res, err
	}
	info := c.callInfo(rt)
	for _, o := range c.observers {
		if observed := o.StartCall(ctx, info); observed != nil {
			ctx = observed
		}
	}
	res, attempts, err := c.exchange(ctx, rt, in, out)
	result := resultOf(res, attempts, err)
	for i := len(c.observers) - 1; i >= 0; i-- {
		c.observers[i].EndCall(ctx, info, result)
	}
	return res, err
}

// exchange is call without observers; it also says how many attempts went out.
func (c *Client) exchange(ctx context.Context, rt *route, in, out any) (Response, int, error) {
	if v, ok := in.(validator); ok {
		if err := v.validate(); err != nil {
			return Response{}, 0, err
		}
	}
	header, value, err := c.credentials.authorize(rt)
	if err != nil {
		return Response{}, 0, err
	}
	res, err := c.pipe.Send(ctx, &pipeline.Request{
		Method: rt.method, Path: rt.path, Body: in,
		AuthHeader: header, AuthValue: value, Class: rt.class,
	})
	if err != nil {
		reqErr := newRequestError(*rt, err)
		return Response{}, reqErr.Attempts, reqErr
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return Response{}, res.Attempts, newAPIError(*rt, res)
	}
	if out != nil && len(res.Body) > 0 {
		if err := decodeBody(res.Body, out); err != nil {
			return Response{}, res.Attempts, newDecodeError(*rt, res, err)
		}
	}
	resp := Response{StatusCode: res.StatusCode, Header: res.Header, Raw: res.Body}
	if h, ok := out.(responseHolder); ok {
		h.setResponse(resp)
	}
	return resp, res.Attempts, nil
}

// bodyDecoder is implemented by results that decode a body themselves. json.Unmarshal
// would scan the body to check it, again to find where the value ends, and then hand
// it to the result's UnmarshalJSON, which starts over.
type bodyDecoder interface{ decodeBody([]byte) error }

// decodeBody decodes a 2xx body into out.
func decodeBody(body []byte, out any) error {
	if d, ok := out.(bodyDecoder); ok {
		return d.decodeBody(body)
	}
	return json.Unmarshal(body, out)
}

// send is call for the typed endpoints: it allocates the result.
func send[T any](ctx context.Context, c *Client, rt *route, in any) (*T, error) {
	out := new(T)
	if _, err := c.call(ctx, rt, in, out); err != nil {
		return nil, err
	}
	return out, nil
}
