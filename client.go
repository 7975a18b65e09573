// Package insurance is the Go client for the insurance partner HTTP JSON interface.
// From a partner's backend it lists products; quotes travel and gap-medical cover;
// buys tuition and gap-medical cover (the interface has no travel purchase: a travel
// policy is bound outside it); mints customer secrets for a client-side gap-medical
// checkout; onboards partners and records insured events.
//
// One [Client] holds the base URL and credentials. Each endpoint is one method that
// takes a context, its arguments (a request struct, an email address, a customer
// secret) and options for that call alone; it picks the right auth scheme, retries
// only what is safe to send twice, and returns a typed result or a typed error:
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
// A purchase that failed after it may have reached the service matches
// ErrOutcomeUnknown: test it first, and check before buying again.
//
// Package insurancetest runs a faithful in-process sandbox of the whole interface for
// partners' own tests.
package insurance

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/partnerinsure/insurance-go/internal/pipeline"
)

// Version is the SDK version sent in the User-Agent header.
const Version = "1.0.0"

// Defaults of the retry policy; see WithMaxRetries, WithRetryWait and WithMaxRetryAfter.
const (
	DefaultMaxRetries    = 2
	DefaultRetryWaitMin  = 500 * time.Millisecond
	DefaultRetryWaitMax  = 8 * time.Second
	DefaultMaxRetryAfter = 10 * time.Second
)

// Client calls the insurance interface. Build it with NewClient, NewClientFromEnv or
// With: a zero Client sends nothing, and its methods return an error. A Client is
// safe for concurrent use by many goroutines and reuses connections.
type Client struct {
	baseURL  string
	server   CallInfo // ServerAddress and ServerPort of baseURL, for observers
	settings settings // what it was built from, for With and a call's options
	pipe     *pipeline.Pipeline
	pools    *pipeline.Pools  // shared with the clients derived with With
	budget   *pipeline.Budget // shared too; nil: none
}

// NewClient returns a Client for the interface at baseURL, for example
// "https://api.example.com". It rejects a malformed URL, a scheme other than http or
// https, a URL carrying user info, query or fragment, and http:// to a host other than
// loopback unless WithInsecureHTTP is given.
func NewClient(baseURL string, opts ...Option) (*Client, error) {
	s := defaultSettings()
	if err := s.apply(opts); err != nil {
		return nil, err
	}
	base, err := checkBaseURL(baseURL, s.insecureHTTP)
	if err != nil {
		return nil, err
	}
	pools := pipeline.NewPools(s.httpClient, s.recordIdleTimeout, strings.HasPrefix(base, "https://"))
	return newClient(base, s, pools, s.budget.build()), nil
}

// With returns a Client with c's settings and opts applied over them, which shares c's
// connection pools and retry budget: a platform acting for many partners derives one
// Client per partner from one Client, and they all ride one pool. c is left
// unchanged; With opens no connection and starts no goroutine.
//
// Credentials given to it (WithCredentials, WithClientID) replace c's, as do headers
// of the same name (WithHeader). Observers carry over, and those given to With are
// added to them; the logger carries over unless replaced. WithHTTPClient gives the
// new Client pools of its own, WithRecordIdleTimeout a pool of its own for
// record-creating calls, and WithRetryBudget a budget of its own.
func (c *Client) With(opts ...Option) (*Client, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	s := c.settings
	if err := s.apply(opts); err != nil {
		return nil, err
	}
	pools, budget := c.pools, c.budget
	switch {
	case s.httpClient != c.settings.httpClient:
		pools = pipeline.NewPools(s.httpClient, s.recordIdleTimeout, strings.HasPrefix(c.baseURL, "https://"))
	case s.recordIdleTimeout != c.settings.recordIdleTimeout:
		pools = pools.WithRecordIdle(s.recordIdleTimeout)
	}
	if s.budget != c.settings.budget {
		budget = s.budget.build()
	}
	return newClient(c.baseURL, s, pools, budget), nil
}

// forCall returns the Client a call with opts is made on: c itself when there are
// none, else c with opts applied but for the options a call cannot take. Those are
// the ones that shape the pipeline's transports, which it therefore shares with c:
// a call's options build no transport and call no attempt middleware.
func (c *Client) forCall(opts []Option) (*Client, error) {
	if len(opts) == 0 {
		return c, nil
	}
	s := c.settings
	s.forCall = true
	if err := s.apply(opts); err != nil {
		return nil, err
	}
	s.forCall = false
	call := &Client{baseURL: c.baseURL, server: c.server, settings: s, pools: c.pools, budget: c.budget}
	call.pipe = c.pipe.With(call.config())
	return call, nil
}

// errZeroClient is what a Client that no constructor built returns.
var errZeroClient = errors.New("insurance: the Client was not built with NewClient, NewClientFromEnv or With")

// check refuses a nil or zero Client.
func (c *Client) check() error {
	if c == nil || c.pipe == nil {
		return errZeroClient
	}
	return nil
}

// newClient builds a Client on pools and budget from checked settings.
func newClient(base string, s settings, pools *pipeline.Pools, budget *pipeline.Budget) *Client {
	c := &Client{baseURL: base, server: newServerInfo(base), settings: s, pools: pools, budget: budget}
	c.pipe = pipeline.New(c.config(), pools, budget)
	return c
}

// config is the pipeline's configuration of c's settings.
func (c *Client) config() pipeline.Config {
	s := &c.settings
	userAgent := "insurance-go/" + Version + " go/" + runtime.Version()
	if s.userAgentSuffix != "" {
		userAgent += " " + s.userAgentSuffix
	}
	cfg := pipeline.Config{
		BaseURL:        c.baseURL,
		MaxRetries:     s.maxRetries,
		RetryWaitMin:   s.retryWaitMin,
		RetryWaitMax:   s.retryWaitMax,
		MaxRetryAfter:  s.maxRetryAfter,
		AttemptTimeout: s.attemptBound(),
		Logger:         s.logger,
		UserAgent:      userAgent,
		Middleware:     s.middleware,
		Decode:         decodeAnswer,
	}
	if len(s.observers) > 0 || s.headers != nil {
		cfg.BeforeAttempt = c.beforeAttempt
	}
	return cfg
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

// BaseURL returns the base URL the Client sends to ("" for a zero Client).
func (c *Client) BaseURL() string {
	if c == nil {
		return ""
	}
	return c.baseURL
}

// CloseIdleConnections closes the idle connections of the Client's pools, which
// the clients derived from it (or it from) share.
func (c *Client) CloseIdleConnections() {
	if c.check() == nil {
		c.pools.CloseIdleConnections()
	}
}

// Format prints the Client without its secret, whatever the verb.
func (c *Client) Format(f fmt.State, verb rune) {
	if c == nil {
		fmt.Fprint(f, "insurance.Client(nil)")
		return
	}
	fmt.Fprintf(f, "insurance.Client{BaseURL: %q, Credentials: %v}", c.baseURL, c.settings.credentials)
}
