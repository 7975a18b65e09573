package insurance

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/partnerinsure/insurance-go/internal/pipeline"
)

// Option configures a Client, or one call: given to NewClient or With, it applies to
// every call of the Client; given to an endpoint method or Do, to that call alone, as
// if it were made on c.With(opts...). Options check their input: NewClient, With or
// the call returns the first error an option reports, and nothing is sent.
//
// Every option applies to a call but those that shape connections or are shared by
// the calls of a Client (WithHTTPClient, WithInsecureHTTP, WithRecordIdleTimeout,
// WithAttemptMiddleware, WithRetryBudget): given to a call, they fail it.
type Option func(*settings) error

type settings struct {
	credentials       credentials
	headers           extraHeaders // WithHeader's
	httpClient        *http.Client
	maxRetries        int
	retryWaitMin      time.Duration
	retryWaitMax      time.Duration
	maxRetryAfter     time.Duration
	attemptTimeout    *time.Duration // WithAttemptTimeout's; nil: the default
	recordIdleTimeout time.Duration
	budget            *retryBudget // a new one: a budget of its own
	middleware        func(http.RoundTripper) http.RoundTripper
	logger            *slog.Logger
	userAgentSuffix   string
	insecureHTTP      bool
	observers         []Observer
	forCall           bool // the options are a call's: those of the Client alone are refused
}

func defaultSettings() settings {
	return settings{
		maxRetries:        DefaultMaxRetries,
		retryWaitMin:      DefaultRetryWaitMin,
		retryWaitMax:      DefaultRetryWaitMax,
		maxRetryAfter:     DefaultMaxRetryAfter,
		recordIdleTimeout: DefaultRecordIdleTimeout,
		budget:            &retryBudget{DefaultRetryBudget, DefaultRetryCost},
	}
}

// apply applies opts in order; the first error stops it.
func (s *settings) apply(opts []Option) error {
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(s); err != nil {
			return err
		}
	}
	return nil
}

// clientOnly refuses, among a call's options, one that shapes connections or is
// shared by the calls of a Client.
func (s *settings) clientOnly(option string) error {
	if s.forCall {
		return fmt.Errorf("insurance: %s applies to a Client, not to one call: give it to NewClient or With", option)
	}
	return nil
}

// WithCredentials sets the partner's client id and client secret, for partner
// backends: Basic auth, and the client id header where an endpoint takes it.
func WithCredentials(clientID, clientSecret string) Option {
	return func(s *settings) error {
		if clientID == "" || clientSecret == "" {
			return fmt.Errorf("insurance: WithCredentials needs a client id and a client secret: %w", ErrMissingCredentials)
		}
		if strings.Contains(clientID, ":") {
			return errors.New("insurance: WithCredentials: a client id cannot contain ':'")
		}
		s.credentials = newCredentials(clientID, clientSecret)
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
			return fmt.Errorf("insurance: WithClientID needs a client id: %w", ErrMissingCredentials)
		}
		s.credentials = newCredentials(clientID, "")
		return nil
	}
}

// WithHTTPClient sets the *http.Client whose Transport and Timeout the Client uses:
// for httpmock, proxies or a transport of the caller's own. Redirects are never
// followed, whatever its CheckRedirect says: the interface has none, and following one
// could carry credentials to another host. Its Jar is never used: the interface has no
// cookies, and clients derived with With must share nothing through one. Its Timeout,
// when set, bounds each request the SDK hands to net/http in place of
// DefaultAttemptTimeout (WithAttemptTimeout, when given, bounds each attempt too).
//
// Its transport's TLS settings are the caller's: the SDK trusts them as given (a
// TLSClientConfig with InsecureSkipVerify, or roots that trust a proxy's certificate,
// exposes the credentials and every card number to whoever holds that certificate).
//
// An *http.Transport (NewTransport gives the SDK's) keeps every guarantee: it is
// left unmodified, and record-creating calls ride a copy of it (see
// WithRecordIdleTimeout). Any other RoundTripper is opaque to the SDK: it cannot be
// copied and does not report its connections, so record-creating calls share it and
// may ride HTTP/2; net/http's own resends of them are refused (an HTTP/2 stream it
// refused or that went away then ends the call with ErrOutcomeUnknown), no failure
// but a dial error (*net.OpError with Op "dial") proves that nothing was sent, and
// the first burst over https is not held to one connection. Never give it a
// transport that retries by itself: it could send a purchase twice, or report one it
// sent as a dial failure. To trace each attempt, keep the SDK's transport and use
// WithAttemptMiddleware instead.
func WithHTTPClient(hc *http.Client) Option {
	return func(s *settings) error {
		if err := s.clientOnly("WithHTTPClient"); err != nil {
			return err
		}
		if hc == nil {
			return errors.New("insurance: WithHTTPClient needs a non-nil *http.Client")
		}
		s.httpClient = hc
		return nil
	}
}

// WithMaxRetries sets how many times the SDK may send a failed call again (default
// 2). 0 disables the SDK's retries, but a request may still go out twice: net/http
// sends one again by itself when a reused connection failed before any of it was
// written, or an HTTP/2 stream was refused (RequestError.Attempts and
// CallResult.Attempts count both). A record-creating call is never sent again once it
// may have reached the server.
func WithMaxRetries(n int) Option {
	return func(s *settings) error {
		if n < 0 || n > 10 {
			return fmt.Errorf("insurance: WithMaxRetries(%d): want 0 to 10", n)
		}
		s.maxRetries = n
		return nil
	}
}

// WithRetryWait sets the schedule of the waits before retries (defaults 500ms and
// 8s): the wait before retry n is between half of and all of min × 2^(n-1), at most
// max (with the defaults, 250-500ms before the first retry, 500ms-1s before the
// second). A Retry-After replaces it (see WithMaxRetryAfter).
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

// DefaultAttemptTimeout bounds each attempt of a Client whose caller chose no bound:
// no WithAttemptTimeout, and no Timeout on the *http.Client given to WithHTTPClient
// (which then counts as the caller's bound). A call made under context.Background()
// therefore ends even when a server or middlebox holds or trickles its answer: by
// default at most 3 tries (1 + DefaultMaxRetries) of at most 60 s each (a resend made
// at once below an attempt shares its 60 s), plus the
// waits between them (at most DefaultMaxRetryAfter each), 200 s in all.
const DefaultAttemptTimeout = 60 * time.Second

// WithAttemptTimeout bounds each attempt of a call, reading the answer included
// (default DefaultAttemptTimeout); the context bounds the whole call, waits and
// retries included. 0 removes the bound: only the context's is left. An idempotent
// call (products, quotes, customer secret) whose attempt times out is retried like
// one whose connection was reset; a record-creating call (purchases, onboarding,
// events) is not, and its error matches ErrOutcomeUnknown, unless nothing of it
// reached the server: no connection was made, or its body was still held back (see
// WithRecordIdleTimeout), and then it is tried again. A resend made at once below an
// attempt (see RequestError.Attempts) shares its bound.
func WithAttemptTimeout(d time.Duration) Option {
	return func(s *settings) error {
		if d < 0 {
			return fmt.Errorf("insurance: WithAttemptTimeout(%s): want >= 0 (0: no bound)", d)
		}
		s.attemptTimeout = &d
		return nil
	}
}

// attemptBound is the bound on each attempt: the caller's, else DefaultAttemptTimeout
// unless the caller's *http.Client has a Timeout of its own.
func (s *settings) attemptBound() time.Duration {
	switch {
	case s.attemptTimeout != nil:
		return *s.attemptTimeout
	case s.httpClient != nil && s.httpClient.Timeout > 0:
		return 0
	}
	return DefaultAttemptTimeout
}

// DefaultRecordIdleTimeout is the default of WithRecordIdleTimeout.
const DefaultRecordIdleTimeout = time.Second

// WithRecordIdleTimeout sets the longest a connection may have sat idle for a
// record-creating call (purchases, onboarding, events) to reuse it; default 1s.
//
// Record-creating calls ride a pool of their own, a copy of the Client's
// *http.Transport, for two reasons:
//
//   - It speaks HTTP/1.1 only. Over HTTP/2, net/http resends a request whose stream
//     was reset with PROTOCOL_ERROR, which a server or proxy may send after processing
//     it (golang/go#47635), and it does not tell a refused stream from such a reset;
//     over HTTP/1.1 it resends a POST only when nothing of it was written.
//   - Its connections are closed after d idle. Servers and proxies close idle
//     keep-alive connections (nginx after 75s, cloud load balancers after 60s, Apache
//     httpd and Node after 5s); a purchase written to a connection the other end is
//     closing at that moment fails with no answer, and as it may have been processed,
//     the SDK cannot send it again: ErrOutcomeUnknown, for nothing.
//
// Set d below the keep-alive timeout of every server and proxy on the way. 0 keeps
// the transport's own idle bound. With WithHTTPClient, this applies when its
// Transport is an *http.Transport (or nil); any other RoundTripper is used as it is.
//
// A purchase that races a close all the same (a proxy reloading closes every idle
// connection at once, whatever its age) is not lost: it holds its body back until the
// server asks for it (Expect: 100-continue), so a connection closed before that
// provably carried no purchase, and the call is tried again on a new connection.
//
// A negative d (RecordKeepAliveOff) reuses no connection for record-creating calls:
// a TCP (and TLS) handshake per purchase, for servers that keep-alive serves badly.
func WithRecordIdleTimeout(d time.Duration) Option {
	return func(s *settings) error {
		if err := s.clientOnly("WithRecordIdleTimeout"); err != nil {
			return err
		}
		s.recordIdleTimeout = d
		return nil
	}
}

// RecordKeepAliveOff, given to WithRecordIdleTimeout, makes every record-creating call
// dial a connection of its own.
const RecordKeepAliveOff time.Duration = -1

// Defaults of WithRetryBudget.
const (
	DefaultRetryBudget = 500
	DefaultRetryCost   = 5
)

// retryBudget is the setting of WithRetryBudget.
type retryBudget struct{ capacity, cost int }

// build returns the budget, or nil when it is off.
func (b *retryBudget) build() *pipeline.Budget {
	if b.cost == 0 {
		return nil
	}
	return pipeline.NewBudget(b.capacity, b.cost)
}

// WithRetryBudget bounds the retries of the Client, and of every client derived from
// it with With, across all their calls, so that a failing service is not flooded:
// a token bucket that holds capacity tokens and starts full. Each retry takes cost
// tokens, and is refused when fewer are left; a call that succeeds at its first
// request puts one token back, and one that succeeds after retrying puts back the
// cost of one retry. A refused retry ends the call with the last answer, and its
// error says so. The one resend net/http may make of a request below the SDK (a
// stream the server refused or dropped with a graceful GOAWAY) is free, but refused
// too while the bucket is spent.
//
// The default, 500 tokens and 5 a retry, is the AWS SDKs' standard retry quota, and
// works like gRPC's retry throttling and the retry budgets of Envoy and Finagle:
// while at most one call in five fails the bucket stays full, so a blip is always
// retried; in an outage it empties after 100 retries, and then each call sends one
// request until successes refill it (64 goroutines making 20 calls each then send
// about 1.08 requests a call instead of 3). WithRetryBudget(0, 0) turns the budget
// off: every retry the retry table allows is made.
func WithRetryBudget(capacity, cost int) Option {
	return func(s *settings) error {
		if err := s.clientOnly("WithRetryBudget"); err != nil {
			return err
		}
		if cost < 0 || capacity < cost || (cost == 0 && capacity != 0) {
			return fmt.Errorf("insurance: WithRetryBudget(%d, %d): want 0 < cost <= capacity, or (0, 0) for no budget", capacity, cost)
		}
		s.budget = &retryBudget{capacity, cost}
		return nil
	}
}

// WithAttemptMiddleware wraps the Client's transports with wrap, for a caller's
// tracing or metrics of each attempt (otelhttp.NewTransport, say): wrap is called
// once per connection pool when the Client is built (idempotent calls, record-creating
// calls, retries on a connection of their own), and what it returns sees every request
// the Client sends, with the request's context. Given again (to NewClient or With),
// it wraps the middleware given before.
//
// What wrap returns sees each request whole, its Authorization header (the partner's
// Basic credentials, a customer secret) and its body (card numbers) included: never
// log them.
//
// The SDK keeps its own transports and pools beneath it, and with them every
// guarantee that WithHTTPClient's opaque transports give up. The RoundTripper wrap
// returns must pass the request on with its context (headers may be added) and
// return what the transport returned. A request whose context was replaced is refused
// unsent, with an error saying so: without it the SDK could not tell a purchase that
// was sent from one that was not. wrap must not send a request again by itself
// (retrying is the SDK's): a second send of an attempt's request is refused, as the
// first may have been processed. Nor may it read the request's body or call its
// GetBody: the SDK learns from them whether a purchase's body went out and whether
// net/http asks to send a request again (a GET whose GetBody wrap calls fails). An
// Idempotency-Key or X-Idempotency-Key header is removed from requests on the
// HTTP/1.1 pools: with one, net/http would resend a purchase after writing it.
func WithAttemptMiddleware(wrap func(http.RoundTripper) http.RoundTripper) Option {
	return func(s *settings) error {
		if err := s.clientOnly("WithAttemptMiddleware"); err != nil {
			return err
		}
		if wrap == nil {
			return errors.New("insurance: WithAttemptMiddleware needs a non-nil function")
		}
		if inner := s.middleware; inner != nil {
			s.middleware = func(rt http.RoundTripper) http.RoundTripper { return wrap(inner(rt)) }
		} else {
			s.middleware = wrap
		}
		return nil
	}
}

// NewTransport returns a new *http.Transport configured as the SDK's default: the
// usual net/http timeouts, HTTP/2 over TLS, and a pool sized for a Client shared by
// many goroutines (at most 64 connections to one host, all kept idle for reuse). Give
// it to WithHTTPClient (in an *http.Client) to change its TLS settings or proxy and
// keep the rest; record-creating calls then ride an HTTP/1.1 copy of it.
func NewTransport() *http.Transport { return pipeline.NewTransport() }

// WithObserver adds an Observer that sees every call of the Client: once when it
// starts, before each attempt, and once when it ends. Observers run in the order
// given; EndCall in the reverse order. Given to With or to a call, it adds o to the
// Client's observers; to drop observers, build a new Client.
func WithObserver(o Observer) Option {
	return func(s *settings) error {
		if o == nil {
			return errors.New("insurance: WithObserver needs a non-nil Observer")
		}
		s.observers = append(slices.Clip(s.observers), o) // never into a slice another Client holds
		return nil
	}
}

// WithLogger sets the logger. The Client logs one debug line per request with method,
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

// WithUserAgent appends ua to the User-Agent header "insurance-go/<version>
// go/<runtime>". It refuses empty text, control characters and more than 256 bytes.
func WithUserAgent(ua string) Option {
	trimmed := strings.TrimSpace(ua) // once: the option may be applied by many calls at once
	return func(s *settings) error {
		if trimmed == "" || len(trimmed) > 256 || strings.ContainsFunc(trimmed, unicode.IsControl) {
			return fmt.Errorf("insurance: WithUserAgent(%q): want printable text of 1 to 256 bytes", trimmed)
		}
		s.userAgentSuffix = trimmed
		return nil
	}
}

// WithInsecureHTTP allows an http:// base URL to a host other than loopback. Without
// it such a URL is refused, so credentials never travel in clear text by accident.
// With it they do: the Basic header, customer secrets and card numbers cross the
// network readable by anyone on the path, and with HTTP_PROXY set (the default
// transport honours it) they go to that proxy in clear text too.
func WithInsecureHTTP() Option {
	return func(s *settings) error {
		if err := s.clientOnly("WithInsecureHTTP"); err != nil {
			return err
		}
		s.insecureHTTP = true
		return nil
	}
}
