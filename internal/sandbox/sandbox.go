// Package sandbox is an in-process, stateful implementation of the insurance partner
// interface for tests and demos. Package insurancetest is its public face and
// documents every behaviour and test value; examples/sandbox serves it on a port.
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
	"time"

	"github.com/partnerinsure/insurance-go"
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
	MaxRecords       = 10000   // per kind; the oldest records are forgotten first
	DefaultSecretTTL = 15 * time.Minute
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
	now          func() time.Time
	origins      map[string]bool
	handler      http.Handler

	mu       sync.Mutex
	quotes   *store[*quote]
	policies *store[*policy]
	secrets  *store[customerSecret]
	partners *store[map[string]any]
	events   *store[insurance.Event]
}

// New returns a Sandbox.
func New(cfg Config) *Sandbox {
	s := &Sandbox{
		clientID:     cfg.ClientID,
		clientSecret: cfg.ClientSecret,
		secretTTL:    cfg.SecretTTL,
		latency:      cfg.Latency,
		now:          cfg.Now,
		origins:      map[string]bool{},
		quotes:       newStore[*quote](MaxRecords),
		policies:     newStore[*policy](MaxRecords),
		secrets:      newStore[customerSecret](MaxRecords),
		partners:     newStore[map[string]any](MaxRecords),
		events:       newStore[insurance.Event](MaxRecords),
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
	if s.now == nil {
		s.now = time.Now
	}
	for _, o := range cfg.AllowedOrigins {
		s.origins[strings.TrimSuffix(o, "/")] = true
	}
	s.handler = s.routes()
	return s
}

// ClientID is the partner client id the sandbox accepts.
func (s *Sandbox) ClientID() string { return s.clientID }

// ClientSecret is the partner client secret the sandbox accepts.
func (s *Sandbox) ClientSecret() string { return s.clientSecret }

// ServeHTTP answers one request of the interface.
func (s *Sandbox) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// auth is the scheme an endpoint accepts.
type auth int

const (
	authBasic auth = iota
	authClientID
	authBasicOrClientID
	authBearer
)

// endpoint is one route of the interface. handle returns the status and body to send,
// or an *apiError.
type endpoint struct {
	method string
	auth   auth
	handle func(s *Sandbox, r *http.Request, bearerEmail string) (int, any, error)
	// corsHeaders, when set, lets pages on an allowed origin call the endpoint with
	// these request headers. Basic-auth endpoints have none: no page may call them.
	corsHeaders string
}

// Request headers a page may send to the browser endpoints.
const (
	corsClientID = "Accept, Content-Type, x-api-client-id"
	corsBearer   = "Accept, Content-Type, Authorization"
)

// ComponentPath serves the sandbox stand-in for the client-side gap-medical component.
const ComponentPath = "/sandbox/gap-medical.js"

func (s *Sandbox) routes() http.Handler {
	table := map[string]endpoint{
		"/v1/products":             {http.MethodGet, authBasic, (*Sandbox).listProducts, ""},
		"/v1/quote/travel":         {http.MethodPost, authBasicOrClientID, (*Sandbox).quoteTravel, corsClientID},
		"/v1/quote/gap-medical":    {http.MethodPost, authClientID, (*Sandbox).quoteGapMedical, corsClientID},
		"/v1/purchase/tuition":     {http.MethodPost, authBasic, (*Sandbox).purchaseTuition, ""},
		"/v1/purchase/gap-medical": {http.MethodPost, authBearer, (*Sandbox).purchaseGapMedical, corsBearer},
		"/v1/auth/customer/secret": {http.MethodPost, authBasic, (*Sandbox).createCustomerSecret, ""},
		"/v1/partners/onboard":     {http.MethodPost, authBasic, (*Sandbox).onboardPartner, ""},
		"/v1/events":               {http.MethodPost, authBasic, (*Sandbox).createEvent, ""},
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				writeError(w, &apiError{status: http.StatusInternalServerError, code: "internal", message: fmt.Sprint("sandbox bug: ", p)})
			}
		}()
		w.Header().Set("X-Request-Id", "req_"+randomHex(8))
		if s.latency > 0 {
			select {
			case <-time.After(s.latency):
			case <-r.Context().Done():
				return
			}
		}
		if r.URL.Path == ComponentPath && r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			_, _ = w.Write(componentJS)
			return
		}
		ep, ok := table[r.URL.Path]
		if ok && s.cors(w, r, ep) {
			return // a preflight, answered
		}
		switch {
		case !ok:
			writeError(w, &apiError{status: http.StatusNotFound, code: "not_found", message: "no endpoint " + r.URL.Path})
			return
		case r.Method != ep.method:
			w.Header().Set("Allow", ep.method)
			writeError(w, &apiError{status: http.StatusMethodNotAllowed, code: "method_not_allowed", message: r.URL.Path + " takes " + ep.method})
			return
		}
		email, err := s.authenticate(r, ep.auth)
		if err == nil {
			r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
			var status int
			var body any
			if status, body, err = ep.handle(s, r, email); err == nil {
				writeJSON(w, status, body)
				return
			}
		}
		writeError(w, err)
	})
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
	basicOK := func() bool {
		id, secret, ok := r.BasicAuth()
		return ok && equal(id, s.clientID) && equal(secret, s.clientSecret)
	}
	switch a {
	case authBasic:
		if basicOK() {
			return "", nil
		}
		return "", unauthorized("this endpoint takes Basic auth with the partner client id and secret")
	case authClientID:
		if authorization == "" && equal(clientID, s.clientID) {
			return "", nil
		}
		return "", unauthorized("this endpoint takes only the x-api-client-id header with a known client id")
	case authBasicOrClientID:
		if (authorization != "" && basicOK()) || (authorization == "" && equal(clientID, s.clientID)) {
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
		if !s.now().Before(secret.expires) {
			return "", &apiError{status: http.StatusUnauthorized, code: "secret_expired", message: "the customer client secret has expired: create a new one"}
		}
		return secret.email, nil
	}
	return "", unauthorized("unknown auth scheme")
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

// decode reads a JSON request body into v with messages a developer can act on.
func decode(r *http.Request, v any) error {
	dec := json.NewDecoder(r.Body)
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("trailing data after the JSON object")
	}
	var maxErr *http.MaxBytesError
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &maxErr):
		return badRequest("body_too_large", "request body exceeds %d bytes", maxErr.Limit)
	case errors.As(err, &typeErr):
		return badRequest("invalid_type", "parameter %s must be a %s, not %s", typeErr.Field, jsonType(typeErr.Type.Kind().String()), typeErr.Value)
	case errors.As(err, &syntaxErr):
		return badRequest("invalid_json", "malformed JSON at byte %d: %v", syntaxErr.Offset, syntaxErr)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("invalid_json", "request body is empty or cut short")
	}
	return badRequest("invalid_json", "invalid request body: %v", err)
}

func jsonType(kind string) string {
	switch kind {
	case "string":
		return "string"
	case "float64", "int", "int64":
		return "number"
	case "bool":
		return "boolean"
	case "slice":
		return "array"
	}
	return "object"
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// store is a map that forgets its oldest entries beyond a cap, so a long-running
// sandbox does not grow without bound. The caller holds the Sandbox's lock.
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

func (s *store[T]) len() int { return len(s.items) }
