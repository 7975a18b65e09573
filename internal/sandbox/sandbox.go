// Package sandbox is an in-process, stateful implementation of the insurance partner
// interface for tests and demos. Package insurancetest is its public face and
// documents every behaviour and test value; examples/sandbox serves it on a port.
//
// It is a second, independent reading of the interface: it decodes requests into its
// own wire types, never the SDK's, so that a mistake in the SDK's JSON cannot be
// mirrored here and pass unseen.
package sandbox

import (
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/partnerinsure/insurance-go/api"
)

//go:embed static/gap-medical.js
var componentJS []byte

// Test values of the sandbox's payment processor.
const (
	CardOK        = "4242424242424242"
	CardDeclined  = "4000000000000002"
	TokenOK       = "tok_ok"
	TokenDeclined = "tok_declined"
)

// Limits of the sandbox.
const (
	MaxBodyBytes     = 1 << 20 // larger request bodies are refused with 400
	MaxRecords       = 10000   // per kind, and logged requests; the oldest are forgotten first
	DefaultSecretTTL = 15 * time.Minute
)

// Paths the sandbox serves beside the interface.
const (
	// ComponentPath serves the stand-in for the client-side gap-medical component.
	ComponentPath = "/sandbox/gap-medical.js"
	// OpenAPIPath serves api/openapi.yaml, the description of the interface.
	OpenAPIPath = "/sandbox/openapi.yaml"
)

// Config sets up a Sandbox. Zero fields take defaults.
type Config struct {
	ClientID     string        // default: random
	ClientSecret string        // default: random
	SecretTTL    time.Duration // lifetime of customer secrets; default 15 minutes
	Latency      time.Duration // every answer waits this long
	Now          func() time.Time
	// AllowedOrigins are the web origins (e.g. "http://127.0.0.1:8090") whose pages may
	// call the browser endpoints: the two gap-medical ones and the travel quote.
	AllowedOrigins []string
}

// Sandbox is the interface's state and its HTTP handler. Safe for concurrent use.
type Sandbox struct {
	clientID     string
	clientSecret string
	secretTTL    time.Duration
	latency      time.Duration
	clock        func() time.Time
	advanced     atomic.Int64 // how far Advance has moved the clock, in nanoseconds
	origins      map[string]bool

	mu       sync.Mutex
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
		clientID:     cfg.ClientID,
		clientSecret: cfg.ClientSecret,
		secretTTL:    cfg.SecretTTL,
		latency:      cfg.Latency,
		clock:        cfg.Now,
		origins:      map[string]bool{},
	}
	if s.clientID == "" {
		s.clientID = "ci_sandbox_" + randomHex(8)
	}
	if s.clientSecret == "" {
		s.clientSecret = "cs_sandbox_" + randomHex(16)
	}
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

// ClientID is the partner client id the sandbox accepts.
func (s *Sandbox) ClientID() string { return s.clientID }

// ClientSecret is the partner client secret the sandbox accepts.
func (s *Sandbox) ClientSecret() string { return s.clientSecret }

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

// Reset forgets every record, fault and logged request. The credentials and the
// clock stay.
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

// ServeHTTP answers one request: of the interface, or of the sandbox's own controls
// under /sandbox/.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p) // a Drop fault: the server closes the connection
			}
			writeError(w, &apiError{status: http.StatusInternalServerError, code: "internal", message: fmt.Sprint("sandbox bug: ", p)})
		}
	}()
	w.Header().Set("X-Request-Id", "req_"+randomHex(8))
	if s.latency > 0 && !wait(r, s.latency) {
		return
	}
	switch {
	case r.URL.Path == ComponentPath && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(componentJS)
	case r.URL.Path == OpenAPIPath && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "application/yaml")
		_, _ = w.Write(api.OpenAPI)
	case strings.HasPrefix(r.URL.Path, "/sandbox/"):
		s.serveControl(w, r)
	default:
		s.serveInterface(w, r)
	}
}

// serveInterface answers a request of the interface: logs it, applies the fault
// injected for its route, if any, and handles it.
func (s *Sandbox) serveInterface(w http.ResponseWriter, r *http.Request) {
	ep, known := endpointAt(r.URL.Path)
	if known && s.cors(w, r, ep) {
		return // a preflight, answered
	}
	body, readErr := readRequestBody(r)
	entry := s.record(r, body)
	w = &answerRecorder{ResponseWriter: w, sandbox: s, entry: entry}

	fault := s.claimFault(r.Method + " " + r.URL.Path)
	if fault != nil && !fault.Process && s.applyFault(w, r, fault) {
		return
	}
	status, answer, err := s.handle(r, ep, known, body, readErr)
	if fault != nil && fault.Process && s.applyFault(w, r, fault) {
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, status, answer)
}

// handle runs the endpoint: route, method, auth, body, then its handler.
func (s *Sandbox) handle(r *http.Request, ep endpoint, known bool, body []byte, readErr error) (int, any, error) {
	switch {
	case !known:
		return 0, nil, &apiError{status: http.StatusNotFound, code: "not_found", message: "no endpoint " + r.URL.Path}
	case r.Method != ep.method:
		return 0, nil, &apiError{status: http.StatusMethodNotAllowed, code: "method_not_allowed", message: r.URL.Path + " takes " + ep.method}
	}
	email, err := s.authenticate(r, ep.auth)
	if err != nil {
		return 0, nil, err
	}
	if readErr != nil {
		return 0, nil, readErr
	}
	return ep.handle(s, body, email)
}

// readRequestBody reads the body, up to MaxBodyBytes.
func readRequestBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
	switch {
	case err != nil:
		return body, badRequest("invalid_body", "the request body could not be read: %v", err)
	case len(body) > MaxBodyBytes:
		return body[:MaxBodyBytes], badRequest("body_too_large", "request body exceeds %d bytes", MaxBodyBytes)
	}
	return body, nil
}

// wait waits d, or until the caller goes away (false).
func wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

// cors sets the CORS headers for a page on an allowed origin calling a browser
// endpoint, and answers its preflight (returning true). Anything else gets no CORS
// headers, so browsers keep other origins, and every page off the Basic endpoints.
func (s *Sandbox) cors(w http.ResponseWriter, r *http.Request, ep endpoint) bool {
	origin := r.Header.Get("Origin")
	preflight := r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != ""
	if origin == "" || ep.corsHeaders == "" || !s.origins[origin] {
		if preflight {
			writeError(w, &apiError{status: http.StatusForbidden, code: "cors_refused", message: "origin " + origin + " may not call " + r.URL.Path})
			return true
		}
		return false
	}
	w.Header().Add("Vary", "Origin")
	w.Header().Set("Access-Control-Allow-Origin", origin)
	w.Header().Set("Access-Control-Expose-Headers", "X-Request-Id")
	if !preflight {
		return false
	}
	w.Header().Set("Access-Control-Allow-Methods", ep.method)
	w.Header().Set("Access-Control-Allow-Headers", ep.corsHeaders)
	w.Header().Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
	return true
}

// authenticate checks the one scheme the endpoint accepts. For the Bearer scheme it
// returns the email address the customer secret was minted for.
func (s *Sandbox) authenticate(r *http.Request, a auth) (string, error) {
	authorization := r.Header.Get("Authorization")
	clientID := r.Header.Get("X-Api-Client-Id")
	switch a {
	case authBasic:
		if s.basicOK(r) {
			return "", nil
		}
		return "", unauthorized("this endpoint takes Basic auth with the partner client id and secret")
	case authClientID:
		if authorization == "" && equal(clientID, s.clientID) {
			return "", nil
		}
		return "", unauthorized("this endpoint takes only the x-api-client-id header with a known client id")
	case authBasicOrClientID:
		if (authorization != "" && s.basicOK(r)) || (authorization == "" && equal(clientID, s.clientID)) {
			return "", nil
		}
		return "", unauthorized("send Basic auth or the x-api-client-id header")
	case authBearer:
		token, ok := strings.CutPrefix(authorization, "Bearer ")
		if !ok || clientID != "" {
			return "", unauthorized("this endpoint takes only a Bearer customer client secret")
		}
		s.mu.Lock()
		secret, known := s.secrets.get(token)
		s.mu.Unlock()
		if !known {
			return "", unauthorized("unknown customer client secret")
		}
		if !s.Now().Before(secret.expires) {
			return "", &apiError{status: http.StatusUnauthorized, code: "secret_expired", reason: "authentication", message: "the customer client secret has expired: create a new one"}
		}
		return secret.email, nil
	}
	return "", unauthorized("unknown auth scheme")
}

func (s *Sandbox) basicOK(r *http.Request) bool {
	id, secret, ok := r.BasicAuth()
	return ok && equal(id, s.clientID) && equal(secret, s.clientSecret)
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// apiError is an error answer, sent as the events error body on every endpoint:
// {"error", "error_code", "message", "reason", "status"}.
type apiError struct {
	status  int
	code    string
	message string
	reason  string
}

// Error returns the message.
func (e *apiError) Error() string { return e.message }

func unauthorized(message string) *apiError {
	return &apiError{status: http.StatusUnauthorized, code: "unauthorized", message: message, reason: "authentication"}
}

// badRequest names the parameter at fault in its message.
func badRequest(code, format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, code: code, message: fmt.Sprintf(format, args...), reason: "invalid_request"}
}

func missing(param string) *apiError {
	return badRequest("parameter_missing", "missing required parameter: %s", param)
}

func writeError(w http.ResponseWriter, err error) {
	var e *apiError
	if !errors.As(err, &e) {
		e = &apiError{status: http.StatusInternalServerError, code: "internal", message: err.Error()}
	}
	reason := e.reason
	if reason == "" {
		reason = strings.ToLower(strings.ReplaceAll(http.StatusText(e.status), " ", "_"))
	}
	writeJSON(w, e.status, map[string]any{
		"error":      http.StatusText(e.status),
		"error_code": e.code,
		"message":    e.message,
		"reason":     reason,
		"status":     e.status,
	})
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	b, err := json.Marshal(body)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"Internal Server Error","error_code":"internal","message":"sandbox bug: unencodable answer","reason":"internal","status":500}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// store is a map that forgets its oldest entries beyond a cap, so a long-running
// sandbox does not grow without bound; it keeps the order of insertion. The caller
// holds the Sandbox's lock.
type store[T any] struct {
	max   int
	items map[string]T
	order []string
}

func newStore[T any](max int) *store[T] {
	return &store[T]{max: max, items: map[string]T{}}
}

func (s *store[T]) get(id string) (T, bool) {
	v, ok := s.items[id]
	return v, ok
}

func (s *store[T]) put(id string, v T) {
	if _, exists := s.items[id]; !exists {
		s.order = append(s.order, id)
	}
	s.items[id] = v
	for len(s.items) > s.max {
		delete(s.items, s.order[0])
		s.order = s.order[1:]
	}
}

// all returns the items, oldest first.
func (s *store[T]) all() []T {
	out := make([]T, 0, len(s.order))
	for _, id := range s.order {
		out = append(out, s.items[id])
	}
	return out
}
