package insurancetest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

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
			Premium: 120, Currency: "USD", CreatedAt: p.CreatedAt, ClientID: srv.ClientID,
		}, p)
		assert.WithinDuration(t, srv.Now(), p.CreatedAt, time.Minute)
		require.Len(t, srv.Quotes(), 1)
		assert.Equal(t, "PURCHASED", srv.Quotes()[0].Status)
		assert.Equal(t, policy.PolicyID, srv.Quotes()[0].PolicyID)
		assert.Equal(t, srv.ClientID, srv.Quotes()[0].ClientID)
		assert.Equal(t, []insurancetest.Partner{{
			ID: partner.ID, EntityName: "Acme", AdministrativeEmailAddress: "ops@acme.example",
			Country: "CA", Status: "PENDING_ONBOARDING", Type: "LIMITED",
		}}, srv.Partners())
		assert.Equal(t, []insurancetest.Event{{ID: event.ID, EventName: "Summit", EventStartDate: "2027-06-01", EventEndDate: "2027-06-02"}}, srv.Events())
	})
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
