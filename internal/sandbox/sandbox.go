// Package sandbox is an in-process, stateful implementation of the insurance partner
// interface for tests and demos. Package insurancetest is its public face and
// documents every behaviour and test value; examples/sandbox serves it on a port.
//
// It is a second, independent reading of the interface: it decodes requests into its
// own wire types, never the SDK's, so that a mistake in the SDK's JSON cannot be
// mirrored here and pass unseen.
//
// Reading order: sandbox.go (the state), routing.go (the endpoint table and how a
// request is served), auth.go, accounts.go (the partners it accepts), contenttype.go
// (a body is JSON), answers.go (the error body), store.go, ids.go (random or seeded
// ids); then one file per resource: products.go, quotes.go, purchases.go, secrets.go,
// partners.go, events.go, with wire.go for the request bodies they decode. Around them: faults.go
// (injected failures), log.go (the request log and its bounds), mask.go (what it
// masks in a body), records.go (the records tests read),
// and controls.go (the /sandbox/ controls).
package sandbox

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Limits of the sandbox.
const (
	MaxBodyBytes     = 1 << 20 // larger request bodies are refused with 400
	MaxRecords       = 10000   // per kind, and logged requests; the oldest are forgotten first
	DefaultSecretTTL = 15 * time.Minute
)

// Config sets up a Sandbox. Zero fields take defaults.
type Config struct {
	ClientID     string        // the first partner's client id; default: random
	ClientSecret string        // the first partner's client secret; default: random
	SecretTTL    time.Duration // lifetime of customer secrets; default 15 minutes
	Latency      time.Duration // every answer waits this long
	Now          func() time.Time
	// AllowedOrigins are the web origins (e.g. "http://127.0.0.1:8090") whose pages may
	// call the browser endpoints: the two gap-medical ones and the travel quote.
	AllowedOrigins []string
	// Seed, when set, draws every id and secret the sandbox makes (credentials, quote
	// and policy ids, customer secrets, uuids, request ids) from this seed instead of
	// crypto/rand: the same calls in the same order give the same ids.
	Seed *int64
}

// Sandbox is the interface's state and its HTTP handler. Safe for concurrent use.
type Sandbox struct {
	secretTTL time.Duration
	latency   time.Duration
	clock     func() time.Time
	advanced  atomic.Int64 // how far Advance has moved the clock, in nanoseconds
	origins   map[string]bool
	ids       *idSource
	first     account // the partner of Config, also accounts[0]

	mu       sync.Mutex
	accounts []account // the partners the sandbox accepts, the first from Config
	quotes   *store[*Quote]
	policies *store[*Policy]
	secrets  *store[customerSecret]
	partners *store[*partner]
	events   *store[*event]
	log      []*Request
	faults   map[string][]*injected // by route, "METHOD /path", in the order injected
}

// New returns a Sandbox.
func New(cfg Config) *Sandbox {
	s := &Sandbox{
		secretTTL: cfg.SecretTTL,
		latency:   cfg.Latency,
		clock:     cfg.Now,
		origins:   map[string]bool{},
		ids:       newIDSource(cfg.Seed),
	}
	first := s.newAccount()
	if cfg.ClientID != "" {
		first.clientID = cfg.ClientID
	}
	if cfg.ClientSecret != "" {
		first.clientSecret = cfg.ClientSecret
	}
	s.first, s.accounts = first, []account{first}
	if s.secretTTL <= 0 {
		s.secretTTL = DefaultSecretTTL
	}
	if s.clock == nil {
		s.clock = time.Now
	}
	for _, o := range cfg.AllowedOrigins {
		s.origins[strings.TrimSuffix(o, "/")] = true
	}
	s.Reset()
	return s
}

// ClientID is the first partner's client id.
func (s *Sandbox) ClientID() string { return s.first.clientID }

// ClientSecret is the first partner's client secret.
func (s *Sandbox) ClientSecret() string { return s.first.clientSecret }

// Now is the time on the sandbox's clock: the Config's clock moved on by Advance.
func (s *Sandbox) Now() time.Time { return s.clock().Add(time.Duration(s.advanced.Load())) }

// Advance moves the sandbox's clock forward by d: customer secrets expire, and new
// records are stamped, as if d had passed.
func (s *Sandbox) Advance(d time.Duration) {
	if d < 0 {
		panic(fmt.Sprintf("sandbox: Advance(%s): the clock does not go back", d))
	}
	s.advanced.Add(int64(d))
}

// Reset forgets every record, fault and logged request. The partners' credentials,
// the clock and the ids to come stay: with a seed, ids go on from where they were.
func (s *Sandbox) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.quotes = newStore[*Quote](MaxRecords)
	s.policies = newStore[*Policy](MaxRecords)
	s.secrets = newStore[customerSecret](MaxRecords)
	s.partners = newStore[*partner](MaxRecords)
	s.events = newStore[*event](MaxRecords)
	s.log = nil
	s.faults = map[string][]*injected{}
}
