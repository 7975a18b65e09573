package insurancetest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

// Test values of the sandbox's payment processor.
const (
	CardOK        = "4242424242424242" // any other Luhn-valid card number also succeeds
	CardDeclined  = "4000000000000002" // 402
	TokenOK       = "tok_ok"           // any token starting tok_ succeeds, but:
	TokenDeclined = "tok_declined"     // 402
)

// Server is a sandbox of the interface, listening on 127.0.0.1 or, with InMemory,
// reachable only through Client and HTTPClient, over in-memory connections.
type Server struct {
	URL          string // base URL, e.g. http://127.0.0.1:41234; http://insurancetest.invalid in memory
	ClientID     string // the first partner's client id; AddPartner adds others
	ClientSecret string // the first partner's client secret

	sandbox  *sandbox.Sandbox
	listener *httptest.Server // nil in memory
	memory   *memoryNetwork   // set in memory
	client   *http.Client     // HTTPClient's in memory
}

// Option configures a Server.
type Option struct {
	apply func(*settings)
}

type settings struct {
	sandbox  sandbox.Config
	inMemory bool
}

// WithSecretTTL sets the lifetime of customer secrets (default 15 minutes).
func WithSecretTTL(d time.Duration) Option {
	return Option{func(s *settings) { s.sandbox.SecretTTL = d }}
}

// WithLatency makes every answer of every endpoint wait d. To slow one route only,
// Inject a Fault with a Delay.
func WithLatency(d time.Duration) Option {
	return Option{func(s *settings) { s.sandbox.Latency = d }}
}

// WithAllowedOrigins lets pages served from these web origins (for example
// "http://127.0.0.1:8090") call the endpoints a browser may call: the gap-medical
// quote and purchase and the travel quote. No origin may call the others.
func WithAllowedOrigins(origins ...string) Option {
	return Option{func(s *settings) { s.sandbox.AllowedOrigins = append(s.sandbox.AllowedOrigins, origins...) }}
}

// WithSeed draws every id and secret the sandbox makes from seed instead of at
// random: the partners' credentials, quote and policy ids, customer secrets, the uuids
// of onboarded partners and events, and X-Request-Id. The same calls in the same order
// give the same ids, so a golden file can hold them; each kind of id has a sequence
// of its own, so a retried quote does not shift the policy ids. Timestamps still come
// from the clock.
func WithSeed(seed int64) Option {
	return Option{func(s *settings) { s.sandbox.Seed = &seed }}
}

// InMemory makes a Server that listens on no port. Client and HTTPClient reach it
// over in-memory connections (net.Pipe) to an http.Server that serves the sandbox,
// so a call takes the path it takes over loopback: the SDK's own transport
// (insurance.NewTransport) and its HTTP/1.1 copy for purchases, net/http's HTTP/1.1
// client and server, the same requests with the same headers (Expect: 100-continue
// on purchases, onboarding and events), the same faults (a Drop breaks the
// connection), and the same decisions (a purchase that cannot connect, to a closed
// Server, provably sent nothing) but one. Only the network differs, and with it that
// decision:
//
//   - There is no listener and no socket. URL is http://insurancetest.invalid, the
//     Host the requests carry, reachable only through Client and HTTPClient; Client
//     adds insurance.WithInsecureHTTP for it. Plain HTTP, as over loopback.
//   - No connection is kept alive: each request dials one of its own, closed once its
//     answer is read. Over loopback, connections are reused. So one decision differs:
//     a GET (ListProducts, or Do's) that a Drop breaks on a reused connection, which
//     net/http would send again by itself, the SDK sends again at once over HTTP/1.1,
//     without a wait and whatever WithMaxRetries allows; in memory, where every
//     connection is new, only a retry (after its wait, drawing on the retry budget)
//     sends it again.
//   - A connection buffers nothing: a write returns once the other end has read it.
//
// Nothing in memory waits on the operating system, so it works inside a
// testing/synctest bubble, where retry waits, Delay faults and secret lifetimes pass
// in fake time. A call made in a bubble is served in that bubble, wherever the Server
// was made. A bubble whose test returns while one of its goroutines is still blocked
// panics ("deadlock"); an idle keep-alive connection would be, which is why none is
// kept. Close the bodies of HTTPClient's answers, as always.
func InMemory() Option {
	return Option{func(s *settings) { s.inMemory = true }}
}

// NewServer starts a sandbox with one partner of fresh random credentials (ClientID
// and ClientSecret). Close it when done.
func NewServer(opts ...Option) *Server {
	var set settings
	for _, opt := range opts {
		if opt.apply != nil {
			opt.apply(&set)
		}
	}
	sb := sandbox.New(set.sandbox)
	s := &Server{ClientID: sb.ClientID(), ClientSecret: sb.ClientSecret(), sandbox: sb}
	if set.inMemory {
		s.URL = "http://insurancetest.invalid"
		s.memory = newMemoryNetwork(sb)
		// As httptest.Server.Client's transport over loopback: net/http's defaults.
		s.client = &http.Client{Transport: s.memory.transport(&http.Transport{})}
	} else {
		s.listener = httptest.NewServer(sb)
		s.URL = s.listener.URL
	}
	return s
}

// AddPartner makes one more partner the sandbox accepts and returns its fresh
// credentials. Each partner's quotes, customer secrets and policies are its own (see
// the package doc). Reset does not forget partners.
func (s *Server) AddPartner() (clientID, clientSecret string) { return s.sandbox.AddPartner() }

// Close shuts the sandbox down and blocks until its requests have finished: idle
// connections are closed, a request being served gets its answer, and no new
// connection is accepted (a call then fails to connect). In memory too. The records
// (Requests, Policies...) stay readable.
func (s *Server) Close() {
	if s.listener != nil {
		s.listener.Close()
	} else {
		s.memory.close()
	}
}

// Client returns an *insurance.Client for the sandbox with the first partner's
// credentials and short retry waits (10ms to 100ms); opts are applied after them
// (WithClientID, say, for a client-side client, or WithCredentials for a partner from
// AddPartner). Like httptest, it panics on an invalid option, a mistake in
// the test itself.
func (s *Server) Client(opts ...insurance.Option) *insurance.Client {
	base := []insurance.Option{
		insurance.WithCredentials(s.ClientID, s.ClientSecret),
		insurance.WithRetryWait(10*time.Millisecond, 100*time.Millisecond),
	}
	if s.memory != nil {
		// The transport the SDK makes for itself over loopback, dialing in memory.
		hc := &http.Client{Transport: s.memory.transport(insurance.NewTransport())}
		base = append(base, insurance.WithHTTPClient(hc), insurance.WithInsecureHTTP())
	}
	c, err := insurance.NewClient(s.URL, append(base, opts...)...)
	if err != nil {
		panic(fmt.Sprintf("insurancetest: Server.Client: %v", err))
	}
	return c
}

// HTTPClient returns an *http.Client that reaches the sandbox, for code that calls
// the interface without the SDK: over loopback, or in memory with InMemory, on a
// transport with net/http's defaults either way. In memory, an *insurance.Client of
// your own built on it also
// needs insurance.WithInsecureHTTP, as URL is plain http to a host that is not
// loopback (and never reached); Client does that for you.
func (s *Server) HTTPClient() *http.Client {
	if s.memory != nil {
		return s.client
	}
	return s.listener.Client()
}

// ComponentURL is the address of the sandbox's stand-in for the insurer's
// client-side gap-medical component (see the package doc).
func (s *Server) ComponentURL() string { return s.URL + sandbox.ComponentPath }

// Advance moves the sandbox's clock forward by d: customer secrets expire, and new
// records are stamped, as if d had passed. It panics on a negative d.
func (s *Server) Advance(d time.Duration) { s.sandbox.Advance(d) }

// Now is the time on the sandbox's clock.
func (s *Server) Now() time.Time { return s.sandbox.Now() }

// Reset forgets every record, fault and logged request. The partners, the clock and,
// with WithSeed, the place in each sequence of ids stay.
func (s *Server) Reset() { s.sandbox.Reset() }
