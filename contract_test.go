package insurance_test

// api/openapi.yaml is the referee between the SDK, the sandbox and the interface. This
// file loads it into kin-openapi's validator and checks the SDK against it: every
// request a test inspects (recorder.only), the answers the SDK's tests decode, and a
// one-to-one map between the Client's endpoint methods and the document's operations.
// internal/sandbox/contract_test.go checks the sandbox's answers. kin-openapi is imported by
// _test.go files only: it is no dependency of the SDK.

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/api"
)

// The auth schemes a request can carry, named as insurancetest names them.
const (
	authBasic    = "basic"
	authClientID = "client-id"
	authBearer   = "bearer"
	authNone     = "none"
)

// contract is the loaded document and a router over its operations.
type contract struct {
	doc     *openapi3.T
	router  routers.Router
	options *openapi3filter.Options
}

var loadContract = sync.OnceValues(func() (*contract, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(api.OpenAPI())
	if err != nil {
		return nil, fmt.Errorf("loading api/openapi.yaml: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("api/openapi.yaml is not a valid OpenAPI document: %w", err)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("routing api/openapi.yaml: %w", err)
	}
	return &contract{doc: doc, router: router, options: &openapi3filter.Options{
		AuthenticationFunc:                authenticate,
		IncludeResponseStatus:             true, // a status the document lacks is an error
		RejectWhenRequestBodyNotSpecified: true, // so is a body on GET /v1/products
		// kin-openapi checks "date" and "date-time" by default; these make "email" and
		// "uuid" count too, for this document only.
		SchemaValidationOptions: []openapi3.SchemaValidationOption{
			openapi3.WithStringFormatValidator("email", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForEmail)),
			openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562)),
		},
	}}, nil
})

// theContract returns the document, loaded and validated once per test binary.
func theContract(t testing.TB) *contract {
	t.Helper()
	c, err := loadContract()
	require.NoError(t, err)
	return c
}

// request rebuilds what was sent as an *http.Request, with a fresh body.
func (s sent) request() *http.Request {
	req := httptest.NewRequest(s.Method, s.Path, bytes.NewReader(s.Body))
	req.Header = s.Header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	return req
}

// checkRequest validates one request against the document: its operation (method
// and path), its credentials against the operation's security, and its body. The
// input it returns checks the answer to the request.
func (c *contract) checkRequest(s sent) (*openapi3filter.RequestValidationInput, error) {
	req := s.request()
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		return nil, fmt.Errorf("the document has no operation %s %s: %w", s.Method, s.Path, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: c.options}
	return in, openapi3filter.ValidateRequest(context.Background(), in)
}

// checkResponse validates the answer to a request checkRequest has routed.
func (c *contract) checkResponse(in *openapi3filter.RequestValidationInput, status int, header http.Header, body []byte) error {
	return openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                c.options,
	})
}

// requireAllowed fails the test unless the document allows the request.
func requireAllowed(t testing.TB, s sent) {
	t.Helper()
	_, err := theContract(t).checkRequest(s)
	require.NoError(t, err, "api/openapi.yaml refuses %s %s", s.Method, s.Path)
}

// authenticate is the validator's view of credentials: a security scheme is met when
// the request carries that scheme and no other credential. Secrets are not checked:
// the document cannot know them.
func authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	want := schemeOf(in.SecurityScheme)
	if got := schemeSent(in.RequestValidationInput.Request.Header); got != want {
		return fmt.Errorf("security scheme %q asks for %s credentials; the request carries %s", in.SecuritySchemeName, want, got)
	}
	return nil
}

// schemeOf names what a security scheme of the document asks for.
func schemeOf(s *openapi3.SecurityScheme) string {
	switch {
	case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
		return authBasic
	case s.Type == "http" && strings.EqualFold(s.Scheme, "bearer"):
		return authBearer
	case s.Type == "apiKey" && s.In == "header" && strings.EqualFold(s.Name, insurance.HeaderClientID):
		return authClientID
	}
	return fmt.Sprintf("an unknown scheme (%s %s%s)", s.Type, s.Scheme, s.Name)
}

// schemeSent names the one scheme a request carries: "none", or a description of
// what is wrong when it carries several or a malformed one.
func schemeSent(h http.Header) string {
	authorization, clientID := h.Values("Authorization"), h.Values(insurance.HeaderClientID)
	switch {
	case len(authorization)+len(clientID) > 1:
		return fmt.Sprintf("several (%d Authorization, %d %s headers)", len(authorization), len(clientID), insurance.HeaderClientID)
	case len(clientID) == 1:
		if clientID[0] == "" {
			return "an empty " + insurance.HeaderClientID
		}
		return authClientID
	case len(authorization) == 1:
		scheme, value, _ := strings.Cut(authorization[0], " ")
		switch {
		case strings.EqualFold(scheme, "Basic") && isBasicCredential(value):
			return authBasic
		case strings.EqualFold(scheme, "Bearer") && value != "":
			return authBearer
		}
		return "a malformed Authorization header"
	}
	return authNone
}

// isBasicCredential reports whether v is base64 of "client id:client secret".
func isBasicCredential(v string) bool {
	decoded, err := base64.StdEncoding.DecodeString(v)
	id, secret, ok := strings.Cut(string(decoded), ":")
	return err == nil && ok && id != "" && secret != ""
}

// operation is one operation of the document with the schemes its security allows.
type operation struct {
	id, method, path string
	schemes          []string
}

// operations lists the document's operations.
func (c *contract) operations() []operation {
	var ops []operation
	for path, item := range c.doc.Paths.Map() {
		for method, op := range item.Operations() {
			security := c.doc.Security
			if op.Security != nil {
				security = *op.Security
			}
			var schemes []string
			for _, requirement := range security {
				for name := range requirement {
					schemes = append(schemes, schemeOf(c.doc.Components.SecuritySchemes[name].Value))
				}
			}
			slices.Sort(schemes)
			ops = append(ops, operation{id: op.OperationID, method: method, path: path, schemes: schemes})
		}
	}
	slices.SortFunc(ops, func(a, b operation) int { return strings.Compare(a.path+" "+a.method, b.path+" "+b.method) })
	return ops
}

// operation returns the document's operation at method and path.
func (c *contract) operation(method, path string) (operation, bool) {
	ops := c.operations()
	i := slices.IndexFunc(ops, func(op operation) bool { return op.method == method && op.path == path })
	if i < 0 {
		return operation{}, false
	}
	return ops[i], true
}

// TestDocumentIsTheInterface pins the referee to the interface: its endpoints table
// (method, path, authentication), its errors table and a 401 on every operation, a
// default error answer on every operation, the events error body, and nothing of the
// sandbox's own.
func TestDocumentIsTheInterface(t *testing.T) {
	c := theContract(t)
	assert.Equal(t, "3.1.0", c.doc.OpenAPI)

	type endpoint struct {
		method, path string
		schemes      []string // as the interface's endpoints table says
		errors       []string // statuses of the interface's errors table, and 401: every operation authenticates
	}
	want := []endpoint{
		{"POST", "/v1/auth/customer/secret", []string{authBasic}, []string{"401"}},
		{"POST", "/v1/events", []string{authBasic}, []string{"401"}},
		{"POST", "/v1/partners/onboard", []string{authBasic}, []string{"401"}},
		{"GET", "/v1/products", []string{authBasic}, []string{"401"}},
		{"POST", "/v1/purchase/gap-medical", []string{authBearer}, []string{"401"}},
		{"POST", "/v1/purchase/tuition", []string{authBasic}, []string{"400", "401", "402"}},
		{"POST", "/v1/quote/gap-medical", []string{authClientID}, []string{"401"}},
		{"POST", "/v1/quote/travel", []string{authBasic, authClientID}, []string{"400", "401", "422"}},
	}
	var got []endpoint
	for _, op := range c.operations() {
		responses := c.doc.Paths.Find(op.path).GetOperation(op.method).Responses
		assert.NotNil(t, responses.Default(), "%s %s answers statuses the interface does not list (a 403, a 429, a 5xx): it needs a default response", op.method, op.path)
		var errorStatuses []string
		for status := range responses.Map() {
			if status >= "400" && status < "600" {
				errorStatuses = append(errorStatuses, status)
			}
		}
		slices.Sort(errorStatuses)
		got = append(got, endpoint{op.method, op.path, op.schemes, errorStatuses})
	}
	assert.Equal(t, want, got)

	t.Run("the events error body", func(t *testing.T) {
		events := c.doc.Paths.Find("/v1/events")
		require.True(t, events != nil && events.Post != nil && events.Post.Responses.Default() != nil, "POST /v1/events with a default response")
		media := events.Post.Responses.Default().Value.Content.Get("application/json")
		require.NotNil(t, media, "a JSON error body")
		body := media.Schema.Value
		for field, typ := range map[string]string{"error": "string", "error_code": "string", "message": "string", "reason": "string", "status": "integer"} {
			if assert.Contains(t, body.Properties, field) {
				assert.True(t, body.Properties[field].Value.Type.Is(typ), "%s is a %s", field, typ)
			}
		}
	})
}

// TestWireFixturesFollowTheDocument checks the answers the SDK's wire tests decode:
// each is an answer the document allows for its operation and status, so the SDK is
// tested against bodies the interface can send.
func TestWireFixturesFollowTheDocument(t *testing.T) {
	c := theContract(t)
	for _, ep := range endpoints() {
		t.Run(ep.name, func(t *testing.T) {
			req := sent{Method: ep.method, Path: ep.path, Header: http.Header{}}
			req.Header.Set(ep.authHeader, ep.authValue)
			if ep.request != "" {
				req.Body = []byte(fixture(t, ep.request))
				req.Header.Set("Content-Type", "application/json")
			}
			in, err := c.checkRequest(req)
			require.NoError(t, err)
			header := http.Header{"Content-Type": {"application/json"}}
			assert.NoError(t, c.checkResponse(in, ep.status, header, []byte(fixture(t, ep.response))), ep.response)
		})
	}
}

// TestEveryEndpointMethodIsOneOperation maps the Client's endpoint methods (those
// taking a context first and returning a result and an error, Do aside) to the
// document's operations by calling each one: every method sends to exactly one
// operation, with a scheme that operation's security allows, and every operation is
// reached by exactly one method. A new endpoint cannot be added to one side only.
func TestEveryEndpointMethodIsOneOperation(t *testing.T) {
	c := theContract(t)
	methods := endpointMethods(t)
	require.NotEmpty(t, methods)

	reachedBy := map[string][]string{} // operation id -> SDK methods
	for _, m := range methods {
		t.Run(m.Name, func(t *testing.T) {
			// A partner backend holds the client id and secret: every method sends.
			partner := callEndpoint(t, m, insurance.WithCredentials(testClientID, testClientSecret))
			require.NotNil(t, partner, "%s sent nothing with full credentials", m.Name)
			in, err := c.checkRequest(*partner)
			require.NoError(t, err, "%s sends %s %s", m.Name, partner.Method, partner.Path)
			op, _ := c.operation(in.Route.Method, in.Route.Path)
			reachedBy[op.id] = append(reachedBy[op.id], m.Name)
			assert.Contains(t, op.schemes, schemeSent(partner.Header), "%s's scheme", m.Name)

			// Client-side code holds only the client id: a method sends it exactly
			// where the document allows the x-api-client-id header.
			public := callEndpoint(t, m, insurance.WithClientID(testClientID))
			if public == nil {
				assert.NotContains(t, op.schemes, authClientID,
					"%s refuses a client-id-only Client, but %s %s takes the %s header", m.Name, op.method, op.path, insurance.HeaderClientID)
				return
			}
			_, err = c.checkRequest(*public)
			require.NoError(t, err, "%s with a client id only", m.Name)
			assert.Equal(t, []string{partner.Method, partner.Path}, []string{public.Method, public.Path})
		})
	}

	for _, op := range c.operations() {
		assert.Len(t, reachedBy[op.id], 1, "operation %s (%s %s) must be reached by exactly one Client method, not %v", op.id, op.method, op.path, reachedBy[op.id])
	}
}

// endpointMethods lists the Client's endpoint methods: those that take a context
// first and return (*T, error). Do is the escape hatch for routes the SDK does not
// wrap, not an endpoint.
func endpointMethods(t *testing.T) []reflect.Method {
	t.Helper()
	ctxType, errType := reflect.TypeFor[context.Context](), reflect.TypeFor[error]()
	client := reflect.TypeFor[*insurance.Client]()
	var methods []reflect.Method
	for i := range client.NumMethod() {
		m := client.Method(i)
		f := m.Type // the receiver is its first parameter
		if m.Name == "Do" || f.NumIn() < 2 || f.In(1) != ctxType ||
			f.NumOut() != 2 || f.Out(0).Kind() != reflect.Pointer || f.Out(1) != errType {
			continue
		}
		methods = append(methods, m)
	}
	return methods
}

// sampleArgs are valid arguments for every parameter type an endpoint method takes
// after its context. A string is an email address or a customer secret; this one
// passes as either.
var sampleArgs = map[reflect.Type]func() any{
	reflect.TypeFor[string]():                               func() any { return "ada@example.com" },
	reflect.TypeFor[*insurance.TravelQuoteRequest]():        func() any { return fullTravelQuote() },
	reflect.TypeFor[*insurance.GapMedicalQuoteRequest]():    func() any { return fullGapMedicalQuote() },
	reflect.TypeFor[*insurance.TuitionPurchaseRequest]():    func() any { return fullTuitionPurchase() },
	reflect.TypeFor[*insurance.GapMedicalPurchaseRequest](): func() any { return fullGapMedicalPurchase() },
	reflect.TypeFor[*insurance.OnboardPartnerRequest]():     func() any { return fullOnboardPartner() },
	reflect.TypeFor[*insurance.CreateEventRequest]():        func() any { return fullCreateEvent() },
}

// callEndpoint calls m on a Client built with creds, once, and returns what it sent,
// or nil when it refused locally for lack of credentials.
func callEndpoint(t *testing.T, m reflect.Method, creds insurance.Option) *sent {
	t.Helper()
	mt := httpmock.NewMockTransport()
	var rec recorder
	mt.RegisterNoResponder(rec.respond(http.StatusCreated, `{"secret": "cus_sec_sample", "quote_id": "q_sample"}`))
	client, err := insurance.NewClient(testBaseURL, creds, insurance.WithMaxRetries(0), insurance.WithHTTPClient(&http.Client{Transport: mt}))
	require.NoError(t, err)

	args := []reflect.Value{reflect.ValueOf(client), reflect.ValueOf(context.Background())}
	for i := 2; i < m.Type.NumIn(); i++ {
		sample, ok := sampleArgs[m.Type.In(i)]
		require.True(t, ok, "%s takes a %s: add a sample of it to sampleArgs, and its operation to api/openapi.yaml", m.Name, m.Type.In(i))
		args = append(args, reflect.ValueOf(sample()))
	}
	out := m.Func.Call(args)
	err, _ = out[1].Interface().(error)
	if errors.Is(err, insurance.ErrMissingCredentials) {
		assert.Zero(t, rec.count(), "%s refused locally yet sent", m.Name)
		return nil
	}
	require.NoError(t, err, m.Name)
	require.Equal(t, 1, rec.count(), "%s must send exactly one request", m.Name)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return &rec.requests[0]
}
