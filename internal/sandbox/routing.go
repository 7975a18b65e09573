package sandbox

import (
	_ "embed"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"time"

	"github.com/partnerinsure/insurance-go/api"
)

//go:embed static/gap-medical.js
var componentJS []byte

// Paths the sandbox serves beside the interface.
const (
	// ComponentPath serves the stand-in for the client-side gap-medical component.
	ComponentPath = "/sandbox/gap-medical.js"
	// OpenAPIPath serves api/openapi.yaml, the description of the interface.
	OpenAPIPath = "/sandbox/openapi.yaml"
	// SandboxDocumentPath serves api/sandbox.yaml, the description of the controls.
	SandboxDocumentPath = "/sandbox/sandbox.yaml"
)

// endpoint is one route of the interface. handle returns the status and body to send,
// or an *apiError.
type endpoint struct {
	method, path string
	auth         auth
	handle       func(s *Sandbox, body []byte, c caller) (int, any, error)
	// corsHeaders, when set, lets pages on an allowed origin call the endpoint with
	// these request headers. Basic-auth endpoints have none: no page may call them.
	corsHeaders string
	// body is the wire type of the request body (nil: none). A field it does not
	// name is refused with a 400 naming it, unless open: the interface leaves the
	// body's other fields "not shown", so they are accepted with a warning.
	body reflect.Type
	open bool
}

// Request headers a page may send to the browser endpoints.
const (
	corsClientID = "Accept, Content-Type, x-api-client-id"
	corsBearer   = "Accept, Content-Type, Authorization"
)

// endpoints is the interface's endpoint table, in the order of api/openapi.yaml.
var endpoints = []endpoint{
	{http.MethodGet, "/v1/products", authBasic, (*Sandbox).listProducts, "", nil, false},
	{http.MethodPost, "/v1/quote/gap-medical", authClientID, (*Sandbox).quoteGapMedical, corsClientID, reflect.TypeFor[gapMedicalQuoteRequest](), true},
	{http.MethodPost, "/v1/quote/travel", authBasicOrClientID, (*Sandbox).quoteTravel, corsClientID, reflect.TypeFor[travelQuoteRequest](), false},
	{http.MethodPost, "/v1/purchase/gap-medical", authBearer, (*Sandbox).purchaseGapMedical, corsBearer, reflect.TypeFor[gapMedicalPurchaseRequest](), true},
	{http.MethodPost, "/v1/purchase/tuition", authBasic, (*Sandbox).purchaseTuition, "", reflect.TypeFor[tuitionPurchaseRequest](), false},
	{http.MethodPost, "/v1/auth/customer/secret", authBasic, (*Sandbox).createCustomerSecret, "", reflect.TypeFor[customerSecretRequest](), false},
	{http.MethodPost, "/v1/partners/onboard", authBasic, (*Sandbox).onboardPartner, "", reflect.TypeFor[onboardRequest](), false},
	{http.MethodPost, "/v1/events", authBasic, (*Sandbox).createEvent, "", reflect.TypeFor[eventRequest](), false},
}

func endpointAt(path string) (endpoint, bool) {
	for _, ep := range endpoints {
		if ep.path == path {
			return ep, true
		}
	}
	return endpoint{}, false
}

// Route is one endpoint of the interface as the sandbox serves it.
type Route struct {
	Method, Path string
	Auth         string // the scheme it takes, for people: "Basic (client id and client secret)", ...
}

// Routes lists the interface's endpoints with the auth scheme each takes.
func Routes() []Route {
	routes := make([]Route, len(endpoints))
	for i, ep := range endpoints {
		routes[i] = Route{Method: ep.method, Path: ep.path, Auth: authNames[ep.auth]}
	}
	return routes
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
	w.Header().Set("X-Request-Id", "req_"+s.ids.hex(idRequest, 8))
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
		_, _ = w.Write(api.OpenAPI())
	case r.URL.Path == SandboxDocumentPath && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "application/yaml")
		_, _ = w.Write(api.Sandbox())
	case strings.HasPrefix(r.URL.Path, "/sandbox/"):
		s.serveControl(w, r)
	default:
		s.serveInterface(w, r)
	}
}

// serveInterface answers a request of the interface: logs it, applies the fault
// injected for its route, if any, and handles it.
//
// Who may send the request is decided before its body is read: the body of a request
// to no endpoint, by the wrong method, or without the endpoint's valid credentials is
// not read (net/http discards a little of it, or closes the connection after the
// answer), so it costs the sandbox no memory, and the log keeps no body for it. A body
// that is read is read up to MaxBodyBytes.
func (s *Sandbox) serveInterface(w http.ResponseWriter, r *http.Request) {
	ep, known := endpointAt(r.URL.Path)
	if known && s.cors(w, r, ep) {
		return // a preflight, answered
	}
	c, refused := s.admit(r, ep, known)
	var body []byte
	if refused == nil {
		body, refused = readRequestBody(r)
	}
	entry := s.record(r, body)
	w = &answerRecorder{ResponseWriter: w, sandbox: s, entry: entry}

	fault := s.claimFault(r.Method + " " + r.URL.Path)
	if fault != nil && !fault.Process && s.applyFault(w, r, fault) {
		return
	}
	status, answer, warning, err := s.handle(r, ep, c, body, refused)
	if warning != "" {
		w.Header().Set(WarningHeader, warning)
		s.mu.Lock()
		entry.Warning = warning
		s.mu.Unlock()
	}
	if fault != nil && fault.Process && s.applyFault(w, r, fault) {
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, status, answer)
}

// admit decides whether the request is one the sandbox reads: to an endpoint of the
// interface, by its method, with the credentials it takes. It returns who called, or
// the error to answer: route, then method, then auth.
func (s *Sandbox) admit(r *http.Request, ep endpoint, known bool) (caller, error) {
	switch {
	case !known:
		return caller{}, &apiError{status: http.StatusNotFound, code: "not_found", message: "no endpoint " + r.URL.Path}
	case r.Method != ep.method:
		return caller{}, &apiError{status: http.StatusMethodNotAllowed, code: "method_not_allowed", message: r.URL.Path + " takes " + ep.method}
	}
	return s.authenticate(r, ep.auth)
}

// handle runs the endpoint for a request admit let in and whose body could be read
// (else refused is the error to answer): its body (its Content-Type, then its
// fields), then its handler. warning names the fields of an open body the sandbox
// accepted without reading them.
func (s *Sandbox) handle(r *http.Request, ep endpoint, c caller, body []byte, refused error) (status int, answer any, warning string, err error) {
	if refused != nil {
		return 0, nil, "", refused
	}
	if ep.body != nil {
		if err := checkContentType(r, body); err != nil {
			return 0, nil, "", err
		}
	}
	if body, warning, err = checkFields(ep, body); err != nil {
		return 0, nil, "", err
	}
	status, answer, err = ep.handle(s, body, c)
	return status, answer, warning, err
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
	w.Header().Set("Access-Control-Expose-Headers", "X-Request-Id, "+WarningHeader)
	if !preflight {
		return false
	}
	w.Header().Set("Access-Control-Allow-Methods", ep.method)
	w.Header().Set("Access-Control-Allow-Headers", ep.corsHeaders)
	w.Header().Set("Access-Control-Max-Age", "600")
	w.WriteHeader(http.StatusNoContent)
	return true
}
