package insurance_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

func TestDecodeFullResponses(t *testing.T) {
	c, mt := wiretest.NewMockClient(t)
	ctx := context.Background()
	for _, ep := range wiretest.Endpoints() {
		var rec wiretest.Recorder
		mt.RegisterResponder(ep.Method, wiretest.BaseURL+ep.Path, rec.Respond(ep.Status, wiretest.Fixture(t, ep.Response)))
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
		q, err := c.QuoteTravel(ctx, wiretest.FullTravelQuote())
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

		q, err = c.QuoteGapMedical(ctx, wiretest.FullGapMedicalQuote())
		require.NoError(t, err)
		assert.False(t, q.Created, "200 means updated")
	})

	t.Run("policy", func(t *testing.T) {
		p, err := c.PurchaseTuition(ctx, wiretest.FullTuitionPurchase())
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
		p, err := c.OnboardPartner(ctx, wiretest.FullOnboardPartner())
		require.NoError(t, err)
		assert.Equal(t, &insurance.Partner{
			Response:                         p.Response,
			ID:                               "7d444840-9dc0-11d1-b245-5ffdce74fad2",
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
		e, err := c.CreateEvent(ctx, wiretest.FullCreateEvent())
		require.NoError(t, err)
		assert.Equal(t, &insurance.Event{
			Response:                  e.Response,
			ID:                        "0b6e6a1e-3a59-4b5a-9f4e-2b1f7c1d2e3f",
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

func TestOversizedSuccessBodyIsRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(100<<20))
		w.WriteHeader(200)
		chunk := make([]byte, 64<<10)
		for i := 0; i < (100<<20)/len(chunk); i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	c := wiretest.NewLoopbackClient(t, srv.URL)

	_, err := c.ListProducts(context.Background())
	assert.ErrorIs(t, err, insurance.ErrResponseTooLarge)
	assert.Equal(t, "insurance: response body exceeds 16 MiB", insurance.ErrResponseTooLarge.Error())
}

func TestOversizedChunkedBodyIsCutAtTheCap(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(200) // no Content-Length: chunked
		chunk := make([]byte, 64<<10)
		for i := 0; i < (32<<20)/len(chunk); i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	c := wiretest.NewLoopbackClient(t, srv.URL)

	_, err := c.ListProducts(context.Background())
	var reqErr *insurance.RequestError
	require.ErrorAs(t, err, &reqErr)
	assert.ErrorIs(t, err, insurance.ErrResponseTooLarge)
	assert.Len(t, reqErr.Body, 16<<20)
}

// The interface types a partner's and an event's id as a uuid; a service that sends
// another id has still created the record: the call succeeds, with the id as sent.
func TestARecordWhoseIDIsNotAUUIDIsStillASuccess(t *testing.T) {
	c, mt := wiretest.NewMockClient(t)
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/partners/onboard", httpmock.NewStringResponder(201, `{"id":"ptn_123","entity_name":"Acme Travel"}`))
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/events", httpmock.NewStringResponder(201, `{"id":"evt_9","event_name":"Summit"}`))

	partner, err := c.OnboardPartner(context.Background(), wiretest.FullOnboardPartner())
	require.NoError(t, err)
	assert.Equal(t, "ptn_123", partner.ID)
	event, err := c.CreateEvent(context.Background(), wiretest.FullCreateEvent())
	require.NoError(t, err)
	assert.Equal(t, "evt_9", event.ID)
}

// nulAnswers answers the first n requests as Apache's mod_http2 did to quotes it never
// forwarded during a graceful restart (201 with a body of NUL bytes), then properly,
// and counts what it received.
func nulAnswers(t *testing.T, n int32) (*httptest.Server, *atomic.Int32) {
	var received atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusCreated)
		if received.Add(1) <= n {
			_, _ = w.Write(make([]byte, 48))
			return
		}
		_, _ = io.WriteString(w, wiretest.CreatedBody)
	}))
	t.Cleanup(srv.Close)
	return srv, &received
}

// A 2xx whose body is not JSON, to a call that decodes it, is retried like a broken
// connection when the call is idempotent; a purchase is never sent again, and is
// outcome unknown, saying why.
func TestACorruptAnswerIsRetriedOnlyWhereSafe(t *testing.T) {
	srv, received := nulAnswers(t, 1)
	c := wiretest.NewLoopbackClient(t, srv.URL)
	quote, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.NoError(t, err)
	assert.Equal(t, "q_1", quote.QuoteID)
	assert.EqualValues(t, 2, received.Load(), "the quote was asked again")

	srv, received = nulAnswers(t, 1)
	c = wiretest.NewLoopbackClient(t, srv.URL)
	_, err = c.PurchaseTuition(context.Background(), wiretest.FullTuitionPurchase())
	require.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
	var reqErr *insurance.RequestError
	require.ErrorAs(t, err, &reqErr)
	assert.Equal(t, "the server answered 201 Created, but its body is cut or not JSON", reqErr.Why)
	assert.Contains(t, err.Error(), reqErr.Why, "an outcome-unknown error says why")
	assert.Len(t, reqErr.Body, 48, "the body is kept")
	assert.EqualValues(t, 1, received.Load(), "a purchase is sent once")

	srv, received = nulAnswers(t, 3)
	c = wiretest.NewLoopbackClient(t, srv.URL)
	_, err = c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.ErrorAs(t, err, &reqErr)
	assert.EqualValues(t, 3, received.Load(), "within the bound: 1 + MaxRetries")
	assert.NotErrorIs(t, err, insurance.ErrOutcomeUnknown)
}

// A call that does not decode its answer is never judged by its body: Do with a nil
// out keeps whatever came.
func TestDoWithoutOutIsNotJudgedByItsBody(t *testing.T) {
	srv, received := nulAnswers(t, 1)
	c := wiretest.NewLoopbackClient(t, srv.URL)
	res, err := c.Do(context.Background(), http.MethodGet, "/v1/pets", insurance.AuthBasic, nil, nil)
	require.NoError(t, err)
	assert.Len(t, res.Raw, 48)
	assert.EqualValues(t, 1, received.Load())
}
