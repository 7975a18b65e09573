package main

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// gapMedicalCheckout makes the gap-medical quote a browser's component would make.
func gapMedicalCheckout(t *testing.T, srv *insurancetest.Server) Checkout {
	t.Helper()
	c := Checkout{CustomerEmail: "ada@example.com", CoverageStart: insurance.NewDate(2027, time.April, 1)}
	quote, err := srv.Client(insurance.WithClientID(srv.ClientID)).QuoteGapMedical(context.Background(), &insurance.GapMedicalQuoteRequest{
		Customer:         insurance.Customer{EmailAddress: c.CustomerEmail},
		PolicyAttributes: insurance.GapMedicalPolicyAttributes{CoverageStartDate: c.CoverageStart},
	})
	require.NoError(t, err)
	c.QuoteID = quote.QuoteID
	return c
}

// purchasesSent counts the purchase requests the insurer received.
func purchasesSent(srv *insurancetest.Server, path string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Path == path {
			n++
		}
	}
	return n
}

// The insurer issued the gap-medical policy, then the connection dropped: the service
// does not charge again, and Reconcile learns from the quote that the policy exists.
func TestReconcileFindsAGapMedicalPolicyThatWasIssued(t *testing.T) {
	t.Parallel()
	srv := insurancetest.NewServer()
	defer srv.Close()
	log := NewMemoryLog()
	seller := &CoverSeller{Insurance: srv.Client(), Purchases: log}
	ctx := context.Background()
	checkout := gapMedicalCheckout(t, srv)
	secret, err := seller.StartCheckout(ctx, checkout.CustomerEmail)
	require.NoError(t, err)

	srv.Inject("POST /v1/purchase/gap-medical", insurancetest.Fault{Times: 1, Process: true, Drop: true})
	_, err = seller.FinishCheckout(ctx, secret, checkout, insurancetest.TokenOK)
	require.ErrorIs(t, err, ErrCheckStatus)
	_, err = seller.FinishCheckout(ctx, secret, checkout, insurancetest.TokenOK)
	require.ErrorIs(t, err, ErrCheckStatus, "not bought again before it is settled")

	settled, err := seller.Reconcile(ctx, 0)
	require.NoError(t, err)
	require.Len(t, settled, 1)
	assert.Equal(t, Bought, settled[0].State)
	assert.Equal(t, checkout.QuoteID, settled[0].QuoteID)
	require.Len(t, srv.Policies(), 1, "the sandbox agrees: the policy exists")

	_, err = seller.FinishCheckout(ctx, secret, checkout, insurancetest.TokenOK)
	assert.ErrorIs(t, err, ErrAlreadyCovered)
	assert.Equal(t, 1, purchasesSent(srv, "/v1/purchase/gap-medical"), "one purchase reached the insurer")
	settled, err = seller.Reconcile(ctx, 0)
	require.NoError(t, err)
	assert.Empty(t, settled, "nothing left to settle")
}

// A 503 before the insurer handled the purchase: the service cannot tell it from the
// case above, Reconcile can (the quote is answered as usual), and the customer may
// then buy.
func TestReconcileFreesAGapMedicalPurchaseThatNeverHappened(t *testing.T) {
	t.Parallel()
	srv := insurancetest.NewServer()
	defer srv.Close()
	seller := &CoverSeller{Insurance: srv.Client(), Purchases: NewMemoryLog()}
	ctx := context.Background()
	checkout := gapMedicalCheckout(t, srv)
	secret, err := seller.StartCheckout(ctx, checkout.CustomerEmail)
	require.NoError(t, err)

	srv.Inject("POST /v1/purchase/gap-medical", insurancetest.Fault{Times: 1, Status: 503})
	_, err = seller.FinishCheckout(ctx, secret, checkout, insurancetest.TokenOK)
	require.ErrorIs(t, err, ErrCheckStatus)

	settled, err := seller.Reconcile(ctx, 0)
	require.NoError(t, err)
	require.Len(t, settled, 1)
	assert.Equal(t, Failed, settled[0].State)
	assert.Empty(t, srv.Policies())

	policyID, err := seller.FinishCheckout(ctx, secret, checkout, insurancetest.TokenOK)
	require.NoError(t, err)
	assert.Equal(t, []string{policyID}, []string{srv.Policies()[0].PolicyID})
}

// The interface offers no way to learn a tuition purchase's outcome: Reconcile hands
// it to a person and the service never sends it again.
func TestReconcileLeavesTuitionToAPerson(t *testing.T) {
	t.Parallel()
	srv := insurancetest.NewServer()
	defer srv.Close()
	log := NewMemoryLog()
	seller := &CoverSeller{Insurance: srv.Client(), Purchases: log}
	ctx := context.Background()
	quoteID := srv.NewTuitionQuote("ada@example.com")

	srv.Inject("POST /v1/purchase/tuition", insurancetest.Fault{Times: 1, Process: true, Drop: true})
	_, err := seller.BuyTuitionCover(ctx, quoteID, insurance.Card{Number: insurancetest.CardOK})
	require.ErrorIs(t, err, ErrCheckStatus)

	settled, err := seller.Reconcile(ctx, 0)
	require.NoError(t, err)
	require.Len(t, settled, 1)
	assert.Equal(t, CheckWithInsurer, settled[0].State)

	_, err = seller.BuyTuitionCover(ctx, quoteID, insurance.Card{Number: insurancetest.CardOK})
	assert.ErrorIs(t, err, ErrCheckStatus)
	assert.Equal(t, 1, purchasesSent(srv, "/v1/purchase/tuition"), "never sent again")
	assert.Len(t, srv.Policies(), 1, "what the person will find at the insurer")
}

// A purchase still on its way is neither settled by Reconcile nor sent a second time;
// one left in Sending by a process that stopped is settled once the grace has passed.
// In fake time.
func TestReconcileWaitsOutPurchasesInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := insurancetest.NewServer(insurancetest.InMemory())
		log := NewMemoryLog()
		seller := &CoverSeller{Insurance: srv.Client(), Purchases: log, CallTimeout: 2 * time.Minute}
		ctx := context.Background()
		checkout := gapMedicalCheckout(t, srv)
		secret, err := seller.StartCheckout(ctx, checkout.CustomerEmail)
		require.NoError(t, err)

		srv.Inject("POST /v1/purchase/gap-medical", insurancetest.Fault{Times: 1, Delay: 50 * time.Second}) // within the attempt bound
		done := make(chan error, 1)
		go func() {
			_, err := seller.FinishCheckout(ctx, secret, checkout, insurancetest.TokenOK)
			done <- err
		}()
		time.Sleep(10 * time.Second) // the purchase waits at the insurer

		_, err = seller.FinishCheckout(ctx, secret, checkout, insurancetest.TokenOK)
		assert.ErrorIs(t, err, ErrInProgress)
		settled, err := seller.Reconcile(ctx, 5*time.Minute)
		require.NoError(t, err)
		assert.Empty(t, settled, "in flight for 10s: within the grace")
		require.NoError(t, <-done)
		p, _ := log.Get(checkout.QuoteID)
		assert.Equal(t, Bought, p.State)

		// A process that stopped right after recording its intent.
		stranded := gapMedicalCheckout(t, srv)
		_, begun, err := log.Begin(ctx, Purchase{QuoteID: stranded.QuoteID, Product: ProductGapMedical,
			CustomerEmail: stranded.CustomerEmail, CoverageStart: stranded.CoverageStart})
		require.NoError(t, err)
		require.True(t, begun)
		settled, err = seller.Reconcile(ctx, 5*time.Minute)
		require.NoError(t, err)
		assert.Empty(t, settled, "too recent to tell from one in flight")
		time.Sleep(6 * time.Minute)
		settled, err = seller.Reconcile(ctx, 5*time.Minute)
		require.NoError(t, err)
		require.Len(t, settled, 1)
		assert.Equal(t, Failed, settled[0].State, "the quote is answered as usual: nothing was bought")
	})
}
