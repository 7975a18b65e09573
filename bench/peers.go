// Package bench compares the insurance SDK with what a partner would write or pick
// instead: a careful hand-written net/http + encoding/json client,
// github.com/hashicorp/go-retryablehttp and github.com/go-resty/resty/v2, each making
// the same call (a fully populated travel quote, POST /v1/quote/travel with Basic
// auth) against the same in-process loopback server.
//
// It is a module of its own so that the SDK's go.mod gains none of the peers. The
// benchmarks are in bench_test.go; run.sh runs them in interleaved rounds and
// cmd/peerbench turns the rounds, the connection counts and the latency percentiles
// into the tables of docs/performance.md.
package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/go-resty/resty/v2"
	"github.com/hashicorp/go-retryablehttp"

	"github.com/partnerinsure/insurance-go"
)

// Credentials every implementation sends, and the server checks.
const (
	ClientID     = "ci_partner_bench_1"
	ClientSecret = "cs_partner_bench_secret"
)

// QuotePath is the route every implementation calls.
const QuotePath = "/v1/quote/travel"

// QuoteBody is the server's answer: a realistic travel quote of 364 bytes, the same
// as the SDK's own benchmarks answer.
const QuoteBody = `{"quote_id":"q_5f2a9c0d1e7b3a44","product":"travel","status":"QUOTED","premium":128.75,"currency":"USD","customer_email_address":"ada@example.com","policy_attributes":{"trip_cost":2500.5,"trip_start_date":"2027-03-01","trip_end_date":"2027-03-15","coverage_type":"BASIC"},"created_at":"2026-11-21T04:41:18.373614249Z","updated_at":"2026-11-21T04:41:18.373614249Z"}`

// Server is a loopback httptest server answering QuotePath with 201 and QuoteBody.
// It answers 401 to a request without the Basic credentials and 404 to any other
// route, so a client that gets either wrong fails instead of measuring something
// else. It counts the TCP connections it accepts.
type Server struct {
	*httptest.Server
	opened atomic.Int64
}

// NewServer starts a Server. Close it when done.
func NewServer() *Server {
	s := &Server{}
	body := []byte(QuoteBody)
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		id, secret, ok := r.BasicAuth()
		switch {
		case r.Method != http.MethodPost || r.URL.Path != QuotePath:
			w.WriteHeader(http.StatusNotFound)
			return
		case !ok || id != ClientID || secret != ClientSecret:
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(body)
	}))
	s.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			s.opened.Add(1)
		}
	}
	s.Start()
	return s
}

// Opened returns how many TCP connections the server has accepted.
func (s *Server) Opened() int64 { return s.opened.Load() }

// TravelQuote returns the request every implementation sends: a travel quote with
// every field set.
func TravelQuote() *insurance.TravelQuoteRequest {
	return &insurance.TravelQuoteRequest{
		Customer: insurance.Customer{
			EmailAddress: "ada@example.com", FirstName: "Ada", MiddleName: "M", LastName: "Lovelace",
			PhoneNumber: "+15555550100", Street: "1 Main St", City: "Springfield", State: "IL",
			PostalCode: "62701", Country: "US",
		},
		Metadata:  map[string]any{"booking_id": "bk_42"},
		PartnerID: "partner_1",
		PolicyAttributes: insurance.TravelPolicyAttributes{
			TripCost:             2500.5,
			TripCostCurrency:     "USD",
			TripStartDate:        insurance.NewDate(2027, time.March, 1),
			TripEndDate:          insurance.NewDate(2027, time.March, 15),
			InitialDepositDate:   insurance.NewDate(2027, time.January, 10),
			Origin:               insurance.Origin{State: "IL", Country: "US"},
			DestinationCountries: []insurance.Country{"FR", "IT"},
			AdditionalTravelers:  []insurance.Traveler{{FirstName: "Charles", MiddleName: "B", LastName: "Babbage"}},
			CoverageType:         insurance.CoverageBasic,
		},
		QuoteID:    "q_123",
		EmailQuote: insurance.Bool(true),
		Language:   "en",
		Currency:   "USD",
	}
}

// Call sends the travel quote once and checks that the answer's quote id was decoded.
// A Call is safe for concurrent use: all goroutines share one client.
type Call func(ctx context.Context) error

// Impl is one way of making the call.
type Impl struct {
	Name string                             // as in the benchmark names: hand, retryablehttp, resty, sdk
	New  func(baseURL string) (Call, error) // builds one client for baseURL
}

// Impls returns the implementations in the order the tables list them, the
// hand-written baseline first.
func Impls() []Impl {
	return []Impl{
		{Name: "hand", New: newHand},
		{Name: "retryablehttp", New: newRetryableHTTP},
		{Name: "resty", New: newResty},
		{Name: "sdk", New: newSDK},
	}
}

// quoteAnswer holds what every implementation decodes: the fields the SDK's
// insurance.Quote decodes.
type quoteAnswer struct {
	QuoteID string `json:"quote_id"`
}

var errNoQuoteID = errors.New("no quote_id in the answer")

func (q *quoteAnswer) check() error {
	if q.QuoteID == "" {
		return errNoQuoteID
	}
	return nil
}

// newHand is the baseline: what a careful engineer writes with net/http alone, the
// same as handWritten in the SDK's bench_test.go, with a pooled transport that keeps
// up to 64 idle connections to the host and opens no more than 64.
func newHand(baseURL string) (Call, error) {
	hc := &http.Client{Transport: &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		DialContext:         (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: 64,
		MaxConnsPerHost:     64,
		IdleConnTimeout:     90 * time.Second,
	}}
	in := TravelQuote()
	return func(ctx context.Context) error {
		body, err := json.Marshal(in)
		if err != nil {
			return err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+QuotePath, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("User-Agent", "hand-written/1.0")
		req.SetBasicAuth(ClientID, ClientSecret)
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		return decode(resp, &quoteAnswer{})
	}, nil
}

// newRetryableHTTP uses go-retryablehttp directly with the client of
// retryablehttp.NewClient(), its transport and retry policy untouched. Only its
// logger is turned off: by default it writes a line per request to stderr.
func newRetryableHTTP(baseURL string) (Call, error) {
	c := retryablehttp.NewClient()
	c.Logger = nil
	in := TravelQuote()
	return func(ctx context.Context) error {
		body, err := json.Marshal(in)
		if err != nil {
			return err
		}
		req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, baseURL+QuotePath, body)
		if err != nil {
			return err
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("User-Agent", "retryablehttp-peer/1.0")
		req.SetBasicAuth(ClientID, ClientSecret)
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		return decode(resp, &quoteAnswer{})
	}, nil
}

// decode reads the whole body, closes it, and decodes a 2xx answer into q.
func decode(resp *http.Response, q *quoteAnswer) error {
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode > 299 {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	if err := json.Unmarshal(raw, q); err != nil {
		return err
	}
	return q.check()
}

// newResty uses resty v2 as its documentation shows: resty.New() with its default
// transport, the base URL and Basic auth set once on the client, the request body
// and the result struct on each request. Only its warnings are turned off: over the
// loopback's plain HTTP it logs a line per request about Basic auth without TLS.
func newResty(baseURL string) (Call, error) {
	c := resty.New().
		SetDisableWarn(true).
		SetBaseURL(baseURL).
		SetBasicAuth(ClientID, ClientSecret).
		SetHeader("Accept", "application/json").
		SetHeader("User-Agent", "resty-peer/1.0")
	in := TravelQuote()
	return func(ctx context.Context) error {
		var q quoteAnswer
		resp, err := c.R().SetContext(ctx).SetBody(in).SetResult(&q).Post(QuotePath)
		if err != nil {
			return err
		}
		if resp.IsError() {
			return fmt.Errorf("status %d", resp.StatusCode())
		}
		return q.check()
	}, nil
}

// newSDK is the SDK as its README shows it: NewClient with credentials and nothing
// else, so its default transport and retry policy.
func newSDK(baseURL string) (Call, error) {
	c, err := insurance.NewClient(baseURL, insurance.WithCredentials(ClientID, ClientSecret))
	if err != nil {
		return nil, err
	}
	in := TravelQuote()
	return func(ctx context.Context) error {
		q, err := c.QuoteTravel(ctx, in)
		if err != nil {
			return err
		}
		if q.QuoteID == "" {
			return errNoQuoteID
		}
		return nil
	}, nil
}
