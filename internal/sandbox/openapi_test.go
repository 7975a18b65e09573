package sandbox_test

// The OpenAPI documents in api/ loaded into kin-openapi's validator, to check the
// sandbox against them both ways: every request a test sends, and every answer the
// sandbox gives. kin-openapi is imported by _test.go files only.

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
	authBasic    = "basic"
	authClientID = "client-id"
	authBearer   = "bearer"
	authNone     = "none"
)

// headerClientID is the header of the client-id scheme.
const headerClientID = "X-Api-Client-Id"

// sent is a request as a test sends it.
type sent struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// request builds what is sent as an *http.Request, with a fresh body.
func (s sent) request() *http.Request {
	req := httptest.NewRequest(s.Method, s.Path, bytes.NewReader(s.Body))
	req.Header = s.Header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	return req
}

// contract is a loaded document and a router over its operations.
type contract struct {
	name    string
	doc     *openapi3.T
	router  routers.Router
	options *openapi3filter.Options
}

// loadContract loads and validates the document name (a path in the repository).
func loadContract(name string, data []byte) (*contract, error) {
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
	return &contract{name: name, doc: doc, router: router, options: &openapi3filter.Options{
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

var loadInterface = sync.OnceValues(func() (*contract, error) { return loadContract("api/openapi.yaml", api.OpenAPI) })

// theContract returns api/openapi.yaml, loaded and validated once per test binary.
func theContract(t testing.TB) *contract {
	t.Helper()
	c, err := loadInterface()
	require.NoError(t, err)
	return c
}

// checkRequest validates one request against the document: its operation (method
// and path), its credentials against the operation's security, and its body. The
// input it returns checks the answer to the request.
func (c *contract) checkRequest(s sent) (*openapi3filter.RequestValidationInput, error) {
	req := s.request()
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		return nil, fmt.Errorf("%s has no operation %s %s: %w", c.name, s.Method, s.Path, err)
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
	case s.Type == "apiKey" && s.In == "header" && strings.EqualFold(s.Name, headerClientID):
		return authClientID
	}
	return fmt.Sprintf("an unknown scheme (%s %s%s)", s.Type, s.Scheme, s.Name)
}

// schemeSent names the one scheme a request carries: "none", or a description of
// what is wrong when it carries several or a malformed one.
func schemeSent(h http.Header) string {
	authorization, clientID := h.Values("Authorization"), h.Values(headerClientID)
	switch {
	case len(authorization)+len(clientID) > 1:
		return fmt.Sprintf("several (%d Authorization, %d %s headers)", len(authorization), len(clientID), headerClientID)
	case len(clientID) == 1:
		if clientID[0] == "" {
			return "an empty " + headerClientID
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

// operation is one operation of the document.
type operation struct {
	id, method, path string
}

// operations lists the document's operations, by path then method.
func (c *contract) operations() []operation {
	var ops []operation
	for path, item := range c.doc.Paths.Map() {
		for method, op := range item.Operations() {
			ops = append(ops, operation{id: op.OperationID, method: method, path: path})
		}
	}
	slices.SortFunc(ops, func(a, b operation) int { return strings.Compare(a.path+" "+a.method, b.path+" "+b.method) })
	return ops
}
