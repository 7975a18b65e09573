package insurancetest_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// partnerClient is the client a platform builds for one of its partners: its own
// credentials, through insurance.NewClient, to the sandbox over loopback or in memory.
func partnerClient(t *testing.T, srv *insurancetest.Server, clientID, clientSecret string) *insurance.Client {
	t.Helper()
	return clientOf(t, srv, insurance.WithCredentials(clientID, clientSecret))
}

// clientOf builds a client for srv with credentials.
func clientOf(t *testing.T, srv *insurancetest.Server, credentials insurance.Option) *insurance.Client {
	t.Helper()
	c, err := insurance.NewClient(srv.URL, credentials,
		insurance.WithHTTPClient(srv.HTTPClient()),
		insurance.WithInsecureHTTP(), // in memory, URL is plain http to a host that is not loopback
	)
	require.NoError(t, err)
	return c
}

// Two partners of one sandbox: each one's quotes, customer secrets and policies are its
// own, and the records and the request log say whose each is.
func TestPartnersAreKeptApart(t *testing.T) {
	bothWays(t, func(t *testing.T, srv *insurancetest.Server) {
		idA, secretA := srv.ClientID, srv.ClientSecret
		idB, secretB := srv.AddPartner()
		require.NotEqual(t, idA, idB)
		a, b := partnerClient(t, srv, idA, secretA), partnerClient(t, srv, idB, secretB)

		// A travel quote of A is unknown to B: 400, as a quote never made.
		quoteA, err := a.QuoteTravel(ctx, travelQuote("ada@example.com"))
		require.NoError(t, err)
		update := travelQuote("ada@example.com")
		update.QuoteID = quoteA.QuoteID
		_, err = b.QuoteTravel(ctx, update)
		require.ErrorIs(t, err, insurance.ErrBadRequest)
		assert.Equal(t, "quote_not_found", apiError(t, err).Code)
		_, err = a.QuoteTravel(ctx, update)
		require.NoError(t, err, "A still updates its own quote")

		// So is A's tuition quote: B cannot buy it, and nothing is issued.
		tuitionA := srv.NewTuitionQuoteFor(idA, "ada@example.com")
		_, err = b.PurchaseTuition(ctx, tuitionByCard(tuitionA, insurancetest.CardOK))
		require.ErrorIs(t, err, insurance.ErrBadRequest)
		assert.Equal(t, "quote_not_found", apiError(t, err).Code)
		assert.Empty(t, srv.Policies())
		tuitionB := srv.NewTuitionQuoteFor(idB, "ada@example.com")
		policyB, err := b.PurchaseTuition(ctx, tuitionByCard(tuitionB, insurancetest.CardOK))
		require.NoError(t, err)

		// A customer secret B minted, even for the right customer, cannot buy A's quote:
		// 403. A's own secret can.
		gapA, err := clientOf(t, srv, insurance.WithClientID(idA)).QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
		require.NoError(t, err)
		secretOfB, err := b.CreateCustomerSecret(ctx, "ada@example.com")
		require.NoError(t, err)
		purchase := &insurance.GapMedicalPurchaseRequest{QuoteID: gapA.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK}}
		_, err = b.PurchaseGapMedical(ctx, secretOfB.Secret, purchase)
		require.ErrorIs(t, err, insurance.ErrForbidden)
		assert.Equal(t, "secret_scope", apiError(t, err).Code)
		secretOfA, err := a.CreateCustomerSecret(ctx, "ada@example.com")
		require.NoError(t, err)
		policyA, err := a.PurchaseGapMedical(ctx, secretOfA.Secret, purchase)
		require.NoError(t, err)

		whose := map[string]string{}
		for _, q := range srv.Quotes() {
			whose[q.QuoteID] = q.ClientID
		}
		assert.Equal(t, map[string]string{quoteA.QuoteID: idA, tuitionA: idA, tuitionB: idB, gapA.QuoteID: idA}, whose)
		whose = map[string]string{}
		for _, p := range srv.Policies() {
			whose[p.PolicyID] = p.ClientID
		}
		assert.Equal(t, map[string]string{policyB.PolicyID: idB, policyA.PolicyID: idA}, whose)

		// Every request shows the client id it carried; a Bearer request carries none.
		type seen struct{ path, auth, clientID string }
		var got []seen
		for _, r := range srv.Requests() {
			got = append(got, seen{r.Path, r.Auth, r.ClientID})
		}
		assert.Equal(t, []seen{
			{"/v1/quote/travel", "basic", idA},
			{"/v1/quote/travel", "basic", idB},
			{"/v1/quote/travel", "basic", idA},
			{"/v1/purchase/tuition", "basic", idB},
			{"/v1/purchase/tuition", "basic", idB},
			{"/v1/quote/gap-medical", "client-id", idA},
			{"/v1/auth/customer/secret", "basic", idB},
			{"/v1/purchase/gap-medical", "bearer", ""},
			{"/v1/auth/customer/secret", "basic", idA},
			{"/v1/purchase/gap-medical", "bearer", ""},
		}, got)
	})
}

// The request log shows a client id only when it is a partner's: a secret sent where
// the id belongs is never shown.
func TestRequestsShowNoUnknownClientID(t *testing.T) {
	srv := newSandbox(t, insurancetest.InMemory())
	idB, secretB := srv.AddPartner()
	_, err := partnerClient(t, srv, secretB, idB).ListProducts(ctx) // swapped
	require.ErrorIs(t, err, insurance.ErrUnauthorized)
	_, err = partnerClient(t, srv, idB, "wrong").ListProducts(ctx)
	require.ErrorIs(t, err, insurance.ErrUnauthorized)

	requests := srv.Requests()
	require.Len(t, requests, 2)
	assert.Empty(t, requests[0].ClientID, "the secret in the id's place is not shown")
	assert.Equal(t, idB, requests[1].ClientID, "a partner's id with a wrong secret is shown: it is no secret")
	for _, r := range requests {
		assert.NotContains(t, r.Header.Get("Authorization"), "Basic")
	}
}

// A partner added over HTTP, as code in another language would: its credentials work
// through the SDK, and the controls list whose each record is.
func TestHTTPCredentialsControlAddsAPartner(t *testing.T) {
	srv := newSandbox(t)
	control := func(method, path, id, secret string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, nil)
		require.NoError(t, err)
		if id != "" {
			req.SetBasicAuth(id, secret)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(body)
	}

	status, _ := control("POST", "/sandbox/credentials", "", "")
	assert.Equal(t, http.StatusUnauthorized, status, "only a partner may add one")

	status, body := control("POST", "/sandbox/credentials", srv.ClientID, srv.ClientSecret)
	require.Equal(t, http.StatusCreated, status, body)
	var added struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &added))
	require.NotEmpty(t, added.ClientID)
	require.NotEmpty(t, added.ClientSecret)

	quote, err := partnerClient(t, srv, added.ClientID, added.ClientSecret).QuoteTravel(ctx, travelQuote("ada@example.com"))
	require.NoError(t, err)
	update := travelQuote("ada@example.com")
	update.QuoteID = quote.QuoteID
	_, err = srv.Client().QuoteTravel(ctx, update)
	assert.True(t, errors.Is(err, insurance.ErrBadRequest), "the first partner cannot update the new one's quote: %v", err)

	status, body = control("GET", "/sandbox/quotes", added.ClientID, added.ClientSecret)
	require.Equal(t, http.StatusOK, status, "the new partner may call the controls")
	assert.Contains(t, body, `"quote_id":"`+quote.QuoteID+`"`)
	assert.Contains(t, body, `"client_id":"`+added.ClientID+`"`)
	status, body = control("GET", "/sandbox/requests", added.ClientID, added.ClientSecret)
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `"client_id":"`+added.ClientID+`"`)
	assert.NotContains(t, body, added.ClientSecret)
}
