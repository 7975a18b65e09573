package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/http2"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// The guarantees of a call at the wire, over HTTP/2 and HTTP/1.1, against the raw
// server of h2server_test.go: a record-creating call is processed at most once, and
// no call sends more than 2 x (1 + MaxRetries) requests or runs into its deadline,
// whatever the server answers.

// attemptsOf is the Attempts an error reports, 0 if none.
func attemptsOf(err error) int {
	var apiErr *insurance.APIError
	var reqErr *insurance.RequestError
	switch {
	case errors.As(err, &apiErr):
		return apiErr.Attempts
	case errors.As(err, &reqErr):
		return reqErr.Attempts
	}
	return 0
}

const (
	callDeadline = 10 * time.Second // each call's context
	callBound    = 5 * time.Second  // ... and how long it may take at most here
	maxRequests  = 2 * (1 + insurance.DefaultMaxRetries)
)

// timedCall runs ep once with callDeadline and reports how long it took and its error.
func timedCall(c *insurance.Client, ep wiretest.Endpoint) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), callDeadline)
	defer cancel()
	start := time.Now()
	_, err := ep.Call(ctx, c)
	return time.Since(start), err
}

// wireFaults are the answers after which a request may have been processed.
var wireFaults = []struct {
	name string
	v    verdict
}{
	{"reset PROTOCOL_ERROR", verdict{kind: resetAfter, code: http2.ErrCodeProtocol}},
	{"reset INTERNAL_ERROR", verdict{kind: resetAfter, code: http2.ErrCodeInternal}},
	{"reset CANCEL", verdict{kind: resetAfter, code: http2.ErrCodeCancel}},
	{"connection dropped", verdict{kind: dropAfter}},
}

// TestRecordCreatingCallsAreProcessedAtMostOnce: a purchase, onboarding or event
// whose request was processed and then reset (with any code) or cut off arrived once,
// is not sent again, and ends at once with ErrOutcomeUnknown.
func TestRecordCreatingCallsAreProcessedAtMostOnce(t *testing.T) {
	for _, ep := range wiretest.Endpoints() {
		if !ep.CreatesRecord {
			continue
		}
		for _, f := range wireFaults {
			t.Run(ep.Name+"/"+f.name, func(t *testing.T) {
				t.Parallel()
				srv := newRawServer(t, func(arrival) verdict { return f.v })
				took, err := timedCall(rawClient(t, srv), ep)

				assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
				arrived, processed := srv.Totals()
				assert.Equal(t, 1, processed, "processed once (HTTP/1.1: %d, HTTP/2: %d)", srv.ByProto("HTTP/1.1"), srv.ByProto("HTTP/2.0"))
				assert.Equal(t, 1, arrived, "never sent again")
				assert.Equal(t, 1, attemptsOf(err))
				assert.Less(t, took, callBound)
			})
		}
	}
}

// TestIdempotentCallsAreBounded: products, quotes and customer secrets are retried
// after a reset or a cut connection, but send at most 2 x (1 + MaxRetries) requests in
// all, and end within seconds, Attempts counting every request. The first attempt
// goes out over HTTP/2; what net/http would have sent again there (after a
// PROTOCOL_ERROR reset) goes over HTTP/1.1, and so do the retries of an attempt that
// got no answer. A GET (no body) is resent like a POST.
func TestIdempotentCallsAreBounded(t *testing.T) {
	for _, ep := range wiretest.Endpoints() {
		if ep.CreatesRecord {
			continue
		}
		for _, f := range wireFaults {
			t.Run(ep.Name+"/"+f.name, func(t *testing.T) {
				t.Parallel()
				srv := newRawServer(t, func(arrival) verdict { return f.v })
				took, err := timedCall(rawClient(t, srv), ep)

				require.Error(t, err)
				assert.NotErrorIs(t, err, insurance.ErrOutcomeUnknown)
				arrived, _ := srv.Totals()
				assert.GreaterOrEqual(t, arrived, 1+insurance.DefaultMaxRetries, "retried")
				assert.LessOrEqual(t, arrived, maxRequests)
				assert.Equal(t, arrived, attemptsOf(err), "Attempts counts every request: %v", err)
				assert.Equal(t, 1, srv.ByProto("HTTP/2.0"), "the first attempt over HTTP/2")
				assert.Equal(t, arrived-srv.ByProto("HTTP/2.0"), srv.ByProto("HTTP/1.1"), "the rest over HTTP/1.1")
				assert.Less(t, took, callBound)
			})
		}
	}
}

// TestRefusedStreamsAreSentAgain: a stream the server refused was not processed, so
// every call, a purchase too, is sent again and succeeds, processed once. Against a
// server that refuses every stream too: what net/http would send again over HTTP/2,
// the SDK sends over HTTP/1.1, which has no streams to refuse.
func TestRefusedStreamsAreSentAgain(t *testing.T) {
	for _, every := range []bool{false, true} {
		for _, ep := range wiretest.Endpoints() {
			t.Run(fmt.Sprintf("%s/every stream refused: %t", ep.Name, every), func(t *testing.T) {
				t.Parallel()
				srv := newRawServer(t, func(a arrival) verdict {
					if a.n == 1 || every {
						return verdict{kind: refuse}
					}
					return verdict{kind: answer}
				})
				took, err := timedCall(rawClient(t, srv), ep)

				require.NoError(t, err)
				arrived, processed := srv.Totals()
				assert.Equal(t, 1, processed)
				assert.LessOrEqual(t, arrived, 2)
				assert.Less(t, took, callBound)
			})
		}
	}
}

// TestAPurchaseOnlyEverRefusedIsNotOutcomeUnknown: against a server that refuses
// every stream, a record-creating call never processed ends in seconds, and if it
// fails, its error does not claim the purchase may have gone through.
func TestAPurchaseOnlyEverRefusedIsNotOutcomeUnknown(t *testing.T) {
	for _, ep := range wiretest.Endpoints() {
		if !ep.CreatesRecord {
			continue
		}
		t.Run(ep.Name, func(t *testing.T) {
			t.Parallel()
			srv := newRawServer(t, func(arrival) verdict { return verdict{kind: refuse} })
			took, err := timedCall(rawClient(t, srv), ep)

			arrived, processed := srv.Totals()
			if err != nil {
				assert.NotErrorIs(t, err, insurance.ErrOutcomeUnknown, "never processed")
				assert.Zero(t, processed)
				assert.Equal(t, arrived, attemptsOf(err))
			}
			assert.LessOrEqual(t, processed, 1)
			assert.LessOrEqual(t, arrived, maxRequests)
			assert.Less(t, took, callBound)
		})
	}
}

// tally is what a burst of calls came to, against what the server saw.
type tally struct {
	calls, succeeded, outcomeUnknown, otherErrors int
	falseUnknown                                  int // outcome unknown, though the server never processed the call
	duplicates                                    int // quote ids processed more than once
	requests                                      int // requests that reached the server
	pastDeadline                                  int // calls that ran into their deadline
	firstError                                    error
}

func (r tally) String() string {
	return fmt.Sprintf("calls %d, succeeded %d, outcome unknown %d (false: %d), other errors %d, duplicates %d, requests %d, past deadline %d; first error: %v",
		r.calls, r.succeeded, r.outcomeUnknown, r.falseUnknown, r.otherErrors, r.duplicates, r.requests, r.pastDeadline, r.firstError)
}

// callBurst runs goroutines x each calls of do, all starting at once, each with its own
// quote id (prefix, goroutine, index) and a context that ends after deadline; then
// it tallies them against how often the server processed and received each id.
func callBurst(goroutines, each int, deadline time.Duration, prefix string, do func(context.Context, string) error,
	processed, arrived func(key string) int,
) tally {
	var mu sync.Mutex
	var res tally
	unknown := map[string]bool{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for g := range goroutines {
		wg.Go(func() {
			<-start
			for i := range each {
				id := fmt.Sprintf("%s_%d_%d", prefix, g, i)
				ctx, cancel := context.WithTimeout(context.Background(), deadline)
				err := do(ctx, id)
				cancel()
				mu.Lock()
				res.calls++
				if res.firstError == nil {
					res.firstError = err
				}
				switch {
				case err == nil:
					res.succeeded++
				case errors.Is(err, insurance.ErrOutcomeUnknown):
					res.outcomeUnknown++
					unknown[id] = true
				default:
					res.otherErrors++
				}
				if errors.Is(err, context.DeadlineExceeded) {
					res.pastDeadline++
				}
				mu.Unlock()
			}
		})
	}
	close(start)
	wg.Wait()
	for g := range goroutines {
		for i := range each {
			id := fmt.Sprintf("%s_%d_%d", prefix, g, i)
			n := processed(id)
			if n > 1 {
				res.duplicates++
			}
			if n == 0 && unknown[id] {
				res.falseUnknown++
			}
			res.requests += arrived(id)
		}
	}
	return res
}

// buyingAndQuoting runs 64 goroutines buying and 64 quoting, each call with its own
// quote id and deadline, against srv, and checks what a partner relies on: every
// purchase and every quote succeeded, each purchase processed exactly once; no call
// ran into its deadline; no quote sent more than 2 x (1 + MaxRetries) requests.
func buyingAndQuoting(t *testing.T, srv *rawServer, each int, deadline time.Duration) {
	t.Helper()
	c := rawClient(t, srv)
	var buys, quotes tally
	var wg sync.WaitGroup
	wg.Go(func() {
		buys = callBurst(64, each, deadline, "buy", func(ctx context.Context, id string) error { return wiretest.BuyTuition(ctx, c, id) }, srv.Processed, srv.Arrived)
	})
	wg.Go(func() {
		quotes = callBurst(64, each, deadline, "quote", func(ctx context.Context, id string) error { return wiretest.QuoteTravel(ctx, c, id) }, srv.Processed, srv.Arrived)
	})
	wg.Wait()
	t.Logf("purchases: %v", buys)
	t.Logf("quotes: %v", quotes)
	t.Logf("requests over HTTP/1.1: %d, over HTTP/2: %d", srv.ByProto("HTTP/1.1"), srv.ByProto("HTTP/2.0"))

	assert.Equal(t, buys.calls, buys.succeeded, "every purchase succeeded")
	assert.Zero(t, buys.falseUnknown, "no purchase the server never processed is outcome unknown")
	assert.Zero(t, buys.duplicates, "no purchase processed twice")
	assert.Zero(t, buys.pastDeadline+quotes.pastDeadline, "no call ran into its deadline")
	assert.Zero(t, quotes.outcomeUnknown)
	assert.LessOrEqual(t, quotes.requests, maxRequests*quotes.calls)
	assert.Positive(t, srv.ByProto("HTTP/2.0"), "HTTP/2 was used")
	assert.Equal(t, quotes.calls, quotes.succeeded, "every quote succeeded")
}

// TestGracefulGoAwayLosesNothing: a server that ends each HTTP/2 connection after
// 100 streams (nginx's keepalive_requests is 1000) with a graceful GOAWAY whose last
// stream id lies below streams in flight (it never processes those) loses no call of
// 64 goroutines buying and 64 quoting, 20 calls each: a stream cut by the GOAWAY is
// sent again on the next connection.
func TestGracefulGoAwayLosesNothing(t *testing.T) {
	srv := newRawServer(t, func(arrival) verdict { return verdict{kind: answer} }, func(s *rawServer) { s.goAwayOnNext = 100 })
	buyingAndQuoting(t, srv, 20, callDeadline)
}

// TestGoAwayAfterEveryStream: a server that answers one stream per connection and
// then sends GOAWAY (nginx's keepalive_requests 1) loses no call of 64 goroutines
// buying and 64 quoting. With 64 streams in flight and one answered a connection,
// HTTP/2 alone would need 64 requests for the last quote; the streams the GOAWAY cut
// go again over HTTP/1.1. (Every request here costs a TLS handshake: one call per
// goroutine keeps the test's own load from reaching the deadline under -race.)
func TestGoAwayAfterEveryStream(t *testing.T) {
	srv := newRawServer(t, func(arrival) verdict { return verdict{kind: answer} }, func(s *rawServer) { s.goAwayAfter = 1 })
	buyingAndQuoting(t, srv, 1, callDeadline)
}

// TestEachCallClassRidesItsProtocol: against a server offering h2 and http/1.1,
// record-creating calls go over HTTP/1.1 (where net/http resends a request only when
// nothing of it was written) and the others over HTTP/2.
func TestEachCallClassRidesItsProtocol(t *testing.T) {
	for _, ep := range wiretest.Endpoints() {
		t.Run(ep.Name, func(t *testing.T) {
			srv := newRawServer(t, func(arrival) verdict { return verdict{kind: answer} })
			_, err := timedCall(rawClient(t, srv), ep)
			require.NoError(t, err)
			want, other := "HTTP/2.0", "HTTP/1.1"
			if ep.CreatesRecord {
				want, other = other, want
			}
			assert.Equal(t, 1, srv.ByProto(want), "over %s", want)
			assert.Zero(t, srv.ByProto(other), "over %s", other)
		})
	}
}

// TestDebugLogHasALinePerRequest: every request that went on the wire, net/http's
// own resends included, has a line in the debug log.
func TestDebugLogHasALinePerRequest(t *testing.T) {
	for _, f := range []struct {
		name   string
		decide func(arrival) verdict
	}{
		{"first stream refused", func(a arrival) verdict {
			if a.n == 1 {
				return verdict{kind: refuse}
			}
			return verdict{kind: answer}
		}},
		{"every stream reset PROTOCOL_ERROR", func(arrival) verdict { return verdict{kind: resetAfter, code: http2.ErrCodeProtocol} }},
	} {
		t.Run(f.name, func(t *testing.T) {
			srv := newRawServer(t, f.decide)
			var log wiretest.Buffer
			c := rawClient(t, srv, insurance.WithLogger(slog.New(slog.NewJSONHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))))
			took, err := timedCall(c, wiretest.Endpoints()[1]) // QuoteTravel
			require.Less(t, took, callBound)

			arrived, _ := srv.Totals()
			require.Greater(t, arrived, 1, "the server saw the call more than once: %v", err)
			lines := strings.Count(log.String(), `"path":"/v1/quote/travel"`)
			t.Logf("%d requests, %d debug lines", arrived, lines)
			assert.GreaterOrEqual(t, lines, arrived, "a line for every request:\n%s", log.String())
		})
	}
}

// TestAReloadProcessesNoPurchaseTwice: a server that closes its idle HTTP/1.1
// connections every 20 ms while 64 goroutines buy 20 policies each (a proxy
// reloading, as nginx's old workers close theirs) processes none twice, and every
// purchase succeeds. A purchase written to a connection as the server closes it gets
// no answer; it asked "Expect: 100-continue" and its body never went out, so the
// server cannot have processed it, and it is tried again on a new connection. With
// keep-alive off for record-creating calls (RecordKeepAliveOff) no purchase rides a
// connection the server may close as idle.
func TestAReloadProcessesNoPurchaseTwice(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []insurance.Option
	}{
		{"keep-alive", nil},
		{"keep-alive off for records", []insurance.Option{insurance.WithRecordIdleTimeout(insurance.RecordKeepAliveOff)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := newRawServer(t, func(arrival) verdict { return verdict{kind: answer} })
			c := rawClient(t, srv, tc.opts...)
			done := make(chan struct{})
			go func() {
				for {
					select {
					case <-done:
						return
					case <-time.After(20 * time.Millisecond):
						srv.CloseIdleHTTP1()
					}
				}
			}()
			buys := callBurst(64, 20, callDeadline, "buy", func(ctx context.Context, id string) error { return wiretest.BuyTuition(ctx, c, id) }, srv.Processed, srv.Arrived)
			close(done)
			t.Logf("purchases: %v", buys)
			assert.Zero(t, buys.duplicates, "no purchase processed twice")
			assert.Zero(t, buys.falseUnknown, "no purchase the server never read is outcome unknown")
			assert.Equal(t, buys.calls, buys.succeeded, "every purchase succeeded")
		})
	}
}
