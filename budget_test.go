package insurance_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// burst runs 64 goroutines making each calls of call at once, and returns the errors.
func burst(each int, call func() error) []error {
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for range 64 {
		wg.Go(func() {
			for range each {
				if err := call(); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	return errs
}

// During a full outage the retry budget holds a burst of 64 goroutines making 20
// quotes each to at most 1.25 requests a call; without it every call sends three.
// Every call still ends with the service's answer, a 503.
func TestTheRetryBudgetBoundsAFullOutage(t *testing.T) {
	for _, tc := range []struct {
		name        string
		opts        []insurance.Option
		min, max    float64 // requests per call
		budgetSpent bool
	}{
		{"default budget", nil, 1.0, 1.25, true},
		{"no budget", []insurance.Option{insurance.WithRetryBudget(0, 0)}, 3.0, 3.0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
				srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Status: http.StatusServiceUnavailable})
				c := srv.Client(tc.opts...)

				errs := burst(20, func() error { _, err := c.QuoteTravel(context.Background(), fullTravelQuote()); return err })

				require.Equal(t, 64*20, len(errs), "every call fails with the outage")
				refused := 0
				for _, err := range errs {
					var apiErr *insurance.APIError
					require.ErrorAs(t, err, &apiErr)
					require.ErrorIs(t, err, insurance.ErrServer)
					if apiErr.BudgetRefused {
						refused++
						assert.Contains(t, err.Error(), "retry budget is spent")
					}
				}
				perCall := float64(len(srv.Requests())) / (64 * 20)
				t.Logf("%d requests for %d calls: %.3f a call; %d retries refused", len(srv.Requests()), 64*20, perCall, refused)
				assert.GreaterOrEqual(t, perCall, tc.min)
				assert.LessOrEqual(t, perCall, tc.max)
				assert.Equal(t, tc.budgetSpent, refused > 0)
			})
		})
	}
}

// failEvery answers 503 to every nth request it sees, and passes the others on.
type failEvery struct {
	n    int64
	seen atomic.Int64
	next http.RoundTripper
}

func (f *failEvery) RoundTrip(req *http.Request) (*http.Response, error) {
	if f.seen.Add(1)%f.n == 0 {
		return &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{}, Body: http.NoBody, Request: req}, nil
	}
	return f.next.RoundTrip(req)
}

// A blip is still retried at any volume: when one attempt in 20 fails, every call of
// a burst of 64 goroutines succeeds, with 20 calls each or with 200.
func TestTheRetryBudgetStillRetriesABlip(t *testing.T) {
	for _, each := range []int{20, 200} {
		inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
			blip := &failEvery{n: 20, next: srv.HTTPClient().Transport}
			c := srv.Client(insurance.WithHTTPClient(&http.Client{Transport: blip}))

			newQuote := fullTravelQuote()
			newQuote.QuoteID = ""
			errs := burst(each, func() error { _, err := c.QuoteTravel(context.Background(), newQuote); return err })

			assert.Zero(t, len(errs), "failed calls of %d", 64*each)
			assert.Equal(t, int64(64*each)+blip.seen.Load()/20, blip.seen.Load(), "one retry per failed attempt")
		})
	}
}

// Clients derived with With draw on the budget of the client they came from: once
// one has spent it, the other's retries are refused too, and says so.
func TestDerivedClientsShareTheRetryBudget(t *testing.T) {
	inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Status: http.StatusServiceUnavailable})
		parent := srv.Client(insurance.WithRetryBudget(10, 5))
		derived, err := parent.With(insurance.WithUserAgent("agency-7"))
		require.NoError(t, err)

		_, err = parent.QuoteTravel(context.Background(), fullTravelQuote())
		require.ErrorIs(t, err, insurance.ErrServer)
		assert.Equal(t, 3, len(srv.Requests()), "the first call spends the budget on its two retries")

		_, err = derived.QuoteTravel(context.Background(), fullTravelQuote())
		var apiErr *insurance.APIError
		require.ErrorAs(t, err, &apiErr)
		assert.True(t, apiErr.BudgetRefused)
		assert.True(t, strings.HasSuffix(err.Error(), "(not retried: the client's retry budget is spent)"), err.Error())
		assert.Equal(t, 4, len(srv.Requests()), "the derived client's call is sent once")

		own, err := parent.With(insurance.WithRetryBudget(10, 5))
		require.NoError(t, err)
		_, err = own.QuoteTravel(context.Background(), fullTravelQuote())
		require.ErrorAs(t, err, &apiErr)
		assert.False(t, apiErr.BudgetRefused, "WithRetryBudget gives a derived client a budget of its own")
		assert.Equal(t, 7, len(srv.Requests()))
	})
}

// A transport failure whose retry the budget refuses is a *RequestError that says so.
func TestARefusedRetryOfAFailedConnectionSaysSo(t *testing.T) {
	inFakeTime(t, func(t *testing.T, srv *insurancetest.Server) {
		srv.Inject("POST /v1/quote/travel", insurancetest.Fault{Drop: true})
		c := srv.Client(insurance.WithRetryBudget(5, 5))

		_, err := c.QuoteTravel(context.Background(), fullTravelQuote())
		var reqErr *insurance.RequestError
		require.ErrorAs(t, err, &reqErr)
		assert.Equal(t, 2, reqErr.Attempts)
		assert.True(t, reqErr.BudgetRefused)
		assert.Contains(t, err.Error(), "retry budget is spent")
		assert.False(t, errors.Is(err, insurance.ErrOutcomeUnknown))
	})
}
