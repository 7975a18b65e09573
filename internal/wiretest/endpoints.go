package wiretest

import (
	"context"

	"github.com/partnerinsure/insurance-go"
)

// Endpoint is one SDK method with what the wire must look like for it.
type Endpoint struct {
	Name          string
	Method, Path  string
	AuthHeader    string // the one auth header the call carries
	AuthValue     string
	CreatesRecord bool   // purchases, onboarding, events: never sent twice once sent
	Request       string // wire fixture of the request body; "" for none
	Status        int    // success status the mock answers
	Response      string // wire fixture of the answer
	Call          func(ctx context.Context, c *insurance.Client) (any, error)
}

// Endpoints are the SDK's methods, each with its wire fixtures and a call with the
// fully populated request that matches them.
func Endpoints() []Endpoint {
	return []Endpoint{
		{
			Name: "ListProducts", Method: "GET", Path: "/v1/products",
			AuthHeader: "Authorization", AuthValue: BasicHeader,
			Status: 200, Response: "products_response.json",
			Call: func(ctx context.Context, c *insurance.Client) (any, error) { return c.ListProducts(ctx) },
		},
		{
			Name: "QuoteTravel", Method: "POST", Path: "/v1/quote/travel",
			AuthHeader: "Authorization", AuthValue: BasicHeader,
			Request: "quote_travel_request.json", Status: 201, Response: "quote_response.json",
			Call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.QuoteTravel(ctx, FullTravelQuote())
			},
		},
		{
			Name: "QuoteGapMedical", Method: "POST", Path: "/v1/quote/gap-medical",
			AuthHeader: insurance.HeaderClientID, AuthValue: ClientID,
			Request: "quote_gap_medical_request.json", Status: 200, Response: "quote_response.json",
			Call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.QuoteGapMedical(ctx, FullGapMedicalQuote())
			},
		},
		{
			Name: "PurchaseTuition", Method: "POST", Path: "/v1/purchase/tuition",
			AuthHeader: "Authorization", AuthValue: BasicHeader, CreatesRecord: true,
			Request: "purchase_tuition_request.json", Status: 201, Response: "policy_response.json",
			Call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.PurchaseTuition(ctx, FullTuitionPurchase())
			},
		},
		{
			Name: "PurchaseGapMedical", Method: "POST", Path: "/v1/purchase/gap-medical",
			AuthHeader: "Authorization", AuthValue: "Bearer " + CustomerSecret, CreatesRecord: true,
			Request: "purchase_gap_medical_request.json", Status: 201, Response: "policy_response.json",
			Call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.PurchaseGapMedical(ctx, CustomerSecret, FullGapMedicalPurchase())
			},
		},
		{
			Name: "CreateCustomerSecret", Method: "POST", Path: "/v1/auth/customer/secret",
			AuthHeader: "Authorization", AuthValue: BasicHeader,
			Request: "customer_secret_request.json", Status: 201, Response: "customer_secret_response.json",
			Call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.CreateCustomerSecret(ctx, "ada@example.com")
			},
		},
		{
			Name: "OnboardPartner", Method: "POST", Path: "/v1/partners/onboard",
			AuthHeader: "Authorization", AuthValue: BasicHeader, CreatesRecord: true,
			Request: "onboard_partner_request.json", Status: 201, Response: "partner_response.json",
			Call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.OnboardPartner(ctx, FullOnboardPartner())
			},
		},
		{
			Name: "CreateEvent", Method: "POST", Path: "/v1/events",
			AuthHeader: "Authorization", AuthValue: BasicHeader, CreatesRecord: true,
			Request: "create_event_request.json", Status: 201, Response: "event_response.json",
			Call: func(ctx context.Context, c *insurance.Client) (any, error) {
				return c.CreateEvent(ctx, FullCreateEvent())
			},
		},
	}
}
