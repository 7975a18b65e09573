package contract_test

// api/openapi.yaml is the referee between the SDK, the sandbox and the interface. This
// file checks the SDK against it, with internal/contracttest: the answers the SDK's tests
// decode, and a one-to-one map between the Client's endpoint methods and the
// document's operations. requests_test.go checks every request the SDK's own tests
// inspect; sandbox/ checks the sandbox's answers. The validator (kin-openapi) is a
// dependency of this module only, never of the SDK's.

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/contract/internal/contracttest"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// TestDocumentIsTheInterface pins the referee to the interface: its endpoints table
// (method, path, authentication), its errors table and a 401 on every operation, a
// default error answer on every operation, the events error body, and nothing of the
// sandbox's own.
func TestDocumentIsTheInterface(t *testing.T) {
	c := contracttest.Interface(t)
	assert.Equal(t, "3.1.0", c.Doc.OpenAPI)

	type endpoint struct {
		method, path string
		schemes      []string // as the interface's endpoints table says
		errors       []string // statuses of the interface's errors table, and 401: every operation authenticates
	}
	want := []endpoint{
		{"POST", "/v1/auth/customer/secret", []string{contracttest.Basic}, []string{"401"}},
		{"POST", "/v1/events", []string{contracttest.Basic}, []string{"401"}},
		{"POST", "/v1/partners/onboard", []string{contracttest.Basic}, []string{"401"}},
		{"GET", "/v1/products", []string{contracttest.Basic}, []string{"401"}},
		{"POST", "/v1/purchase/gap-medical", []string{contracttest.Bearer}, []string{"401"}},
		{"POST", "/v1/purchase/tuition", []string{contracttest.Basic}, []string{"400", "401", "402"}},
		{"POST", "/v1/quote/gap-medical", []string{contracttest.ClientID}, []string{"401"}},
		{"POST", "/v1/quote/travel", []string{contracttest.Basic, contracttest.ClientID}, []string{"400", "401", "422"}},
	}
	var got []endpoint
	for _, op := range c.Operations() {
		responses := c.Doc.Paths.Find(op.Path).GetOperation(op.Method).Responses
		assert.NotNil(t, responses.Default(), "%s %s answers statuses the interface does not list (a 403, a 429, a 5xx): it needs a default response", op.Method, op.Path)
		var errorStatuses []string
		for status := range responses.Map() {
			if status >= "400" && status < "600" {
				errorStatuses = append(errorStatuses, status)
			}
		}
		slices.Sort(errorStatuses)
		got = append(got, endpoint{op.Method, op.Path, op.Schemes, errorStatuses})
	}
	assert.Equal(t, want, got)

	t.Run("the events error body", func(t *testing.T) {
		events := c.Doc.Paths.Find("/v1/events")
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
	c := contracttest.Interface(t)
	for _, ep := range wiretest.Endpoints() {
		t.Run(ep.Name, func(t *testing.T) {
			req := sent{Method: ep.Method, Path: ep.Path, Header: http.Header{}}
			req.Header.Set(ep.AuthHeader, ep.AuthValue)
			if ep.Request != "" {
				req.Body = []byte(wiretest.Fixture(t, ep.Request))
				req.Header.Set("Content-Type", "application/json")
			}
			in, err := c.CheckRequest(req)
			require.NoError(t, err)
			header := http.Header{"Content-Type": {"application/json"}}
			assert.NoError(t, c.CheckResponse(in, ep.Status, header, []byte(wiretest.Fixture(t, ep.Response))), ep.Response)
		})
	}
}

// TestEveryEndpointMethodIsOneOperation maps the Client's endpoint methods (those
// taking a context first and returning a result and an error, Do aside) to the
// document's operations by calling each one: every method sends to exactly one
// operation, with a scheme that operation's security allows, and every operation is
// reached by exactly one method. A new endpoint cannot be added to one side only.
func TestEveryEndpointMethodIsOneOperation(t *testing.T) {
	c := contracttest.Interface(t)
	methods := endpointMethods(t)
	require.NotEmpty(t, methods)

	reachedBy := map[string][]string{} // operation id -> SDK methods
	for _, m := range methods {
		t.Run(m.Name, func(t *testing.T) {
			// A partner backend holds the client id and secret: every method sends.
			partner := callEndpoint(t, m, insurance.WithCredentials(wiretest.ClientID, wiretest.ClientSecret))
			require.NotNil(t, partner, "%s sent nothing with full credentials", m.Name)
			in, err := c.CheckRequest(*partner)
			require.NoError(t, err, "%s sends %s %s", m.Name, partner.Method, partner.Path)
			op, _ := c.Operation(in.Route.Method, in.Route.Path)
			reachedBy[op.ID] = append(reachedBy[op.ID], m.Name)
			assert.Contains(t, op.Schemes, contracttest.SchemeSent(partner.Header), "%s's scheme", m.Name)

			// Client-side code holds only the client id: a method sends it exactly
			// where the document allows the x-api-client-id header.
			public := callEndpoint(t, m, insurance.WithClientID(wiretest.ClientID))
			if public == nil {
				assert.NotContains(t, op.Schemes, contracttest.ClientID,
					"%s refuses a client-id-only Client, but %s %s takes the %s header", m.Name, op.Method, op.Path, insurance.HeaderClientID)
				return
			}
			_, err = c.CheckRequest(*public)
			require.NoError(t, err, "%s with a client id only", m.Name)
			assert.Equal(t, []string{partner.Method, partner.Path}, []string{public.Method, public.Path})
		})
	}

	for _, op := range c.Operations() {
		assert.Len(t, reachedBy[op.ID], 1, "operation %s (%s %s) must be reached by exactly one Client method, not %v", op.ID, op.Method, op.Path, reachedBy[op.ID])
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
	reflect.TypeFor[*insurance.TravelQuoteRequest]():        func() any { return wiretest.FullTravelQuote() },
	reflect.TypeFor[*insurance.GapMedicalQuoteRequest]():    func() any { return wiretest.FullGapMedicalQuote() },
	reflect.TypeFor[*insurance.TuitionPurchaseRequest]():    func() any { return wiretest.FullTuitionPurchase() },
	reflect.TypeFor[*insurance.GapMedicalPurchaseRequest](): func() any { return wiretest.FullGapMedicalPurchase() },
	reflect.TypeFor[*insurance.OnboardPartnerRequest]():     func() any { return wiretest.FullOnboardPartner() },
	reflect.TypeFor[*insurance.CreateEventRequest]():        func() any { return wiretest.FullCreateEvent() },
}

// callEndpoint calls m on a Client built with creds, once, and returns what it sent,
// or nil when it refused locally for lack of credentials.
func callEndpoint(t *testing.T, m reflect.Method, creds insurance.Option) *sent {
	t.Helper()
	mt := httpmock.NewMockTransport()
	var rec wiretest.Recorder
	mt.RegisterNoResponder(rec.Respond(http.StatusCreated, `{"secret": "cus_sec_sample", "quote_id": "q_sample"}`))
	client, err := insurance.NewClient(wiretest.BaseURL, creds, insurance.WithMaxRetries(0), insurance.WithHTTPClient(&http.Client{Transport: mt}))
	require.NoError(t, err)

	args := []reflect.Value{reflect.ValueOf(client), reflect.ValueOf(context.Background())}
	params := m.Type.NumIn()
	if m.Type.IsVariadic() {
		params-- // the call's options: none given
	}
	for i := 2; i < params; i++ {
		sample, ok := sampleArgs[m.Type.In(i)]
		require.True(t, ok, "%s takes a %s: add a sample of it to sampleArgs, and its operation to api/openapi.yaml", m.Name, m.Type.In(i))
		args = append(args, reflect.ValueOf(sample()))
	}
	out := m.Func.Call(args)
	err, _ = out[1].Interface().(error)
	if errors.Is(err, insurance.ErrMissingCredentials) {
		assert.Zero(t, rec.Count(), "%s refused locally yet sent", m.Name)
		return nil
	}
	require.NoError(t, err, m.Name)
	require.Equal(t, 1, rec.Count(), "%s must send exactly one request", m.Name)
	got := sent(rec.Requests()[0])
	return &got
}
