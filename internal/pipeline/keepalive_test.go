package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// Purchases against servers that close idle connections: a purchase is never called
// "outcome unknown" when it never reached the server, and never reaches it twice.

var soak = flag.Bool("soak", false, "run the keep-alive soak (about a minute): go test -run TestKeepAliveSoak -soak -v ./internal/pipeline")

// keepAliveRun sends purchases from goroutines, each waiting a gap drawn from
// [gapMin, gapMax] before every purchase, to a server that closes connections idle
// for serverIdle. Every purchase carries its own quote id, so duplicates show.
type keepAliveRun struct {
	serverIdle       time.Duration
	opts             []insurance.Option
	goroutines, each int
	gapMin, gapMax   time.Duration
}

type keepAliveResult struct {
	calls, succeeded  int
	outcomeUnknown    int // purchases that failed with ErrOutcomeUnknown
	falseUnknown      int // ... of which the server never received the purchase
	otherErrors       int
	received, duplics int // requests the server received; quote ids it received more than once
}

func (r keepAliveRun) run(t *testing.T) keepAliveResult {
	t.Helper()
	var mu sync.Mutex
	seen := map[string]int{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var body struct {
			QuoteID string `json:"quote_id"`
		}
		_ = json.NewDecoder(req.Body).Decode(&body)
		mu.Lock()
		seen[body.QuoteID]++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"policy_id":"pol_%s","quote_id":%q}`, body.QuoteID, body.QuoteID)
	}))
	srv.Config.IdleTimeout = r.serverIdle
	srv.Start()
	defer srv.Close()
	c := wiretest.NewLoopbackClient(t, srv.URL, r.opts...)

	var res keepAliveResult
	var failedIDs []string
	var wg sync.WaitGroup
	for g := range r.goroutines {
		wg.Go(func() {
			for i := range r.each {
				time.Sleep(r.gapMin + rand.N(r.gapMax-r.gapMin+1))
				quoteID := fmt.Sprintf("q_%d_%d", g, i)
				_, err := c.PurchaseTuition(context.Background(), &insurance.TuitionPurchaseRequest{
					QuoteID: quoteID, PaymentMethod: insurance.PaymentMethod{Token: "tok_ok"},
				})
				mu.Lock()
				res.calls++
				switch {
				case err == nil:
					res.succeeded++
				case errors.Is(err, insurance.ErrOutcomeUnknown):
					res.outcomeUnknown++
					failedIDs = append(failedIDs, quoteID)
				default:
					res.otherErrors++
					t.Logf("purchase %s: %v", quoteID, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	srv.Close() // every handler has returned
	for _, id := range failedIDs {
		if seen[id] == 0 {
			res.falseUnknown++
		}
	}
	for _, n := range seen {
		res.received += n
		if n > 1 {
			res.duplics++
		}
	}
	return res
}

// TestPurchasesDoNotRaceTheKeepAliveTimeout: a server closes connections idle for
// 100 ms; purchases go out every 99 to 101 ms, just as it does. Record-creating calls
// ride connections idle at most 50 ms here (WithRecordIdleTimeout), so none is
// written to a connection being closed: no purchase fails, none is sent twice. With
// the connections of the idempotent pool (idle up to 90 s) the same run reports
// purchases that never reached the server as ErrOutcomeUnknown.
func TestPurchasesDoNotRaceTheKeepAliveTimeout(t *testing.T) {
	res := keepAliveRun{
		serverIdle: 100 * time.Millisecond,
		opts:       []insurance.Option{insurance.WithRecordIdleTimeout(50 * time.Millisecond)},
		goroutines: 16, each: 8,
		gapMin: 99 * time.Millisecond, gapMax: 101 * time.Millisecond,
	}.run(t)

	t.Logf("%+v", res)
	assert.Equal(t, 128, res.calls)
	assert.Zero(t, res.outcomeUnknown, "no purchase may be reported as outcome unknown: the server never failed")
	assert.Equal(t, res.calls, res.succeeded)
	assert.Equal(t, res.calls, res.received, "each purchase reached the server exactly once")
	assert.Zero(t, res.duplics)
}

// TestKeepAliveSoak is the long form with realistic timeouts: a server that closes
// connections idle for 2 s (the shortest keep-alive timeout the default bound of 1 s
// is meant for) and 16 goroutines x 30 purchases: spaced 1.999 to 2.001 s apart, right
// at the server's timeout, with the default record pool and with it turned off (the
// behaviour before it); then spaced 0.999 to 1.001 s apart, right at the bound. The
// figures are in docs/reliability.md.
func TestKeepAliveSoak(t *testing.T) {
	if !*soak {
		t.Skip("about three minutes: go test -run TestKeepAliveSoak -soak -v ./internal/pipeline")
	}
	atTimeout := [2]time.Duration{1999 * time.Millisecond, 2001 * time.Millisecond}
	atBound := [2]time.Duration{999 * time.Millisecond, 1001 * time.Millisecond}
	for _, pass := range []struct {
		name string
		opts []insurance.Option
		gaps [2]time.Duration
	}{
		{"default record pool, gaps at the server's 2s", nil, atTimeout},
		{"record pool off (before), gaps at the server's 2s", []insurance.Option{insurance.WithRecordIdleTimeout(0)}, atTimeout},
		{"default record pool, gaps at its 1s bound", nil, atBound},
	} {
		t.Run(pass.name, func(t *testing.T) {
			start := time.Now()
			res := keepAliveRun{
				serverIdle: 2 * time.Second, opts: pass.opts,
				goroutines: 16, each: 30,
				gapMin: pass.gaps[0], gapMax: pass.gaps[1],
			}.run(t)
			t.Logf("| %s | %s | %d | %d | %d | %d | %d | %d |", pass.name, time.Since(start).Round(time.Second),
				res.calls, res.succeeded, res.outcomeUnknown, res.falseUnknown, res.received, res.duplics)
			assert.Zero(t, res.duplics, "never a duplicate")
			if pass.opts == nil {
				assert.Zero(t, res.falseUnknown, "no false outcome unknown")
			}
		})
	}
}

// WithRecordIdleTimeout applies to a caller's *http.Transport too: it is cloned, and
// the caller's own is left as it was.
func TestRecordIdleTimeoutAppliesToACallersTransport(t *testing.T) {
	res := func(own *http.Transport) keepAliveResult {
		return keepAliveRun{
			serverIdle: 100 * time.Millisecond,
			opts: []insurance.Option{
				insurance.WithHTTPClient(&http.Client{Transport: own}),
				insurance.WithRecordIdleTimeout(50 * time.Millisecond),
			},
			goroutines: 8, each: 6,
			gapMin: 99 * time.Millisecond, gapMax: 101 * time.Millisecond,
		}.run(t)
	}
	own := &http.Transport{IdleConnTimeout: time.Minute}
	r := res(own)
	assert.Zero(t, r.outcomeUnknown)
	assert.Equal(t, r.calls, r.received)
	assert.Equal(t, time.Minute, own.IdleConnTimeout, "the caller's transport is not modified")
}
