package insurance_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

// endpoint is one SDK method with what the wire must look like for it.
type endpoint struct {
	name          string
	method, path  string
	authHeader    string // the one auth header the call carries
	authValue     string
	createsRecord bool   // purchases, onboarding, events: never sent twice once sent
	request       string // wire fixture of the request body; "" for none
	status        int    // success status the mock answers
	response      string // wire fixture of the answer
	call          func(ctx context.Context, c *insurance.Client) (any, error)
}

func endpoints() []endpoint {
	return []endpoint{
		{
			name: "ListProducts", method: "GET", path: "/v1/products",
			authHeader: "Authorization", authValue: testBasicHeader,
			status: 200, response: "products_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) { return c.ListProducts(ctx) },
		},
		{
			name: "QuoteTravel", method: "POST", path: "/v1/quote/travel",
			authHeader: "Authorization", authValue: testBasicHeader,
			request: "quote_travel_request.json", status: 201, response: "quote_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.QuoteTravel(ctx, fullTravelQuote())
			},
		},
		{
			name: "QuoteGapMedical", method: "POST", path: "/v1/quote/gap-medical",
			authHeader: insurance.HeaderClientID, authValue: testClientID,
			request: "quote_gap_medical_request.json", status: 200, response: "quote_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.QuoteGapMedical(ctx, fullGapMedicalQuote())
			},
		},
		{
			name: "PurchaseTuition", method: "POST", path: "/v1/purchase/tuition",
			authHeader: "Authorization", authValue: testBasicHeader, createsRecord: true,
			request: "purchase_tuition_request.json", status: 201, response: "policy_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.PurchaseTuition(ctx, fullTuitionPurchase())
			},
		},
		{
			name: "PurchaseGapMedical", method: "POST", path: "/v1/purchase/gap-medical",
			authHeader: "Authorization", authValue: "Bearer " + testCustomerSecret, createsRecord: true,
			request: "purchase_gap_medical_request.json", status: 201, response: "policy_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.PurchaseGapMedical(ctx, testCustomerSecret, fullGapMedicalPurchase())
			},
		},
		{
			name: "CreateCustomerSecret", method: "POST", path: "/v1/auth/customer/secret",
			authHeader: "Authorization", authValue: testBasicHeader,
			request: "customer_secret_request.json", status: 201, response: "customer_secret_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.CreateCustomerSecret(ctx, "ada@example.com")
			},
		},
		{
			name: "OnboardPartner", method: "POST", path: "/v1/partners/onboard",
			authHeader: "Authorization", authValue: testBasicHeader, createsRecord: true,
			request: "onboard_partner_request.json", status: 201, response: "partner_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.OnboardPartner(ctx, fullOnboardPartner())
			},
		},
		{
			name: "CreateEvent", method: "POST", path: "/v1/events",
			authHeader: "Authorization", authValue: testBasicHeader, createsRecord: true,
			request: "create_event_request.json", status: 201, response: "event_response.json",
			call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.CreateEvent(ctx, fullCreateEvent())
			},
		},
	}
}

// TestEndpointWire checks, for every endpoint, the method, path, the one auth header,
// Accept and Content-Type, the exact JSON body of a fully populated request, and the
// raw answer kept on the result.
func TestEndpointWire(t *testing.T) {
	for _, ep := range endpoints() {
		t.Run(ep.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newMockClient(t)
			var rec recorder
			mt.RegisterResponder(ep.method, testBaseURL+ep.path, rec.respond(ep.status, fixture(t, ep.response)))

			result, err := ep.call(context.Background(), c)
			require.NoError(t, err)

			got := rec.only(t)
			assert.Equal(t, ep.method, got.Method)
			assert.Equal(t, ep.path, got.Path)
			assert.Equal(t, ep.authValue, got.Header.Get(ep.authHeader))
			other := insurance.HeaderClientID
			if ep.authHeader == insurance.HeaderClientID {
				other = "Authorization"
			}
			assert.Empty(t, got.Header.Values(other), "exactly one auth scheme per request: %s must not be sent", other)
			assert.Len(t, got.Header.Values(ep.authHeader), 1)
			assert.Equal(t, "application/json", got.Header.Get("Accept"))
			assert.Regexp(t, `^insurance-go/\S+ go/go\S+$`, got.Header.Get("User-Agent"))
			if ep.request == "" {
				assert.Empty(t, got.Body)
				assert.Empty(t, got.Header.Get("Content-Type"))
			} else {
				assert.Equal(t, "application/json", got.Header.Get("Content-Type"))
				assert.JSONEq(t, fixture(t, ep.request), string(got.Body))
			}

			meta := responseOf(t, result)
			assert.Equal(t, ep.status, meta.StatusCode)
			assert.JSONEq(t, fixture(t, ep.response), string(meta.Raw))
			assert.Equal(t, "req_test_1", meta.RequestID())
		})
	}
}

// responseOf returns the Response every result embeds.
func responseOf(t *testing.T, result any) *insurance.Response {
	t.Helper()
	switch r := result.(type) {
	case *insurance.ProductList:
		return &r.Response
	case *insurance.Quote:
		return &r.Response
	case *insurance.Policy:
		return &r.Response
	case *insurance.CustomerSecret:
		return &r.Response
	case *insurance.Partner:
		return &r.Response
	case *insurance.Event:
		return &r.Response
	}
	t.Fatalf("unexpected result type %T", result)
	return nil
}

func TestDecodeFullResponses(t *testing.T) {
	c, mt := newMockClient(t)
	ctx := context.Background()
	for _, ep := range endpoints() {
		var rec recorder
		mt.RegisterResponder(ep.method, testBaseURL+ep.path, rec.respond(ep.status, fixture(t, ep.response)))
	}

	t.Run("products keep what the body carries", func(t *testing.T) {
		list, err := c.ListProducts(ctx)
		require.NoError(t, err)
		require.Len(t, list.Products, 3)
		assert.Equal(t, "travel", list.Products[1].ID)
		assert.Equal(t, "Travel", list.Products[1].Name)
		var all []struct{ ID, Path string }
		require.NoError(t, list.DecodeProducts(&all))
		require.Len(t, all, 3)
		assert.Equal(t, "/v1/quote/travel", all[1].Path)
	})

	t.Run("quote: id, created, and untyped fields through Decode", func(t *testing.T) {
		q, err := c.QuoteTravel(ctx, fullTravelQuote())
		require.NoError(t, err)
		assert.Equal(t, "q_123", q.QuoteID)
		assert.True(t, q.Created, "201 means created")
		var body struct {
			Premium  float64               `json:"premium"`
			NewField struct{ Nested bool } `json:"new_field"`
		}
		require.NoError(t, q.Decode(&body))
		assert.Equal(t, 125.25, body.Premium)
		assert.True(t, body.NewField.Nested)

		q, err = c.QuoteGapMedical(ctx, fullGapMedicalQuote())
		require.NoError(t, err)
		assert.False(t, q.Created, "200 means updated")
	})

	t.Run("policy", func(t *testing.T) {
		p, err := c.PurchaseTuition(ctx, fullTuitionPurchase())
		require.NoError(t, err)
		assert.Equal(t, "pol_9", p.PolicyID)
		assert.Equal(t, "q_tu_1", p.QuoteID)
	})

	t.Run("customer secret", func(t *testing.T) {
		s, err := c.CreateCustomerSecret(ctx, "ada@example.com")
		require.NoError(t, err)
		assert.Equal(t, "cs_live_abcdefghijklmnop", s.Secret)
		assert.Equal(t, "ada@example.com", s.EmailAddress)
	})

	t.Run("partner, with unknown fields ignored", func(t *testing.T) {
		p, err := c.OnboardPartner(ctx, fullOnboardPartner())
		require.NoError(t, err)
		assert.Equal(t, &insurance.Partner{
			Response:                         p.Response,
			ID:                               uuid.MustParse("7d444840-9dc0-11d1-b245-5ffdce74fad2"),
			Status:                           insurance.PartnerStatusPendingOnboarding,
			Type:                             insurance.PartnerTypeLimited,
			EntityName:                       "Acme Travel",
			AdministrativeEmailAddress:       "admin@acme.example",
			BillingEmailAddress:              "billing@acme.example",
			Address:                          "2 Market St",
			City:                             "Toronto",
			State:                            "ON",
			PostalCode:                       "M5V 2T6",
			Country:                          insurance.CountryCA,
			Website:                          "https://acme.example",
			TravelRetailerOnboardingURL:      "https://partners.example/retailer/7d44",
			TravelRetailerOnboardingComplete: false,
		}, p)
		assert.Equal(t, 201, p.StatusCode)
	})

	t.Run("event, with an unknown enum value kept", func(t *testing.T) {
		e, err := c.CreateEvent(ctx, fullCreateEvent())
		require.NoError(t, err)
		assert.Equal(t, &insurance.Event{
			Response:                  e.Response,
			ID:                        uuid.MustParse("0b6e6a1e-3a59-4b5a-9f4e-2b1f7c1d2e3f"),
			EventName:                 "Partner Summit",
			EventStartDate:            insurance.NewDate(2027, time.June, 1),
			EventEndDate:              insurance.NewDate(2027, time.June, 3),
			EventStreet:               "3 Harbour Rd",
			EventCity:                 "Chicago",
			EventState:                "IL",
			EventPostalCode:           "60601",
			EventCountry:              "US",
			Metadata:                  map[string]any{"source": "api"},
			InsuranceRequired:         true,
			InsuranceRequirementsType: "GENERAL_LIABILITY",
			Purpose:                   "CONFERENCE",
			AdditionalInsured: []insurance.AdditionalInsured{{
				BusinessName: "Harbour Hall", Street: "3 Harbour Rd", City: "Chicago",
				State: "IL", PostalCode: "60601", Country: "US",
			}},
			Attributes: insurance.EventAttributes{RoomBlockProtection: insurance.RoomBlockProtection{
				Rate: 0.05, Enabled: true, EventType: "OUTDOOR_TENT",
			}},
		}, e)
	})
}

func TestProductListShapes(t *testing.T) {
	for name, body := range map[string]string{
		"object with products": `{"products":[{"id":"travel"}]}`,
		"object with data":     `{"data":[{"id":"travel"}]}`,
		"bare array":           ` [{"id":"travel"}]`,
	} {
		t.Run(name, func(t *testing.T) {
			var l insurance.ProductList
			require.NoError(t, json.Unmarshal([]byte(body), &l))
			require.Len(t, l.Products, 1)
			assert.Equal(t, "travel", l.Products[0].ID)
		})
	}
}

func TestIDsFallBackToID(t *testing.T) {
	tests := []struct {
		name, quote, policy         string
		quoteID, policyID, policysQ string
	}{
		{"named ids", `{"quote_id":"q_1","id":"x"}`, `{"policy_id":"pol_1","quote_id":"q_1","id":"x"}`, "q_1", "pol_1", "q_1"},
		{"only id", `{"id":"q_9"}`, `{"id":"pol_1","quote_id":"q_9"}`, "q_9", "pol_1", "q_9"},
		{"id not a string", `{"quote_id":"q_1","id":7}`, `{"policy_id":"pol_1","id":{"n":7}}`, "q_1", "pol_1", ""},
		{"ids as JSON numbers", `{"quote_id":12345}`, `{"policy_id":98765,"quote_id":12345}`, "12345", "98765", "12345"},
		{"a number as id", `{"id":7}`, `{"id":8.0,"quote_id":"q_1"}`, "7", "8.0", "q_1"},
		{"no policy id at all", `{"quote_id":"q_1"}`, `{"status":"ACTIVE"}`, "q_1", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := newMockClient(t)
			mt.RegisterResponder("POST", testBaseURL+"/v1/quote/travel", httpmock.NewStringResponder(201, tt.quote))
			mt.RegisterResponder("POST", testBaseURL+"/v1/purchase/tuition", httpmock.NewStringResponder(201, tt.policy))

			q, err := c.QuoteTravel(context.Background(), fullTravelQuote())
			require.NoError(t, err)
			assert.Equal(t, tt.quoteID, q.QuoteID)
			assert.JSONEq(t, tt.quote, string(q.Raw))
			p, err := c.PurchaseTuition(context.Background(), fullTuitionPurchase())
			require.NoError(t, err)
			assert.Equal(t, tt.policyID, p.PolicyID)
			assert.Equal(t, tt.policysQ, p.QuoteID)
		})
	}
}

// A named id that is neither a string nor a number is a malformed answer, not an
// empty id.
func TestAnIDOfTheWrongTypeIsADecodeError(t *testing.T) {
	c, mt := newMockClient(t)
	mt.RegisterResponder("POST", testBaseURL+"/v1/quote/travel", httpmock.NewStringResponder(201, `{"quote_id":true}`))
	_, err := c.QuoteTravel(context.Background(), fullTravelQuote())
	var reqErr *insurance.RequestError
	require.ErrorAs(t, err, &reqErr)
	assert.Contains(t, err.Error(), "decoding response body")
	assert.Equal(t, 201, reqErr.StatusCode)
	assert.JSONEq(t, `{"quote_id":true}`, string(reqErr.Body), "what the server sent is kept")
}

// A quote answer without an id is an error at that call, naming the field and
// keeping the body: every later call about the quote would need the id.
func TestAQuoteWithoutAnIDIsAnErrorAtThatCall(t *testing.T) {
	for _, body := range []string{`{}`, `{"premium":12}`, `{"quote_id":""}`, `{"quote_id":null,"id":{"n":1}}`, ``} {
		c, mt := newMockClient(t)
		mt.RegisterResponder("POST", testBaseURL+"/v1/quote/travel", httpmock.NewStringResponder(201, body))
		q, err := c.QuoteTravel(context.Background(), fullTravelQuote())
		assert.Nil(t, q, body)
		var reqErr *insurance.RequestError
		require.ErrorAs(t, err, &reqErr, body)
		assert.Contains(t, err.Error(), `no "quote_id"`, body)
		assert.Equal(t, 201, reqErr.StatusCode, body)
		assert.Equal(t, body, string(reqErr.Body), "what the server sent is kept")
		assert.NotErrorIs(t, err, insurance.ErrOutcomeUnknown, "a quote creates no record a partner pays for")
	}
}

func TestZeroFieldsAreNotSent(t *testing.T) {
	b, err := json.Marshal(&insurance.TravelQuoteRequest{Customer: insurance.Customer{EmailAddress: "a@b.example"}})
	require.NoError(t, err)
	assert.JSONEq(t, `{"customer":{"email_address":"a@b.example"}}`, string(b))

	b, err = json.Marshal(&insurance.GapMedicalQuoteRequest{})
	require.NoError(t, err)
	assert.JSONEq(t, `{}`, string(b))
}
