// Package contracttest is for the contract module's tests only: it loads the OpenAPI
// documents in api/ into kin-openapi's validator and checks requests and answers against
// them, for the SDK's tests (contract/sdk_test.go) and the sandbox's
// (contract/sandbox/) alike.
//
// It lives in the module contract/, not in the SDK's: kin-openapi and its graph stay
// out of the SDK's go.mod, so out of every partner's go.sum (scripts/partner-gosum.sh
// checks it).
package contracttest

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/api"
)

// The auth schemes a request can carry, named as insurancetest names them.
const (
	Basic    = "basic"
	ClientID = "client-id"
	Bearer   = "bearer"
	None     = "none"
)

// HeaderClientID is the header of the client-id scheme, as the interface spells it.
const HeaderClientID = "X-Api-Client-Id"

// Sent is a request as a test sent it or saw it sent.
type Sent struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// Request rebuilds what was sent as an *http.Request, with a fresh body.
func (s Sent) Request() *http.Request {
	req := httptest.NewRequest(s.Method, s.Path, bytes.NewReader(s.Body))
	req.Header = s.Header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	return req
}

// Contract is a loaded document and a router over its operations.
type Contract struct {
	Name    string      // the document's path in the repository
	Doc     *openapi3.T // the document itself
	router  routers.Router
	options *openapi3filter.Options
}

// Load loads and validates the document name (a path in the repository) from data.
func Load(name string, data []byte) (*Contract, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", name, err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("%s is not a valid OpenAPI document: %w", name, err)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("routing %s: %w", name, err)
	}
	return &Contract{Name: name, Doc: doc, router: router, options: &openapi3filter.Options{
		AuthenticationFunc:                authenticate,
		IncludeResponseStatus:             true, // a status the document lacks is an error
		RejectWhenRequestBodyNotSpecified: true, // so is a body on GET /v1/products
		// kin-openapi checks "date" and "date-time" by default; these make "email" and
		// "uuid" count too, for these documents only.
		SchemaValidationOptions: []openapi3.SchemaValidationOption{
			openapi3.WithStringFormatValidator("email", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForEmail)),
			openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562)),
		},
	}}, nil
}

var (
	loadInterface = sync.OnceValues(func() (*Contract, error) { return Load("api/openapi.yaml", api.OpenAPI()) })
	loadControls  = sync.OnceValues(func() (*Contract, error) { return Load("api/sandbox.yaml", api.Sandbox()) })
)

// Interface returns api/openapi.yaml, loaded and validated once per test binary; it
// fails the test when the document does not load.
func Interface(t testing.TB) *Contract {
	t.Helper()
	return mustLoad(t, loadInterface)
}

// Controls returns api/sandbox.yaml, the sandbox's controls, loaded and validated once
// per test binary; it fails the test when the document does not load.
func Controls(t testing.TB) *Contract {
	t.Helper()
	return mustLoad(t, loadControls)
}

// RequireAllowed fails the test unless api/openapi.yaml allows the request.
func RequireAllowed(t testing.TB, s Sent) {
	t.Helper()
	_, err := Interface(t).CheckRequest(s)
	require.NoError(t, err, "api/openapi.yaml refuses %s %s", s.Method, s.Path)
}

func mustLoad(t testing.TB, load func() (*Contract, error)) *Contract {
	t.Helper()
	c, err := load()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// CheckRequest validates one request against the document: its operation (method
// and path), its credentials against the operation's security, and its body. The
// input it returns checks the answer to the request; it is nil only when the
// document has no operation for the request.
func (c *Contract) CheckRequest(s Sent) (*openapi3filter.RequestValidationInput, error) {
	req := s.Request()
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		return nil, fmt.Errorf("%s has no operation %s %s: %w", c.Name, s.Method, s.Path, err)
	}
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: c.options}
	return in, openapi3filter.ValidateRequest(context.Background(), in)
}

// CheckResponse validates the answer to a request CheckRequest has routed.
func (c *Contract) CheckResponse(in *openapi3filter.RequestValidationInput, status int, header http.Header, body []byte) error {
	return openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                c.options,
	})
}

// authenticate is the validator's view of credentials: a security scheme is met when
// the request carries that scheme and no other credential. Secrets are not checked:
// the document cannot know them.
func authenticate(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	want := schemeOf(in.SecurityScheme)
	if got := SchemeSent(in.RequestValidationInput.Request.Header); got != want {
		return fmt.Errorf("security scheme %q asks for %s credentials; the request carries %s", in.SecuritySchemeName, want, got)
	}
	return nil
}

// schemeOf names what a security scheme of the document asks for.
func schemeOf(s *openapi3.SecurityScheme) string {
	switch {
	case s.Type == "http" && strings.EqualFold(s.Scheme, "basic"):
		return Basic
	case s.Type == "http" && strings.EqualFold(s.Scheme, "bearer"):
		return Bearer
	case s.Type == "apiKey" && s.In == "header" && strings.EqualFold(s.Name, HeaderClientID):
		return ClientID
	}
	return fmt.Sprintf("an unknown scheme (%s %s%s)", s.Type, s.Scheme, s.Name)
}

// SchemeSent names the one scheme a request with header h carries: None, or a
// description of what is wrong when it carries several or a malformed one.
func SchemeSent(h http.Header) string {
	authorization, clientID := h.Values("Authorization"), h.Values(HeaderClientID)
	switch {
	case len(authorization)+len(clientID) > 1:
		return fmt.Sprintf("several (%d Authorization, %d %s headers)", len(authorization), len(clientID), HeaderClientID)
	case len(clientID) == 1:
		if clientID[0] == "" {
			return "an empty " + HeaderClientID
		}
		return ClientID
	case len(authorization) == 1:
		scheme, value, _ := strings.Cut(authorization[0], " ")
		switch {
		case strings.EqualFold(scheme, "Basic") && isBasicCredential(value):
			return Basic
		case strings.EqualFold(scheme, "Bearer") && value != "":
			return Bearer
		}
		return "a malformed Authorization header"
	}
	return None
}

// isBasicCredential reports whether v is base64 of "client id:client secret".
func isBasicCredential(v string) bool {
	decoded, err := base64.StdEncoding.DecodeString(v)
	id, secret, ok := strings.Cut(string(decoded), ":")
	return err == nil && ok && id != "" && secret != ""
}

// Operation is one operation of a document with the schemes its security allows.
type Operation struct {
	ID, Method, Path string
	Schemes          []string // sorted
}

// Operations lists the document's operations, by path then method.
func (c *Contract) Operations() []Operation {
	var ops []Operation
	for path, item := range c.Doc.Paths.Map() {
		for method, op := range item.Operations() {
			security := c.Doc.Security
			if op.Security != nil {
				security = *op.Security
			}
			var schemes []string
			for _, requirement := range security {
				for name := range requirement {
					schemes = append(schemes, schemeOf(c.Doc.Components.SecuritySchemes[name].Value))
				}
			}
			slices.Sort(schemes)
			ops = append(ops, Operation{ID: op.OperationID, Method: method, Path: path, Schemes: schemes})
		}
	}
	slices.SortFunc(ops, func(a, b Operation) int { return strings.Compare(a.Path+" "+a.Method, b.Path+" "+b.Method) })
	return ops
}

// Operation returns the document's operation at method and path.
func (c *Contract) Operation(method, path string) (Operation, bool) {
	ops := c.Operations()
	i := slices.IndexFunc(ops, func(op Operation) bool { return op.Method == method && op.Path == path })
	if i < 0 {
		return Operation{}, false
	}
	return ops[i], true
}
