package insurance_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/pipeline"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

func TestNewClientChecksTheBaseURL(t *testing.T) {
	tests := []struct {
		url     string
		opts    []insurance.Option
		wantErr string // "" means accepted
		wantURL string
	}{
		{url: "https://api.example.com", wantURL: "https://api.example.com"},
		{url: "https://api.example.com/", wantURL: "https://api.example.com"},
		{url: "https://api.example.com/prefix/", wantURL: "https://api.example.com/prefix"},
		{url: "http://127.0.0.1:8080", wantURL: "http://127.0.0.1:8080"},
		{url: "http://127.5.5.5", wantURL: "http://127.5.5.5"},
		{url: "http://localhost:9000", wantURL: "http://localhost:9000"},
		{url: "http://[::1]:9000", wantURL: "http://[::1]:9000"},
		{url: "http://sandbox.internal", opts: []insurance.Option{insurance.WithInsecureHTTP()}, wantURL: "http://sandbox.internal"},
		{url: "http://api.example.com", wantErr: "clear text"},
		{url: "http://10.0.0.1", wantErr: "clear text"},
		{url: "", wantErr: "http or https"},
		{url: "api.example.com", wantErr: `base URL "api.example.com" has no scheme: did you mean "https://api.example.com"?`},
		{url: "//api.example.com", wantErr: `did you mean "https://api.example.com"?`},
		{url: "https://api.example.com//", wantURL: "https://api.example.com"},
		{url: "https://api.example.com/prefix//", wantURL: "https://api.example.com/prefix"},
		{url: "https://api.example.com/v1", wantErr: `ends in /v1, which the SDK adds to every path: use "https://api.example.com"`},
		{url: "https://api.example.com/partner/v1/", wantErr: `use "https://api.example.com/partner"`},
		{url: "https://api.example.com/v10", wantURL: "https://api.example.com/v10"},
		{url: "ftp://api.example.com", wantErr: "http or https"},
		{url: "https://", wantErr: "no host"},
		{url: "https://:443", wantErr: "no host"},
		{url: "https://user:pw@api.example.com", wantErr: "user info"},
		{url: "ci_1:cs_SECRET@api.example.com", wantErr: "user info"},
		{url: "ftp://id:cs_SECRET@host", wantErr: "user info"},
		{url: "https://id:cs_SECRET@host/%zz", wantErr: "user info"},
		{url: "https://api.example.com?x=1", wantErr: "query"},
		{url: "https://api.example.com/%zz?token=SECRET", wantErr: "malformed"},
		{url: "https://api.example.com/?token=SECRET", wantErr: "query"},
		{url: "https://api.example.com/#frag", wantErr: "query or fragment"},
		{url: "https://api.example.com/%zz", wantErr: "malformed"},
		{url: "ht tp://x", wantErr: "malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			c, err := insurance.NewClient(tt.url, tt.opts...)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				assert.NotContains(t, err.Error(), "SECRET", "a base URL's user info is never repeated")
				assert.Nil(t, c)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.wantURL, c.BaseURL())
		})
	}
}

func TestNewClientFromEnv(t *testing.T) {
	t.Run("full credentials", func(t *testing.T) {
		t.Setenv(insurance.EnvBaseURL, wiretest.BaseURL)
		t.Setenv(insurance.EnvClientID, wiretest.ClientID)
		t.Setenv(insurance.EnvClientSecret, wiretest.ClientSecret)
		c, err := insurance.NewClientFromEnv()
		require.NoError(t, err)
		assert.Equal(t, wiretest.BaseURL, c.BaseURL())
		assert.Contains(t, fmt.Sprintf("%v", c), `ClientID: "`+wiretest.ClientID+`"`)
	})
	t.Run("client id only", func(t *testing.T) {
		t.Setenv(insurance.EnvBaseURL, wiretest.BaseURL)
		t.Setenv(insurance.EnvClientID, wiretest.ClientID)
		t.Setenv(insurance.EnvClientSecret, "")
		c, err := insurance.NewClientFromEnv()
		require.NoError(t, err)
		_, err = c.ListProducts(context.Background())
		assert.ErrorIs(t, err, insurance.ErrMissingCredentials, "a client-id-only client cannot make Basic calls")
	})
	t.Run("no base URL", func(t *testing.T) {
		t.Setenv(insurance.EnvBaseURL, "")
		_, err := insurance.NewClientFromEnv()
		assert.ErrorContains(t, err, insurance.EnvBaseURL)
	})
	t.Run("secret without id", func(t *testing.T) {
		t.Setenv(insurance.EnvBaseURL, wiretest.BaseURL)
		t.Setenv(insurance.EnvClientID, "")
		t.Setenv(insurance.EnvClientSecret, wiretest.ClientSecret)
		_, err := insurance.NewClientFromEnv()
		assert.ErrorContains(t, err, insurance.EnvClientID)
		assert.NotContains(t, err.Error(), wiretest.ClientSecret)
	})
	t.Run("options win over the environment", func(t *testing.T) {
		t.Setenv(insurance.EnvBaseURL, wiretest.BaseURL)
		t.Setenv(insurance.EnvClientID, "from-env")
		t.Setenv(insurance.EnvClientSecret, "env-secret")
		c, err := insurance.NewClientFromEnv(insurance.WithClientID("from-option"))
		require.NoError(t, err)
		assert.Contains(t, fmt.Sprintf("%v", c), "from-option")
	})
}

// agencyServer answers every quote 201 after a short pause, counting the connections
// it accepts, and notes each request whose Basic client id is not the agency named in
// its metadata.
type agencyServer struct {
	*httptest.Server
	opened    atomic.Int32
	mu        sync.Mutex
	mismatch  []string
	perAgency map[string]int
}

func newAgencyServer(t *testing.T) *agencyServer {
	s := &agencyServer{perAgency: map[string]int{}}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Metadata struct {
				Agency string `json:"agency"`
			} `json:"metadata"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		raw, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(r.Header.Get("Authorization"), "Basic "))
		clientID, _, _ := strings.Cut(string(raw), ":")
		s.mu.Lock()
		s.perAgency[clientID]++
		if clientID != body.Metadata.Agency {
			s.mismatch = append(s.mismatch, clientID+" sent for "+body.Metadata.Agency)
		}
		s.mu.Unlock()
		time.Sleep(2 * time.Millisecond)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"quote_id":"q_1"}`))
	}))
	s.Config.ConnState = func(_ net.Conn, state http.ConnState) {
		if state == http.StateNew {
			s.opened.Add(1)
		}
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// agencyQuote is a quote a platform makes for an agency, naming it in its metadata.
func agencyQuote(agency string) *insurance.TravelQuoteRequest {
	q := wiretest.FullTravelQuote()
	q.QuoteID = ""
	q.Metadata = map[string]any{"agency": agency}
	return q
}

// quoteFor200 makes 200 concurrent quotes, the nth for agency n%50 with client(n%50).
func quoteFor200(t *testing.T, client func(agency int) *insurance.Client) {
	var wg sync.WaitGroup
	for n := range 200 {
		wg.Go(func() {
			agency := n % 50
			_, err := client(agency).QuoteTravel(context.Background(), agencyQuote(fmt.Sprintf("agency_%d", agency)))
			assert.NoError(t, err)
		})
	}
	wg.Wait()
}

func agencyCredentials(agency int) insurance.Option {
	return insurance.WithCredentials(fmt.Sprintf("agency_%d", agency), fmt.Sprintf("secret_%d", agency))
}

// Fifty clients derived with With from one Client, one per agency, make 200
// concurrent calls over one pool: no more connections than one client opens, and
// every request carries its own agency's credentials. Fifty clients built apart open
// a pool each.
func TestFiftyDerivedClientsShareOnePool(t *testing.T) {
	idle := func() (goroutines int, heapKiB uint64) {
		var m runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m)
		return runtime.NumGoroutine(), m.HeapInuse >> 10
	}
	shared := newAgencyServer(t)
	parent := wiretest.NewLoopbackClient(t, shared.URL)
	derived := make([]*insurance.Client, 50)
	g0, h0 := idle()
	for i := range derived {
		c, err := parent.With(agencyCredentials(i))
		require.NoError(t, err)
		derived[i] = c
	}
	assert.Equal(t, g0, runtime.NumGoroutine(), "With starts no goroutine")
	assert.Zero(t, shared.opened.Load(), "With opens no connection")

	apart := newAgencyServer(t)
	separate := make([]*insurance.Client, 50)
	for i := range separate {
		separate[i] = wiretest.NewLoopbackClient(t, apart.URL, agencyCredentials(i))
	}
	quoteFor200(t, func(agency int) *insurance.Client { return separate[agency] })
	gApart, hApart := idle()
	for _, c := range separate {
		c.CloseIdleConnections()
	}
	apart.CloseClientConnections()
	for range 100 { // until the closed connections' goroutines are gone
		if runtime.NumGoroutine() <= g0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}

	quoteFor200(t, func(agency int) *insurance.Client { return derived[agency] })
	gShared, hShared := idle()

	t.Logf("200 concurrent calls of 50 agencies, then idle (both servers' goroutines included):\n"+
		"  50 separate clients: %d connections, %d goroutines, %d KiB more heap\n"+
		"  50 derived clients:  %d connections, %d goroutines, %d KiB more heap",
		apart.opened.Load(), gApart-g0, hApart-min(hApart, h0), shared.opened.Load(), gShared-g0, hShared-min(hShared, h0))
	assert.LessOrEqual(t, shared.opened.Load(), int32(pipeline.MaxConnsPerHost), "one client's bound")
	assert.Greater(t, apart.opened.Load(), shared.opened.Load())
	assert.Empty(t, shared.mismatch, "requests carrying another agency's credentials")
	assert.Len(t, shared.perAgency, 50)
	for agency, n := range shared.perAgency {
		assert.Equal(t, 4, n, agency)
	}
}

// With leaves the Client it derives from unchanged: the derived one sends its own
// credentials, the parent still its own.
func TestWithLeavesTheParentUnchanged(t *testing.T) {
	c, mt := wiretest.NewMockClient(t)
	var auth []string
	mt.RegisterResponder("POST", wiretest.BaseURL+"/v1/quote/travel", func(r *http.Request) (*http.Response, error) {
		auth = append(auth, r.Header.Get("Authorization")+"|"+r.Header.Get(insurance.HeaderClientID))
		return httpmock.NewStringResponse(201, `{"quote_id":"q_1"}`), nil
	})
	public, err := c.With(insurance.WithClientID("ci_public"))
	require.NoError(t, err)

	_, err = public.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.NoError(t, err)
	_, err = c.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.NoError(t, err)
	assert.Equal(t, []string{"|ci_public", wiretest.BasicHeader + "|"}, auth)
	_, err = public.ListProducts(context.Background())
	assert.ErrorIs(t, err, insurance.ErrMissingCredentials, "WithClientID dropped the secret in the derived client only")
}

// An empty client id or secret is missing credentials, in NewClient and in With.
func TestEmptyCredentialsAreMissingCredentials(t *testing.T) {
	for _, opt := range []insurance.Option{
		insurance.WithCredentials("agency_1", ""),
		insurance.WithCredentials("", "secret"),
		insurance.WithClientID(""),
	} {
		_, err := insurance.NewClient(wiretest.BaseURL, opt)
		assert.ErrorIs(t, err, insurance.ErrMissingCredentials)
		c, _ := wiretest.NewMockClient(t)
		_, err = c.With(opt)
		assert.ErrorIs(t, err, insurance.ErrMissingCredentials)
	}
}

// WithHTTPClient gives a derived client pools of its own: its requests no longer go
// through the parent's transport.
func TestWithHTTPClientGivesADerivedClientItsOwnPools(t *testing.T) {
	parent, parentMock := wiretest.NewMockClient(t)
	parentMock.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
		return httpmock.NewStringResponse(201, `{"quote_id":"q_p"}`), nil
	})
	ownMock := httpmock.NewMockTransport()
	ownMock.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
		return httpmock.NewStringResponse(201, `{"quote_id":"q_own"}`), nil
	})

	derived, err := parent.With(insurance.WithHTTPClient(&http.Client{Transport: ownMock}))
	require.NoError(t, err)
	q, err := derived.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.NoError(t, err)
	assert.Equal(t, "q_own", q.QuoteID)
	assert.Zero(t, parentMock.GetTotalCallCount())
}

// countingObserver counts the calls it sees.
type countingObserver struct{ calls atomic.Int32 }

func (o *countingObserver) StartCall(ctx context.Context, _ insurance.CallInfo) context.Context {
	o.calls.Add(1)
	return ctx
}
func (o *countingObserver) StartAttempt(context.Context, insurance.AttemptInfo)               {}
func (o *countingObserver) EndCall(context.Context, insurance.CallInfo, insurance.CallResult) {}

// Observers carry over to a derived client, and those given to With are added to
// them: a platform's otel observer keeps seeing the calls of a partner's client that
// has an observer of its own.
func TestObserversCarryOverAndWithAddsToThem(t *testing.T) {
	inherited, added := &countingObserver{}, &countingObserver{}
	parent, mt := wiretest.NewMockClient(t, insurance.WithObserver(inherited))
	mt.RegisterNoResponder(func(*http.Request) (*http.Response, error) {
		return httpmock.NewStringResponse(201, `{"quote_id":"q_1"}`), nil
	})

	same, err := parent.With(insurance.WithUserAgent("agency-1"))
	require.NoError(t, err)
	_, err = same.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.NoError(t, err)
	assert.EqualValues(t, 1, inherited.calls.Load())

	other, err := parent.With(insurance.WithObserver(added))
	require.NoError(t, err)
	_, err = other.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.NoError(t, err)
	assert.EqualValues(t, 2, inherited.calls.Load(), "a derived client keeps its parent's observers (otel's, say)")
	assert.EqualValues(t, 1, added.calls.Load())

	_, err = parent.QuoteTravel(context.Background(), wiretest.FullTravelQuote())
	require.NoError(t, err)
	assert.EqualValues(t, 3, inherited.calls.Load())
	assert.EqualValues(t, 1, added.calls.Load(), "the parent is left as it was")
}

// WithRecordIdleTimeout gives a derived client a pool of its own for record-creating
// calls only: its quotes still ride the parent's connections.
func TestWithRecordIdleTimeoutKeepsTheSharedQuotePool(t *testing.T) {
	srv := newAgencyServer(t)
	parent := wiretest.NewLoopbackClient(t, srv.URL)
	derived, err := parent.With(insurance.WithRecordIdleTimeout(insurance.RecordKeepAliveOff))
	require.NoError(t, err)
	for _, c := range []*insurance.Client{parent, derived, parent, derived} {
		_, err := c.QuoteTravel(context.Background(), agencyQuote(wiretest.ClientID))
		require.NoError(t, err)
	}
	assert.EqualValues(t, 1, srv.opened.Load(), "one connection for both clients' quotes")
}
