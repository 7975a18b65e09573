package insurancetest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// The test double's own capabilities, used as a partner's test would: through the SDK,
// against a sandbox over loopback and one in memory.

// bothWays runs test against a sandbox on loopback and one in memory.
func bothWays(t *testing.T, test func(t *testing.T, srv *insurancetest.Server)) {
	for _, way := range []struct {
		name string
		opts []insurancetest.Option
	}{
		{"loopback", nil},
		{"in memory", []insurancetest.Option{insurancetest.InMemory()}},
	} {
		t.Run(way.name, func(t *testing.T) { test(t, newSandbox(t, way.opts...)) })
	}
}

func tuitionByCard(quoteID, number string) *insurance.TuitionPurchaseRequest {
	return &insurance.TuitionPurchaseRequest{
		QuoteID: quoteID,
		PaymentMethod: insurance.PaymentMethod{Card: &insurance.Card{
			Name: "Ada Lovelace", Number: number, Verification: "987", Month: "12", Year: "2030",
		}},
	}
}

func TestRequestsShowWhatWasSentAndNoSecret(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		partner := srv.Client()
		browser := srv.Client(insurance.WithClientID(srv.ClientID))

		_, err := browser.QuoteTravel(ctx, travelQuote("ada@example.com"))
		require.NoError(t, err)
		_, err = partner.PurchaseTuition(ctx, tuitionByCard(srv.NewTuitionQuote("ada@example.com"), insurancetest.CardOK))
		require.NoError(t, err)
		q, err := browser.QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
		require.NoError(t, err)
		secret, err := partner.CreateCustomerSecret(ctx, "ada@example.com")
		require.NoError(t, err)
		_, err = partner.PurchaseGapMedical(ctx, secret.Secret, &insurance.GapMedicalPurchaseRequest{
			QuoteID: q.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenDeclined},
		})
		require.ErrorIs(t, err, insurance.ErrPaymentFailed)
		_, err = partner.OnboardPartner(ctx, &insurance.OnboardPartnerRequest{
			EntityName: "Acme", AdministrativeEmailAddress: "ops@acme.example", Country: insurance.CountryUS,
			Website: "https://acme.example", BankAccount: &insurance.PartnerBankAccount{ACHAccountNumber: "000123456789", ACHRoutingNumber: "021000021"},
		})
		require.NoError(t, err)

		type seen struct {
			Method, Path, Auth string
			StatusCode         int
		}
		var got []seen
		for _, r := range srv.Requests() {
			got = append(got, seen{r.Method, r.Path, r.Auth, r.StatusCode})
		}
		assert.Equal(t, []seen{
			{"POST", "/v1/quote/travel", "client-id", 201},
			{"POST", "/v1/purchase/tuition", "basic", 201},
			{"POST", "/v1/quote/gap-medical", "client-id", 201},
			{"POST", "/v1/auth/customer/secret", "basic", 201},
			{"POST", "/v1/purchase/gap-medical", "bearer", 402},
			{"POST", "/v1/partners/onboard", "basic", 201},
		}, got)

		requests := srv.Requests()
		purchase := string(requests[1].Body)
		assert.Contains(t, purchase, `"number":"************4242"`, "the card number keeps its last four digits")
		assert.Contains(t, purchase, `"verification":"***"`)
		assert.Contains(t, purchase, `"name":"Ada Lovelace"`, "everything else is as sent")
		assert.Contains(t, string(requests[5].Body), `"ach_account_number":"********6789"`)
		assert.Equal(t, "application/json", requests[0].Header.Get("Content-Type"))
		assert.Contains(t, requests[0].Header.Get("User-Agent"), "insurance-go/")

		var everything strings.Builder
		for _, r := range requests {
			fmt.Fprintf(&everything, "%s %s %s %v %s\n", r.Method, r.Path, r.Auth, r.Header, r.Body)
		}
		for _, secretValue := range []string{srv.ClientSecret, secret.Secret, insurancetest.CardOK, "000123456789", srv.ClientID} {
			assert.NotContains(t, everything.String(), secretValue)
		}
	})
}

func TestRecordsShowWhatTheSandboxHolds(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		client := srv.Client()
		quoteID := srv.NewTuitionQuote("ada@example.com")
		policy, err := client.PurchaseTuition(ctx, tuitionByCard(quoteID, insurancetest.CardOK))
		require.NoError(t, err)
		partner, err := client.OnboardPartner(ctx, &insurance.OnboardPartnerRequest{
			EntityName: "Acme", AdministrativeEmailAddress: "ops@acme.example", Country: insurance.CountryCA, Website: "https://acme.example",
		})
		require.NoError(t, err)
		event, err := client.CreateEvent(ctx, &insurance.CreateEventRequest{
			EventName: "Summit", EventStartDate: insurance.NewDate(2027, time.June, 1), EventEndDate: insurance.NewDate(2027, time.June, 2),
		})
		require.NoError(t, err)

		require.Len(t, srv.Policies(), 1)
		p := srv.Policies()[0]
		assert.Equal(t, insurancetest.Policy{
			PolicyID: policy.PolicyID, QuoteID: quoteID, Product: "tuition", Status: "ACTIVE", CustomerEmail: "ada@example.com",
			Premium: 120, Currency: "USD", CreatedAt: p.CreatedAt,
		}, p)
		assert.WithinDuration(t, srv.Now(), p.CreatedAt, time.Minute)
		require.Len(t, srv.Quotes(), 1)
		assert.Equal(t, "PURCHASED", srv.Quotes()[0].Status)
		assert.Equal(t, policy.PolicyID, srv.Quotes()[0].PolicyID)
		assert.Equal(t, []insurancetest.Partner{{
			ID: partner.ID.String(), EntityName: "Acme", AdministrativeEmailAddress: "ops@acme.example",
			Country: "CA", Status: "PENDING_ONBOARDING", Type: "LIMITED",
		}}, srv.Partners())
		assert.Equal(t, []insurancetest.Event{{ID: event.ID.String(), EventName: "Summit", EventStartDate: "2027-06-01", EventEndDate: "2027-06-02"}}, srv.Events())
	})
}

// The outcome-unknown case: the policy was issued, the connection dropped before the
// answer. The SDK says "check before trying again", sends nothing twice, and the test
// finds the policy.
func TestProcessedThenDroppedPurchaseIsOutcomeUnknown(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Process: true, Drop: true})
		quoteID := srv.NewTuitionQuote("ada@example.com")

		_, err := srv.Client().PurchaseTuition(ctx, tuitionByCard(quoteID, insurancetest.CardOK))

		assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
		assert.ErrorIs(t, err, io.EOF, "a broken connection")
		requests := srv.Requests()
		require.Len(t, requests, 1, "sent once, never again")
		assert.Zero(t, requests[0].StatusCode, "no answer went out")
		require.Len(t, srv.Policies(), 1, "the policy exists")
		assert.Equal(t, quoteID, srv.Policies()[0].QuoteID)
	})
}

// Without Process the request never reaches the sandbox's handling: no policy.
func TestDroppedPurchaseWithoutProcessCreatesNothing(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Drop: true})
		_, err := srv.Client().PurchaseTuition(ctx, tuitionByCard(srv.NewTuitionQuote("ada@example.com"), insurancetest.CardOK))
		assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown, "the SDK cannot know it was not processed")
		assert.Empty(t, srv.Policies())
	})
}

func TestProcessedThenFailedPurchaseIsSentOnce(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Process: true, Status: http.StatusServiceUnavailable})
		_, err := srv.Client().PurchaseTuition(ctx, tuitionByCard(srv.NewTuitionQuote("ada@example.com"), insurancetest.CardOK))
		assert.ErrorIs(t, err, insurance.ErrServer)
		assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
		assert.Len(t, srv.Requests(), 1)
		assert.Len(t, srv.Policies(), 1)
	})
}

func TestA503OnceOnAQuoteIsRetried(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: 1, Status: http.StatusServiceUnavailable})

		q, err := srv.Client().QuoteTravel(ctx, travelQuote("ada@example.com"))
		require.NoError(t, err)
		assert.True(t, q.Created)
		var statuses []int
		for _, r := range srv.Requests() {
			statuses = append(statuses, r.StatusCode)
		}
		assert.Equal(t, []int{503, 201}, statuses, "two requests logged: the 503 and the retry")
	})
}

func TestFaultsAnswerWhatProxiesAnswer(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		const page = "<html><body><h1>502 Bad Gateway</h1></body></html>"
		srv.Inject("GET /v1/products", insurancetest.Fault{Times: 1, Status: 502, Body: page, Header: http.Header{"Content-Type": {"text/html"}}})
		srv.Inject("GET /v1/products", insurancetest.Fault{Times: 1, Status: 429, Header: http.Header{"Retry-After": {"120"}}})
		client := srv.Client(insurance.WithMaxRetries(0))

		_, err := client.ListProducts(ctx)
		gateway := apiError(t, err)
		assert.Equal(t, 502, gateway.StatusCode)
		assert.Equal(t, page, string(gateway.Body))
		assert.Equal(t, "text/html", gateway.Header.Get("Content-Type"))

		_, err = client.ListProducts(ctx)
		limited := apiError(t, err)
		assert.ErrorIs(t, err, insurance.ErrRateLimited)
		assert.Equal(t, 2*time.Minute, limited.RetryAfter)

		_, err = client.ListProducts(ctx)
		assert.NoError(t, err, "faults on a route apply in the order injected, each its Times")
	})
}

func TestFaultsOnOtherRoutesAreIndependent(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/events", insurancetest.Fault{Status: 500}) // every request until Reset
		client := srv.Client(insurance.WithMaxRetries(0))

		for range 3 {
			_, err := client.CreateEvent(ctx, &insurance.CreateEventRequest{EventName: "x"})
			assert.ErrorIs(t, err, insurance.ErrServer)
		}
		_, err := client.ListProducts(ctx)
		assert.NoError(t, err)

		srv.Reset()
		_, err = client.CreateEvent(ctx, &insurance.CreateEventRequest{
			EventName: "x", EventStartDate: insurance.NewDate(2027, 1, 1), EventEndDate: insurance.NewDate(2027, 1, 1),
		})
		assert.NoError(t, err, "Reset forgets the fault")
	})
}

// A Delay slows one route only; a caller that gives up first sees its deadline, and
// without Process nothing was handled. In fake time, so the test waits for nothing.
func TestDelaySlowsOneRouteOnly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := insurancetest.NewServer(insurancetest.InMemory())
		srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Delay: time.Minute})
		client := srv.Client()

		start := time.Now()
		_, err := client.ListProducts(ctx)
		require.NoError(t, err)
		assert.Zero(t, time.Since(start), "other routes answer at once")

		deadline, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		_, err = client.PurchaseTuition(deadline, tuitionByCard(srv.NewTuitionQuote("ada@example.com"), insurancetest.CardOK))
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
		assert.Equal(t, 5*time.Second, time.Since(start))
		synctest.Wait()
		assert.Empty(t, srv.Policies(), "abandoned during the delay: not handled")
		assert.Zero(t, srv.Requests()[1].StatusCode)

		patient, cancel := context.WithTimeout(ctx, 2*time.Minute)
		defer cancel()
		_, err = client.PurchaseTuition(patient, tuitionByCard(srv.NewTuitionQuote("ada@example.com"), insurancetest.CardOK))
		assert.NoError(t, err, "a caller that waits gets the answer")
		assert.Equal(t, 5*time.Second+time.Minute, time.Since(start))
	})
}

// 64 goroutines hit a route with an active fault: each request claims a whole fault,
// exactly Times of them fail, and the race detector has nothing to say.
func TestConcurrentRequestsEachSeeAWholeFault(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("GET /v1/products", insurancetest.Fault{Times: 100, Status: 503, Header: http.Header{"X-Fault": {"1"}}})
		client := srv.Client(insurance.WithMaxRetries(0))

		var failed, succeeded atomic.Int32
		var wg sync.WaitGroup
		for range 64 {
			wg.Go(func() {
				for range 10 {
					_, err := client.ListProducts(ctx)
					switch {
					case err == nil:
						succeeded.Add(1)
					case errors.Is(err, insurance.ErrServer) && apiError(t, err).Header.Get("X-Fault") == "1":
						failed.Add(1)
					default:
						t.Errorf("unexpected: %v", err)
					}
				}
			})
		}
		wg.Wait()
		assert.EqualValues(t, 100, failed.Load())
		assert.EqualValues(t, 540, succeeded.Load())
		assert.Len(t, srv.Requests(), 640)
	})
}

func TestInjectRefusesMistakes(t *testing.T) {
	srv := newSandbox(t)
	for _, tc := range []struct {
		route string
		fault insurancetest.Fault
		want  string
	}{
		{"POST /v1/purchase/tution", insurancetest.Fault{Status: 503}, `route "POST /v1/purchase/tution" is not one of the interface's; want one of "GET /v1/products", `},
		{"GET /v1/purchase/tuition", insurancetest.Fault{Status: 503}, "is not one of the interface's"},
		{"/v1/products", insurancetest.Fault{Status: 503}, "is not one of the interface's"},
		{"GET /v1/products", insurancetest.Fault{Status: 503, Drop: true}, "Drop and Status exclude each other"},
		{"GET /v1/products", insurancetest.Fault{}, "the fault does nothing"},
		{"GET /v1/products", insurancetest.Fault{Times: -1, Status: 503}, "Times is -1"},
		{"GET /v1/products", insurancetest.Fault{Status: 42}, "want an HTTP status"},
		{"GET /v1/products", insurancetest.Fault{Body: "x", Delay: time.Second}, "Body and Header go with a Status"},
	} {
		t.Run(tc.route+" "+tc.want, func(t *testing.T) {
			var recovered any
			func() {
				defer func() { recovered = recover() }()
				srv.Inject(tc.route, tc.fault)
			}()
			require.NotNil(t, recovered, "Inject must panic")
			assert.Contains(t, recovered, "insurancetest: Inject: ")
			assert.Contains(t, recovered, tc.want)
		})
	}
}

func TestAdvanceExpiresCustomerSecrets(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		client := srv.Client()
		q, err := client.QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
		require.NoError(t, err)
		secret, err := client.CreateCustomerSecret(ctx, "ada@example.com")
		require.NoError(t, err)
		before := srv.Now()

		srv.Advance(15 * time.Minute)

		assert.Equal(t, 15*time.Minute, srv.Now().Sub(before).Round(time.Minute))
		_, err = client.PurchaseGapMedical(ctx, secret.Secret, &insurance.GapMedicalPurchaseRequest{
			QuoteID: q.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
		})
		assert.ErrorIs(t, err, insurance.ErrUnauthorized)
		assert.Equal(t, "secret_expired", apiError(t, err).Code)
	})
}

func TestResetForgetsEverything(t *testing.T) {
	srv := newSandbox(t)
	client := srv.Client()
	quoteID := srv.NewTuitionQuote("ada@example.com")
	_, err := client.PurchaseTuition(ctx, tuitionByCard(quoteID, insurancetest.CardOK))
	require.NoError(t, err)
	srv.Inject("GET /v1/products", insurancetest.Fault{Status: 500})

	srv.Reset()

	assert.Empty(t, srv.Requests())
	assert.Empty(t, srv.Policies())
	assert.Empty(t, srv.Quotes())
	_, err = client.ListProducts(ctx)
	assert.NoError(t, err, "no fault left")
	_, err = client.PurchaseTuition(ctx, tuitionByCard(quoteID, insurancetest.CardOK))
	assert.ErrorIs(t, err, insurance.ErrBadRequest, "the quote is forgotten too")
}

// The acceptance test of fake time: a 15-minute secret lifetime and two SDK retry
// waits of 20 seconds and more, in well under a second of real time.
func TestInMemoryRunsInFakeTime(t *testing.T) {
	realStart := time.Now()
	synctest.Test(t, func(t *testing.T) {
		srv := insurancetest.NewServer(insurancetest.InMemory())
		client := srv.Client(insurance.WithRetryWait(20*time.Second, time.Minute))
		fakeStart := time.Now()

		q, err := client.QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
		require.NoError(t, err)
		secret, err := client.CreateCustomerSecret(ctx, "ada@example.com")
		require.NoError(t, err)
		time.Sleep(15 * time.Minute)
		_, err = client.PurchaseGapMedical(ctx, secret.Secret, &insurance.GapMedicalPurchaseRequest{
			QuoteID: q.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
		})
		assert.Equal(t, "secret_expired", apiError(t, err).Code, "15 minutes later the secret has expired")

		srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Times: 2, Status: http.StatusServiceUnavailable})
		retried := time.Now()
		_, err = client.QuoteTravel(ctx, travelQuote("ada@example.com"))
		require.NoError(t, err, "after two retry waits")
		assert.GreaterOrEqual(t, time.Since(retried), 30*time.Second, "two waits: at least 10s + 20s with jitter")
		assert.GreaterOrEqual(t, time.Since(fakeStart), 15*time.Minute+30*time.Second)
	})
	elapsed := time.Since(realStart)
	t.Logf("15 minutes and two retry waits of fake time took %s of real time", elapsed)
	assert.Less(t, elapsed, time.Second)
}

// The sandbox, driven with net/http alone as code in another language would: the
// whole flow, tuition included, through the HTTP controls.
func TestHTTPOnlyWalkOfTheWholeFlow(t *testing.T) {
	srv := newSandbox(t)
	call := func(method, path, auth, body string, wantStatus int) string {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		switch {
		case auth == "basic":
			req.SetBasicAuth(srv.ClientID, srv.ClientSecret)
		case auth == "client-id":
			req.Header.Set("x-api-client-id", srv.ClientID)
		case strings.HasPrefix(auth, "bearer "):
			req.Header.Set("Authorization", "Bearer "+strings.TrimPrefix(auth, "bearer "))
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		answer, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		require.Equal(t, wantStatus, resp.StatusCode, "%s %s: %s", method, path, answer)
		return string(answer)
	}
	field := func(body, name string) string {
		t.Helper()
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(body), &m))
		v, _ := m[name].(string)
		require.NotEmpty(t, v, "%s in %s", name, body)
		return v
	}

	call("GET", "/v1/products", "basic", "", 200)
	travel := `{"customer":{"email_address":"ada@example.com"},"policy_attributes":{"trip_cost":1000,"trip_start_date":"2027-03-01","trip_end_date":"2027-03-05"}}`
	travelID := field(call("POST", "/v1/quote/travel", "client-id", travel, 201), "quote_id")
	call("POST", "/v1/quote/travel", "basic", strings.Replace(travel, `{"customer"`, `{"quote_id":"`+travelID+`","customer"`, 1), 200)

	gapID := field(call("POST", "/v1/quote/gap-medical", "client-id", `{"customer":{"email_address":"ada@example.com"},"policy_attributes":{"coverage_start_date":"2027-04-01"}}`, 201), "quote_id")
	secret := field(call("POST", "/v1/auth/customer/secret", "basic", `{"email_address":"ada@example.com"}`, 201), "secret")
	call("POST", "/v1/purchase/gap-medical", "bearer "+secret, `{"quote_id":"`+gapID+`","payment_method":{"token":"tok_ok"}}`, 201)

	tuitionID := field(call("POST", "/sandbox/tuition-quotes", "basic", `{"customer_email_address":"ada@example.com"}`, 201), "quote_id")
	call("POST", "/v1/purchase/tuition", "basic", `{"quote_id":"`+tuitionID+`","payment_method":{"card":{"number":"`+insurancetest.CardDeclined+`"}}}`, 402)
	call("POST", "/v1/purchase/tuition", "basic", `{"quote_id":"`+tuitionID+`","payment_method":{"card":{"number":"`+insurancetest.CardOK+`"}}}`, 201)

	call("POST", "/v1/partners/onboard", "basic", `{"entity_name":"Acme","administrative_email_address":"ops@acme.example","country":"US","website":"https://acme.example"}`, 201)
	call("POST", "/v1/events", "basic", `{"event_name":"Summit","event_start_date":"2027-06-01","event_end_date":"2027-06-02"}`, 201)

	policies := call("GET", "/sandbox/policies", "basic", "", 200)
	assert.Contains(t, policies, `"quote_id":"`+tuitionID+`"`)
	assert.Contains(t, policies, `"quote_id":"`+gapID+`"`)
	requests := call("GET", "/sandbox/requests", "basic", "", 200)
	assert.Contains(t, requests, `************0002`, "bodies masked")
	assert.NotContains(t, requests, insurancetest.CardOK)
	assert.NotContains(t, requests, secret)
	assert.Contains(t, call("GET", "/sandbox/partners", "basic", "", 200), `"entity_name":"Acme"`)
	assert.Contains(t, call("GET", "/sandbox/events", "basic", "", 200), `"event_name":"Summit"`)
	assert.Contains(t, call("GET", "/sandbox/quotes", "basic", "", 200), `"quote_id":"`+travelID+`"`)

	call("POST", "/sandbox/faults", "basic", `{"route":"GET /v1/products","times":1,"status":503,"header":{"Retry-After":"1"}}`, 201)
	call("GET", "/v1/products", "basic", "", 503)
	call("GET", "/v1/products", "basic", "", 200)

	secret = field(call("POST", "/v1/auth/customer/secret", "basic", `{"email_address":"ada@example.com"}`, 201), "secret")
	call("POST", "/sandbox/clock", "basic", `{"advance":"16m"}`, 200)
	gapID = field(call("POST", "/v1/quote/gap-medical", "client-id", `{"customer":{"email_address":"ada@example.com"},"policy_attributes":{"coverage_start_date":"2027-04-01"}}`, 201), "quote_id")
	assert.Contains(t, call("POST", "/v1/purchase/gap-medical", "bearer "+secret, `{"quote_id":"`+gapID+`","payment_method":{"token":"tok_ok"}}`, 401), "secret_expired")

	call("POST", "/sandbox/reset", "basic", "", 200)
	assert.JSONEq(t, `{"policies":[]}`, call("GET", "/sandbox/policies", "basic", "", 200))
}

func TestHTTPControlsAreGuarded(t *testing.T) {
	srv := newSandbox(t, insurancetest.WithAllowedOrigins("http://127.0.0.1:8090"))
	do := func(method, path, body string, basic bool, header ...string) (*http.Response, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		if basic {
			req.SetBasicAuth(srv.ClientID, srv.ClientSecret)
		}
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}

	resp, _ := do("GET", "/sandbox/requests", "", false)
	assert.Equal(t, 401, resp.StatusCode, "Basic auth with the partner credentials")

	resp, body := do("POST", "/sandbox/faults", `{"route":"GET /v1/products","satus":503}`, true)
	assert.Equal(t, 400, resp.StatusCode, "a misspelt field is refused")
	assert.Contains(t, body, `unknown field \"satus\"`)

	resp, body = do("POST", "/sandbox/faults", `{"route":"GET /v1/nope","status":503}`, true)
	assert.Equal(t, 400, resp.StatusCode)
	assert.Contains(t, body, "invalid_fault")

	resp, _ = do("OPTIONS", "/sandbox/requests", "", false, "Origin", "http://127.0.0.1:8090", "Access-Control-Request-Method", "GET")
	assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"), "never CORS, even for an allowed origin")

	resp, body = do("GET", "/sandbox/nope", "", true)
	assert.Equal(t, 404, resp.StatusCode)
	assert.Contains(t, body, "POST /sandbox/faults")

	resp, body = do("GET", "/sandbox/openapi.yaml", "", false)
	assert.Equal(t, 200, resp.StatusCode)
	assert.True(t, strings.HasPrefix(body, "openapi: 3.1"), "the interface's OpenAPI document")

	assert.Empty(t, srv.Requests(), "controls are not logged as requests of the interface")
}

func TestRequestsAreTheCallersCopies(t *testing.T) {
	srv := newSandbox(t, insurancetest.InMemory())
	_, err := srv.Client().ListProducts(ctx)
	require.NoError(t, err)

	mine := srv.Requests()
	mine[0].Header.Set("User-Agent", "changed")
	mine[0].Path = "/changed"

	again := srv.Requests()
	assert.Contains(t, again[0].Header.Get("User-Agent"), "insurance-go/")
	assert.Equal(t, "/v1/products", again[0].Path)
}
