package insurancetest_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

var ctx = context.Background()

func newSandbox(t *testing.T, opts ...insurancetest.Option) *insurancetest.Server {
	t.Helper()
	srv := insurancetest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv
}

func travelQuote(email string) *insurance.TravelQuoteRequest {
	return &insurance.TravelQuoteRequest{
		Customer: insurance.Customer{EmailAddress: email},
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:      1000,
			TripStartDate: insurance.NewDate(2027, time.March, 1),
			TripEndDate:   insurance.NewDate(2027, time.March, 3),
			CoverageType:  insurance.CoverageBasic,
		},
	}
}

func gapMedicalQuote(email string) *insurance.GapMedicalQuoteRequest {
	return &insurance.GapMedicalQuoteRequest{
		Customer:         insurance.Customer{EmailAddress: email},
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{CoverageStartDate: insurance.NewDate(2027, time.April, 1)},
	}
}

func apiError(t *testing.T, err error) *insurance.APIError {
	t.Helper()
	var apiErr *insurance.APIError
	require.ErrorAs(t, err, &apiErr)
	return apiErr
}

func TestAuthPerEndpoint(t *testing.T) {
	srv := newSandbox(t)
	partner := srv.Client()
	secret, err := partner.CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	schemes := map[string]insurance.Auth{
		"basic":     insurance.AuthBasic,
		"client id": insurance.AuthClientID,
		"bearer":    insurance.AuthBearer(secret.Secret),
		"none":      insurance.AuthNone,
	}
	accepts := map[string][]string{
		"GET /v1/products":              {"basic"},
		"POST /v1/quote/travel":         {"basic", "client id"},
		"POST /v1/quote/gap-medical":    {"client id"},
		"POST /v1/purchase/tuition":     {"basic"},
		"POST /v1/purchase/gap-medical": {"bearer"},
		"POST /v1/auth/customer/secret": {"basic"},
		"POST /v1/partners/onboard":     {"basic"},
		"POST /v1/events":               {"basic"},
	}
	wrongSecret, err := insurance.NewClient(srv.URL, insurance.WithCredentials(srv.ClientID, "not-the-secret"))
	require.NoError(t, err)

	for route, accepted := range accepts {
		method, path, _ := strings.Cut(route, " ")
		var body any
		if method == http.MethodPost {
			body = map[string]any{} // valid auth then meets a 400, never a 401
		}
		for name, scheme := range schemes {
			t.Run(route+"/"+name, func(t *testing.T) {
				_, err := partner.Do(ctx, method, path, scheme, body, nil)
				if contains(accepted, name) {
					assert.NotErrorIs(t, err, insurance.ErrUnauthorized)
				} else {
					assert.ErrorIs(t, err, insurance.ErrUnauthorized)
				}
			})
		}
		if contains(accepted, "basic") {
			t.Run(route+"/wrong secret", func(t *testing.T) {
				_, err := wrongSecret.Do(ctx, method, path, insurance.AuthBasic, body, nil)
				assert.ErrorIs(t, err, insurance.ErrUnauthorized)
			})
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestGapMedicalPurchaseTakesTheBearerSecretAndNothingElse(t *testing.T) {
	srv := newSandbox(t)
	secret, err := srv.Client().CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	quote, err := srv.Client(insurance.WithClientID(srv.ClientID)).QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
	require.NoError(t, err)

	req, err := http.NewRequest(http.MethodPost, srv.URL+"/v1/purchase/gap-medical",
		strings.NewReader(`{"quote_id":"`+quote.QuoteID+`","payment_method":{"token":"tok_ok"}}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+secret.Secret)
	req.Header.Set("x-api-client-id", srv.ClientID)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "a client id beside the Bearer secret is refused")

	req, err = http.NewRequest(http.MethodPost, srv.URL+"/v1/purchase/gap-medical",
		strings.NewReader(`{"quote_id":"`+quote.QuoteID+`","payment_method":{"token":"tok_ok"}}`))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+srv.ClientSecret)
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "the partner secret is not a customer secret")

	_, err = srv.Client().PurchaseGapMedical(ctx, srv.ClientSecret, &insurance.GapMedicalPurchaseRequest{
		QuoteID: quote.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
	})
	var valErr *insurance.ValidationError
	assert.ErrorAs(t, err, &valErr, "the SDK refuses to send it at all")
	assert.Len(t, srv.Requests(), 4, "quote, secret and the two raw purchases; not the SDK's")
}

func TestQuoteLifecycle(t *testing.T) {
	srv := newSandbox(t)
	c := srv.Client()

	created, err := c.QuoteTravel(ctx, travelQuote("ada@example.com"))
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, created.StatusCode)
	assert.True(t, created.Created)
	assert.NotEmpty(t, created.QuoteID)

	update := travelQuote("ada@example.com")
	update.QuoteID = created.QuoteID
	update.PolicyAttributes.TripCost = 2000
	updated, err := c.QuoteTravel(ctx, update)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, updated.StatusCode)
	assert.False(t, updated.Created)
	assert.Equal(t, created.QuoteID, updated.QuoteID)

	require.NoError(t, srv.MarkPurchased(created.QuoteID))
	_, err = c.QuoteTravel(ctx, update)
	assert.ErrorIs(t, err, insurance.ErrQuoteUnavailable)
	assert.Equal(t, "quote_unavailable", apiError(t, err).Code)

	unknown := travelQuote("ada@example.com")
	unknown.QuoteID = "q_does_not_exist"
	_, err = c.QuoteTravel(ctx, unknown)
	assert.ErrorIs(t, err, insurance.ErrBadRequest)
	assert.Contains(t, apiError(t, err).Message, "q_does_not_exist")

	assert.Error(t, srv.MarkPurchased(created.QuoteID), "a quote is bought once")
	assert.Error(t, srv.MarkPurchased("q_nope"))
}

func TestGapMedicalQuoteLifecycle(t *testing.T) {
	srv := newSandbox(t)
	browser := srv.Client(insurance.WithClientID(srv.ClientID))

	created, err := browser.QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
	require.NoError(t, err)
	assert.True(t, created.Created)
	again := gapMedicalQuote("ada@example.com")
	again.QuoteID = created.QuoteID
	updated, err := browser.QuoteGapMedical(ctx, again)
	require.NoError(t, err)
	assert.False(t, updated.Created)

	secret, err := srv.Client().CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	_, err = browser.PurchaseGapMedical(ctx, secret.Secret, &insurance.GapMedicalPurchaseRequest{
		QuoteID: created.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
	})
	require.NoError(t, err)

	_, err = browser.QuoteGapMedical(ctx, again)
	assert.ErrorIs(t, err, insurance.ErrQuoteUnavailable)

	travel, err := srv.Client().QuoteTravel(ctx, travelQuote("ada@example.com"))
	require.NoError(t, err)
	other := gapMedicalQuote("ada@example.com")
	other.QuoteID = travel.QuoteID
	_, err = browser.QuoteGapMedical(ctx, other)
	assert.ErrorIs(t, err, insurance.ErrBadRequest, "a travel quote id is not a gap-medical quote")
}

func TestQuoteValidation(t *testing.T) {
	srv := newSandbox(t)
	c := srv.Client()
	tests := []struct {
		name   string
		mutate func(*insurance.TravelQuoteRequest)
		want   string
	}{
		{"no email", func(r *insurance.TravelQuoteRequest) { r.Customer.EmailAddress = "" }, "missing required parameter: customer.email_address"},
		{"no start", func(r *insurance.TravelQuoteRequest) { r.PolicyAttributes.TripStartDate = insurance.Date{} }, "missing required parameter: policy_attributes.trip_start_date"},
		{"no end", func(r *insurance.TravelQuoteRequest) { r.PolicyAttributes.TripEndDate = insurance.Date{} }, "missing required parameter: policy_attributes.trip_end_date"},
		{"no cost", func(r *insurance.TravelQuoteRequest) { r.PolicyAttributes.TripCost = 0 }, "missing required parameter: policy_attributes.trip_cost"},
		{"negative cost", func(r *insurance.TravelQuoteRequest) { r.PolicyAttributes.TripCost = -5 }, "policy_attributes.trip_cost must be a positive number"},
		{"end before start", func(r *insurance.TravelQuoteRequest) {
			r.PolicyAttributes.TripEndDate = insurance.NewDate(2027, time.February, 1)
		}, "policy_attributes.trip_end_date is before policy_attributes.trip_start_date"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := travelQuote("ada@example.com")
			tt.mutate(req)
			_, err := c.QuoteTravel(ctx, req)
			assert.ErrorIs(t, err, insurance.ErrBadRequest)
			assert.Equal(t, tt.want, apiError(t, err).Message)
		})
	}

	_, err := srv.Client(insurance.WithClientID(srv.ClientID)).QuoteGapMedical(ctx, &insurance.GapMedicalQuoteRequest{
		Customer: insurance.Customer{EmailAddress: "ada@example.com"},
	})
	assert.Equal(t, "missing required parameter: policy_attributes.coverage_start_date", apiError(t, err).Message)
}

func TestTravelPremiumFormula(t *testing.T) {
	srv := newSandbox(t)
	req := travelQuote("ada@example.com") // 1000, 3 days
	req.PolicyAttributes.AdditionalTravelers = []insurance.Traveler{{FirstName: "Bob"}}
	quote, err := srv.Client().QuoteTravel(ctx, req)
	require.NoError(t, err)

	var body struct {
		Premium  float64 `json:"premium"`
		Currency string  `json:"currency"`
		Status   string  `json:"status"`
	}
	require.NoError(t, quote.Decode(&body))
	assert.Equal(t, 60.00, body.Premium, "4.5% of 1000 + 2.50 x 3 days x 2 travellers")
	assert.Equal(t, "USD", body.Currency)
	assert.Equal(t, "QUOTED", body.Status)
}

func TestCustomerSecretScopeAndExpiry(t *testing.T) {
	srv := newSandbox(t, insurancetest.WithSecretTTL(300*time.Millisecond))
	partner := srv.Client()
	browser := srv.Client(insurance.WithClientID(srv.ClientID))
	quote, err := browser.QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
	require.NoError(t, err)
	buy := &insurance.GapMedicalPurchaseRequest{QuoteID: quote.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK}}

	adas, err := partner.CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	bobs, err := partner.CreateCustomerSecret(ctx, "bob@example.com")
	require.NoError(t, err)
	assert.NotEqual(t, adas.Secret, bobs.Secret)
	assert.NotContains(t, adas.Secret, srv.ClientSecret)
	assert.GreaterOrEqual(t, len(adas.Secret), 40, "unguessable")

	_, err = browser.PurchaseGapMedical(ctx, bobs.Secret, buy)
	assert.ErrorIs(t, err, insurance.ErrForbidden, "Bob's secret cannot buy Ada's quote")
	assert.Equal(t, "secret_scope", apiError(t, err).Code)

	_, err = browser.PurchaseGapMedical(ctx, "cus_sec_guessed", buy)
	assert.ErrorIs(t, err, insurance.ErrUnauthorized)

	time.Sleep(400 * time.Millisecond)
	_, err = browser.PurchaseGapMedical(ctx, adas.Secret, buy)
	assert.ErrorIs(t, err, insurance.ErrUnauthorized, "expired")
	assert.Equal(t, "secret_expired", apiError(t, err).Code)

	fresh, err := partner.CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	policy, err := browser.PurchaseGapMedical(ctx, fresh.Secret, buy)
	require.NoError(t, err)
	assert.Equal(t, quote.QuoteID, policy.QuoteID)
}

func TestPaymentTestValues(t *testing.T) {
	srv := newSandbox(t)
	c := srv.Client()
	card := func(n string) insurance.PaymentMethod {
		return insurance.PaymentMethod{Card: &insurance.Card{Name: "Ada", Number: n, Verification: "123", Month: "12", Year: "2030"}}
	}
	bank := func(account, routing string) insurance.PaymentMethod {
		return insurance.PaymentMethod{BankAccount: &insurance.BankAccount{AccountNumber: account, RoutingNumber: routing}}
	}
	tests := []struct {
		name string
		pm   insurance.PaymentMethod
		want error // nil: a policy is issued
	}{
		{"CardOK", card(insurancetest.CardOK), nil},
		{"another valid card", card("5555555555554444"), nil},
		{"CardDeclined", card(insurancetest.CardDeclined), insurance.ErrPaymentFailed},
		{"card failing Luhn", card("4242424242424241"), insurance.ErrBadRequest},
		{"TokenOK", insurance.PaymentMethod{Token: insurancetest.TokenOK}, nil},
		{"any tok_ token", insurance.PaymentMethod{Token: "tok_visa_debit"}, nil},
		{"TokenDeclined", insurance.PaymentMethod{Token: insurancetest.TokenDeclined}, insurance.ErrPaymentFailed},
		{"not a token", insurance.PaymentMethod{Token: "abc"}, insurance.ErrBadRequest},
		{"bank account", bank("000123456789", "110000000"), nil},
		{"bank account without routing number", bank("000123456789", ""), insurance.ErrBadRequest},
		{"no payment method", insurance.PaymentMethod{}, insurance.ErrBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			quoteID := srv.NewTuitionQuote("ada@example.com")
			policy, err := c.PurchaseTuition(ctx, &insurance.TuitionPurchaseRequest{QuoteID: quoteID, PaymentMethod: tt.pm})
			if tt.want != nil {
				assert.ErrorIs(t, err, tt.want)
				assert.NotErrorIs(t, err, insurance.ErrOutcomeUnknown, "a 4xx is a definite answer")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, http.StatusCreated, policy.StatusCode)
			assert.Equal(t, quoteID, policy.QuoteID)
			var body struct {
				Status, CustomerEmailAddress string
				Premium                      float64
			}
			require.NoError(t, json.Unmarshal(policy.Raw, &struct {
				Status  *string  `json:"status"`
				Email   *string  `json:"customer_email_address"`
				Premium *float64 `json:"premium"`
			}{&body.Status, &body.CustomerEmailAddress, &body.Premium}))
			assert.Equal(t, "ACTIVE", body.Status)
			assert.Equal(t, "ada@example.com", body.CustomerEmailAddress)
			assert.Equal(t, 120.00, body.Premium)
		})
	}

	t.Run("gap-medical TokenDeclined", func(t *testing.T) {
		quote, err := srv.Client(insurance.WithClientID(srv.ClientID)).QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
		require.NoError(t, err)
		secret, err := c.CreateCustomerSecret(ctx, "ada@example.com")
		require.NoError(t, err)
		_, err = c.PurchaseGapMedical(ctx, secret.Secret, &insurance.GapMedicalPurchaseRequest{
			QuoteID: quote.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenDeclined},
		})
		assert.ErrorIs(t, err, insurance.ErrPaymentFailed)
	})
}

func TestAQuoteIsBoughtOnce(t *testing.T) {
	srv := newSandbox(t)
	c := srv.Client()
	buy := func(quoteID string) error {
		_, err := c.PurchaseTuition(ctx, &insurance.TuitionPurchaseRequest{
			QuoteID: quoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
		})
		return err
	}

	quoteID := srv.NewTuitionQuote("ada@example.com")
	require.NoError(t, buy(quoteID))
	assert.ErrorIs(t, buy(quoteID), insurance.ErrQuoteUnavailable)
	assert.ErrorIs(t, buy("q_unknown"), insurance.ErrBadRequest)

	t.Run("concurrent purchases: exactly one wins", func(t *testing.T) {
		quoteID := srv.NewTuitionQuote("bob@example.com")
		var wg sync.WaitGroup
		errs := make([]error, 32)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = buy(quoteID)
			}()
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			if err == nil {
				won++
			} else {
				assert.ErrorIs(t, err, insurance.ErrQuoteUnavailable)
			}
		}
		assert.Equal(t, 1, won)
	})
}

func TestOnboardPartner(t *testing.T) {
	srv := newSandbox(t)
	c := srv.Client()
	req := &insurance.OnboardPartnerRequest{
		EntityName: "Acme Travel", AdministrativeEmailAddress: "admin@acme.example",
		Country: insurance.CountryUS, Website: "https://acme.example", City: "Austin",
	}

	partner, err := c.OnboardPartner(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, partner.StatusCode)
	assert.NotEqual(t, uuid.Nil, partner.ID)
	assert.Equal(t, insurance.PartnerTypeLimited, partner.Type)
	assert.Equal(t, insurance.PartnerStatusPendingOnboarding, partner.Status)
	assert.Equal(t, "Acme Travel", partner.EntityName)
	assert.Equal(t, "Austin", partner.City)
	assert.Empty(t, partner.TravelRetailerOnboardingURL)
	assert.NotContains(t, string(partner.Raw), "travel_retailer_onboarding_url")

	req.TravelRetailer = true
	retailer, err := c.OnboardPartner(ctx, req)
	require.NoError(t, err)
	assert.NotEqual(t, partner.ID, retailer.ID)
	assert.Contains(t, retailer.TravelRetailerOnboardingURL, retailer.ID.String())
	assert.False(t, retailer.TravelRetailerOnboardingComplete)

	// The sandbox checks too, for callers that skip the SDK's local validation.
	for field, body := range map[string]map[string]any{
		"entity_name":                  {"administrative_email_address": "a@b.example", "country": "US", "website": "w"},
		"administrative_email_address": {"entity_name": "E", "country": "US", "website": "w"},
		"country":                      {"entity_name": "E", "administrative_email_address": "a@b.example", "website": "w"},
		"website":                      {"entity_name": "E", "administrative_email_address": "a@b.example", "country": "US"},
	} {
		_, err := c.Do(ctx, http.MethodPost, "/v1/partners/onboard", insurance.AuthBasic, body, nil)
		assert.ErrorIs(t, err, insurance.ErrBadRequest, field)
		assert.Equal(t, "missing required parameter: "+field, apiError(t, err).Message)
	}
	_, err = c.Do(ctx, http.MethodPost, "/v1/partners/onboard", insurance.AuthBasic,
		map[string]any{"entity_name": "E", "administrative_email_address": "a@b.example", "country": "MX", "website": "w"}, nil)
	assert.Equal(t, `country must be US or CA, not "MX"`, apiError(t, err).Message)
}

func TestCreateEvent(t *testing.T) {
	srv := newSandbox(t)
	c := srv.Client()
	req := &insurance.CreateEventRequest{
		EventName: "Summit", EventStartDate: insurance.NewDate(2027, time.June, 1), EventEndDate: insurance.NewDate(2027, time.June, 1),
		EventCity: "Chicago", EventCountry: "US",
	}

	event, err := c.CreateEvent(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, http.StatusCreated, event.StatusCode)
	assert.NotEqual(t, uuid.Nil, event.ID)
	assert.Equal(t, "Summit", event.EventName)
	assert.Equal(t, req.EventStartDate, event.EventStartDate)
	assert.Equal(t, "Chicago", event.EventCity)
	assert.Equal(t, insurance.EventTypeIndoor, event.Attributes.RoomBlockProtection.EventType)
	assert.NotNil(t, event.AdditionalInsured)

	req.EventEndDate = insurance.NewDate(2027, time.May, 31)
	_, err = c.CreateEvent(ctx, req)
	e := apiError(t, err)
	assert.Equal(t, 400, e.StatusCode)
	assert.Equal(t, "invalid_dates", e.Code)
	assert.Equal(t, "event_end_date is before event_start_date", e.Message)
}

// TestEventsErrorBody: every events error, whatever its cause, carries
// {error, error_code, message, reason, status}.
func TestEventsErrorBody(t *testing.T) {
	srv := newSandbox(t)
	wrong, err := insurance.NewClient(srv.URL, insurance.WithCredentials(srv.ClientID, "wrong"))
	require.NoError(t, err)
	_, unauthorized := wrong.CreateEvent(ctx, &insurance.CreateEventRequest{EventName: "x"})
	_, missingName := srv.Client().CreateEvent(ctx, &insurance.CreateEventRequest{})
	_, badJSON := srv.Client().Do(ctx, http.MethodPost, "/v1/events", insurance.AuthBasic, json.RawMessage(`{"event_name": 5}`), nil)

	for _, err := range []error{unauthorized, missingName, badJSON} {
		e := apiError(t, err)
		var body map[string]any
		require.NoError(t, json.Unmarshal(e.Body, &body))
		assert.ElementsMatch(t, []string{"error", "error_code", "message", "reason", "status"}, keys(body))
		assert.EqualValues(t, e.StatusCode, body["status"])
		assert.NotEmpty(t, e.Code)
		assert.NotEmpty(t, e.Message)
		assert.NotEmpty(t, e.Reason)
	}
	assert.Equal(t, "parameter event_name must be a string, not number", apiError(t, badJSON).Message)
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestMalformedBodies: bad input is a 400 with a clear message, never a panic or 500,
// and every answer is JSON with a request id.
func TestMalformedBodies(t *testing.T) {
	srv := newSandbox(t)
	tests := []struct {
		name, path, body, want string
		status                 int
	}{
		{"not JSON", "/v1/quote/travel", `{"customer":`, "request body is empty or cut short", 400},
		{"syntax error", "/v1/quote/travel", `{"customer" 1}`, "malformed JSON at byte", 400},
		{"wrong type", "/v1/quote/travel", `{"policy_attributes":{"trip_cost":"cheap"}}`, "parameter policy_attributes.trip_cost must be a number, not string", 400},
		{"bad date", "/v1/quote/travel", `{"customer":{"email_address":"ada@example.com"},"policy_attributes":{"trip_start_date":"01/03/2027"}}`, `policy_attributes.trip_start_date must be a date YYYY-MM-DD, not "01/03/2027"`, 400},
		{"empty body", "/v1/purchase/tuition", ``, "request body is empty", 400},
		{"array", "/v1/events", `[1,2]`, "must be a object", 400},
		{"trailing data", "/v1/events", `{} {}`, "trailing data", 400},
		{"over 1 MiB", "/v1/events", `{"event_name":"` + strings.Repeat("x", 2<<20) + `"}`, "request body exceeds 1048576 bytes", 400},
		{"unknown path", "/v1/quote/pet", `{}`, "no endpoint /v1/quote/pet", 404},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, srv.URL+tt.path, strings.NewReader(tt.body))
			require.NoError(t, err)
			req.SetBasicAuth(srv.ClientID, srv.ClientSecret)
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)

			assert.Equal(t, tt.status, resp.StatusCode, string(body))
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			assert.Regexp(t, `^req_[0-9a-f]{16}$`, resp.Header.Get("X-Request-Id"))
			var e struct{ Message string }
			require.NoError(t, json.Unmarshal(body, &e))
			assert.Contains(t, e.Message, tt.want)
		})
	}
}

func TestListProducts(t *testing.T) {
	srv := newSandbox(t)
	list, err := srv.Client().ListProducts(ctx)
	require.NoError(t, err)
	var ids []string
	for _, p := range list.Products {
		ids = append(ids, p.ID)
	}
	assert.Equal(t, []string{"gap-medical", "travel", "tuition"}, ids)
}

func TestLatency(t *testing.T) {
	srv := newSandbox(t, insurancetest.WithLatency(200*time.Millisecond))
	c, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, err := srv.Client().ListProducts(c)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)
}

func TestCORSOnlyForBrowserEndpointsAndAllowedOrigins(t *testing.T) {
	const page = "http://127.0.0.1:8090"
	srv := newSandbox(t, insurancetest.WithAllowedOrigins(page))
	preflight := func(origin, path, headers string) *http.Response {
		req, err := http.NewRequest(http.MethodOptions, srv.URL+path, nil)
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", headers)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}

	for path, headers := range map[string]string{
		"/v1/quote/gap-medical":    "x-api-client-id",
		"/v1/quote/travel":         "x-api-client-id",
		"/v1/purchase/gap-medical": "Authorization",
	} {
		resp := preflight(page, path, headers)
		assert.Equal(t, http.StatusNoContent, resp.StatusCode, path)
		assert.Equal(t, page, resp.Header.Get("Access-Control-Allow-Origin"), path)
		assert.Contains(t, resp.Header.Get("Access-Control-Allow-Headers"), headers, path)
	}
	assert.NotContains(t, preflight(page, "/v1/quote/travel", "Authorization").Header.Get("Access-Control-Allow-Headers"), "Authorization",
		"a page may not send Basic auth to the travel quote")

	for _, path := range []string{"/v1/products", "/v1/purchase/tuition", "/v1/auth/customer/secret", "/v1/partners/onboard", "/v1/events"} {
		resp := preflight(page, path, "Authorization")
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, path)
		assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"), path)
	}
	resp := preflight("https://evil.example", "/v1/purchase/gap-medical", "Authorization")
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"))
}

func TestServesTheStandInComponent(t *testing.T) {
	srv := newSandbox(t)
	resp, err := http.Get(srv.ComponentURL())
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Content-Type"), "javascript")
	assert.Contains(t, string(body), "SANDBOX STAND-IN")
	assert.Contains(t, string(body), `customElements.define("insurance-gap-medical"`)
}
