package insurancetest_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// seededRun makes one of every id the sandbox makes, through the SDK, and returns
// them in order, named.
func seededRun(t *testing.T, opts ...insurancetest.Option) [][2]string {
	t.Helper()
	srv := newSandbox(t, opts...)
	var ids [][2]string
	add := func(name, id string) {
		require.NotEmpty(t, id, name)
		ids = append(ids, [2]string{name, id})
	}
	add("client id", srv.ClientID)
	add("client secret", srv.ClientSecret)
	idB, secretB := srv.AddPartner()
	add("added client id", idB)
	add("added client secret", secretB)

	client := srv.Client()
	travel, err := client.QuoteTravel(ctx, travelQuote("ada@example.com"))
	require.NoError(t, err)
	add("travel quote", travel.QuoteID)
	add("request id", travel.RequestID())
	gap, err := srv.Client(insurance.WithClientID(srv.ClientID)).QuoteGapMedical(ctx, gapMedicalQuote("ada@example.com"))
	require.NoError(t, err)
	add("gap-medical quote", gap.QuoteID)
	secret, err := client.CreateCustomerSecret(ctx, "ada@example.com")
	require.NoError(t, err)
	add("customer secret", secret.Secret)
	gapPolicy, err := client.PurchaseGapMedical(ctx, secret.Secret, &insurance.GapMedicalPurchaseRequest{
		QuoteID: gap.QuoteID, PaymentMethod: insurance.PaymentMethod{Token: insurancetest.TokenOK},
	})
	require.NoError(t, err)
	add("gap-medical policy", gapPolicy.PolicyID)
	tuition := srv.NewTuitionQuoteFor(idB, "ada@example.com")
	add("tuition quote", tuition)
	tuitionPolicy, err := partnerClient(t, srv, idB, secretB).PurchaseTuition(ctx, tuitionByCard(tuition, insurancetest.CardOK))
	require.NoError(t, err)
	add("tuition policy", tuitionPolicy.PolicyID)
	partner, err := client.OnboardPartner(ctx, &insurance.OnboardPartnerRequest{
		EntityName: "Acme", AdministrativeEmailAddress: "ops@acme.example", Country: insurance.CountryUS, Website: "https://acme.example",
	})
	require.NoError(t, err)
	add("onboarded partner", partner.ID)
	event, err := client.CreateEvent(ctx, &insurance.CreateEventRequest{
		EventName: "Summit", EventStartDate: insurance.NewDate(2027, time.June, 1), EventEndDate: insurance.NewDate(2027, time.June, 2),
	})
	require.NoError(t, err)
	add("event", event.ID)
	assert.Equal(t, uuid.Version(4), uuid.MustParse(partner.ID).Version(), "a seeded uuid is still a version 4 uuid")
	assert.Equal(t, uuid.Version(4), uuid.MustParse(event.ID).Version())
	return ids
}

// Two runs with one seed make the same ids, id for id, over loopback and in memory
// alike; another seed makes other ids; without a seed, ids are random.
func TestWithSeedRepeatsEveryID(t *testing.T) {
	first := seededRun(t, insurancetest.WithSeed(42))
	second := seededRun(t, insurancetest.WithSeed(42), insurancetest.InMemory())
	require.Len(t, second, len(first))
	for i := range first {
		assert.Equal(t, first[i], second[i], "the %s", first[i][0])
	}

	other := seededRun(t, insurancetest.WithSeed(43))
	random := seededRun(t)
	for i := range first {
		assert.NotEqual(t, first[i], other[i], "the %s under another seed", first[i][0])
		assert.NotEqual(t, first[i], random[i], "the %s without a seed", first[i][0])
	}
}

// Each kind of id has its own sequence: a quote more does not shift the policy ids,
// and Reset does not rewind the sequences (a stale id never names a new record).
func TestWithSeedKeepsEachKindOfIDApart(t *testing.T) {
	policyIDs := func(extraQuotes int) []string {
		srv := newSandbox(t, insurancetest.InMemory(), insurancetest.WithSeed(7))
		client := srv.Client()
		for range extraQuotes {
			_, err := client.QuoteTravel(ctx, travelQuote("ada@example.com"))
			require.NoError(t, err)
		}
		var ids []string
		for range 2 {
			p, err := client.PurchaseTuition(ctx, tuitionByCard(srv.NewTuitionQuote("ada@example.com"), insurancetest.CardOK))
			require.NoError(t, err)
			ids = append(ids, p.PolicyID)
			srv.Reset()
		}
		return ids
	}
	ids := policyIDs(0)
	assert.Equal(t, ids, policyIDs(3))
	assert.NotEqual(t, ids[0], ids[1], "Reset does not rewind the ids")
}
