package insurancetest_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

func TestLatency(t *testing.T) {
	srv := newSandbox(t, insurancetest.WithLatency(200*time.Millisecond))
	c, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, err := srv.Client().ListProducts(c)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "%v", err)
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
