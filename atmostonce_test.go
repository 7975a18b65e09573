package insurance_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/http2"

	"github.com/partnerinsure/insurance-go"
)

var wireFigures = flag.Bool("wirefigures", false, "measure the figures of docs/reliability.md's HTTP/2 section (about 80 s): go test -run TestWireFigures -wirefigures -v .")

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

// TestWireFigures measures, with the SDK's default retry waits, what one call sends
// to a server that misbehaves at the wire, and what 64 goroutines x 20 quotes send
// to a plain HTTP/1.1 server in a full outage (every request 503) and in a blip
// (every 20th request 503).
func TestWireFigures(t *testing.T) {
	if !*wireFigures {
		t.Skip("about 80 s: go test -run TestWireFigures -wirefigures -v .")
	}
	defaults := insurance.WithRetryWait(insurance.DefaultRetryWaitMin, insurance.DefaultRetryWaitMax)
	for _, tc := range []struct {
		name string
		v    verdict
		call func(context.Context, *insurance.Client, string) error
	}{
		{"PurchaseTuition, reset PROTOCOL_ERROR after processing", verdict{kind: resetAfter, code: http2.ErrCodeProtocol}, buyTuition},
		{"QuoteTravel, reset PROTOCOL_ERROR after processing", verdict{kind: resetAfter, code: http2.ErrCodeProtocol}, quoteTravel},
		{"PurchaseTuition, every stream REFUSED_STREAM", verdict{kind: refuse}, buyTuition},
		{"QuoteTravel, every stream REFUSED_STREAM", verdict{kind: refuse}, quoteTravel},
	} {
		srv := newRawServer(t, func(arrival) verdict { return tc.v })
		c := rawClient(t, srv, defaults)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		start := time.Now()
		err := tc.call(ctx, c, "q_fig")
		cancel()
		t.Logf("%s (20 s deadline): %d arrived over %v, %d processed, in %s; outcome unknown: %t; Attempts %d; %v",
			tc.name, srv.Arrived("q_fig"), srv.Protos("q_fig"), srv.Processed("q_fig"), time.Since(start).Round(10*time.Millisecond),
			errors.Is(err, insurance.ErrOutcomeUnknown), attemptsOf(err), err)
		srv.Close()
	}

	for _, every := range []int{1, 20} {
		var received atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			if received.Add(1)%int64(every) == 0 {
				w.WriteHeader(http.StatusServiceUnavailable)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			_, _ = fmt.Fprint(w, tlsAnswer)
		}))
		c := newLoopbackClient(t, srv.URL, defaults)
		var failed atomic.Int64
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range 64 {
			wg.Go(func() {
				<-start
				for range 20 {
					if _, err := c.QuoteTravel(context.Background(), fullTravelQuote()); err != nil {
						failed.Add(1)
					}
				}
			})
		}
		began := time.Now()
		close(start)
		wg.Wait()
		t.Logf("64 x 20 QuoteTravel, every %d. request answered 503: %d requests for 1280 calls (%.2f a call), %d calls failed, in %s",
			every, received.Load(), float64(received.Load())/1280, failed.Load(), time.Since(began).Round(10*time.Millisecond))
		srv.Close()
	}
}

func buyTuition(ctx context.Context, c *insurance.Client, quoteID string) error {
	req := fullTuitionPurchase()
	req.QuoteID = quoteID
	_, err := c.PurchaseTuition(ctx, req)
	return err
}

func quoteTravel(ctx context.Context, c *insurance.Client, quoteID string) error {
	req := fullTravelQuote()
	req.QuoteID = quoteID
	_, err := c.QuoteTravel(ctx, req)
	return err
}
