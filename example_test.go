package insurance_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

func ExampleNewClient() {
	srv := insurancetest.NewServer() // stands in for https://api.example.com
	defer srv.Close()

	client, err := insurance.NewClient(srv.URL,
		insurance.WithCredentials(srv.ClientID, srv.ClientSecret),
		insurance.WithMaxRetries(3),
		insurance.WithUserAgent("acme-shop/1.0"),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	products, err := client.ListProducts(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range products.Products {
		fmt.Println(p.ID)
	}
	// Output:
	// gap-medical
	// travel
	// tuition
}

func ExampleNewClient_refusesClearText() {
	_, err := insurance.NewClient("http://api.example.com", insurance.WithCredentials("id", "secret"))
	fmt.Println(err)
	// Output: insurance: base URL "http://api.example.com" sends credentials in clear text: use https, or WithInsecureHTTP
}

func ExampleClient_QuoteTravel() {
	srv := insurancetest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	req := &insurance.TravelQuoteRequest{
		Customer: insurance.Customer{EmailAddress: "ada@example.com", State: "IL", Country: "US"},
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:      1000,
			TripStartDate: insurance.NewDate(2027, time.March, 1),
			TripEndDate:   insurance.NewDate(2027, time.March, 3),
			CoverageType:  insurance.CoverageBasic,
		},
	}
	quote, err := client.QuoteTravel(ctx, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("created:", quote.Created, quote.StatusCode)

	// Fields the interface does not describe are in the raw body.
	var body struct {
		Premium float64 `json:"premium"`
	}
	_ = quote.Decode(&body)
	fmt.Println("premium:", body.Premium)

	req.QuoteID = quote.QuoteID // update the same quote
	req.PolicyAttributes.TripCost = 2000
	quote, _ = client.QuoteTravel(ctx, req)
	fmt.Println("created:", quote.Created, quote.StatusCode)
	// Output:
	// created: true 201
	// premium: 52.5
	// created: false 200
}

func ExampleClient_PurchaseTuition() {
	srv := insurancetest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	req := &insurance.TuitionPurchaseRequest{
		QuoteID:  srv.NewTuitionQuote("ada@example.com"),
		Customer: insurance.Customer{EmailAddress: "ada@example.com"},
		PaymentMethod: insurance.PaymentMethod{Card: &insurance.Card{
			Name: "Ada Lovelace", Number: insurancetest.CardDeclined, Month: "12", Year: "2030",
		}},
	}
	_, err := client.PurchaseTuition(ctx, req)
	switch { // ErrOutcomeUnknown first: see Example (OutcomeUnknownFirst)
	case errors.Is(err, insurance.ErrOutcomeUnknown):
		fmt.Println("the policy may exist: check before buying again")
	case errors.Is(err, insurance.ErrPaymentFailed):
		fmt.Println("declined: ask for another card")
	case err != nil:
		fmt.Println(err)
	}

	req.PaymentMethod.Card.Number = insurancetest.CardOK
	policy, err := client.PurchaseTuition(ctx, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("policy issued:", policy.StatusCode, policy.QuoteID == req.QuoteID)
	// Output:
	// declined: ask for another card
	// policy issued: 201 true
}

// The client-side flow: the backend mints a customer secret with its full
// credentials; code holding only the client id quotes, then buys with the secret.
func ExampleClient_CreateCustomerSecret() {
	srv := insurancetest.NewServer()
	defer srv.Close()
	ctx := context.Background()

	backend := srv.Client()
	secret, err := backend.CreateCustomerSecret(ctx, "ada@example.com")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(secret) // printing never shows the secret

	browser, _ := insurance.NewClient(srv.URL, insurance.WithClientID(srv.ClientID))
	quote, err := browser.QuoteGapMedical(ctx, &insurance.GapMedicalQuoteRequest{
		Customer:         insurance.Customer{EmailAddress: "ada@example.com"},
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{CoverageStartDate: insurance.NewDate(2027, time.April, 1)},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	policy, err := browser.PurchaseGapMedical(ctx, secret.Secret, &insurance.GapMedicalPurchaseRequest{
		QuoteID:       quote.QuoteID,
		PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("bought:", policy.PolicyID != "")
	// Output:
	// insurance.CustomerSecret{EmailAddress: "ada@example.com", Secret: [redacted]}
	// bought: true
}

func ExampleClient_OnboardPartner() {
	srv := insurancetest.NewServer()
	defer srv.Close()

	partner, err := srv.Client().OnboardPartner(context.Background(), &insurance.OnboardPartnerRequest{
		EntityName:                 "Acme Travel",
		AdministrativeEmailAddress: "admin@acme.example",
		Country:                    insurance.CountryUS,
		Website:                    "https://acme.example",
		TravelRetailer:             insurance.Bool(true),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(partner.Type, partner.Status, partner.TravelRetailerOnboardingURL != "")

	_, err = srv.Client().OnboardPartner(context.Background(), &insurance.OnboardPartnerRequest{EntityName: "No Country"})
	var invalid *insurance.ValidationError
	fmt.Println(errors.As(err, &invalid), invalid.Field)
	// Output:
	// LIMITED PENDING_ONBOARDING true
	// true administrative_email_address
}

func ExampleClient_CreateEvent() {
	srv := insurancetest.NewServer()
	defer srv.Close()

	_, err := srv.Client().CreateEvent(context.Background(), &insurance.CreateEventRequest{
		EventName:      "Partner Summit",
		EventStartDate: insurance.NewDate(2027, time.June, 3),
		EventEndDate:   insurance.NewDate(2027, time.June, 1),
	})
	var apiErr *insurance.APIError
	if errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Code, apiErr.Message)
	}
	// Output: 400 invalid_dates event_end_date is before event_start_date
}

// Do reaches endpoints the SDK does not wrap yet, with the same auth, retries and
// errors.
func ExampleClient_Do() {
	srv := insurancetest.NewServer()
	defer srv.Close()

	var out struct {
		Products []struct {
			ID string `json:"id"`
		} `json:"products"`
	}
	resp, err := srv.Client().Do(context.Background(), http.MethodGet, "/v1/products", insurance.AuthBasic, nil, &out)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resp.StatusCode, len(out.Products))
	// Output: 200 3
}
