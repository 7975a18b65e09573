package pipeline_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/http2"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// The HTTP/2 fault matrix of docs/reliability.md, and the figures of its HTTP/2
// section.

var wireFigures = flag.Bool("wirefigures", false, "measure the figures of docs/reliability.md's HTTP/2 section (about 80 s): go test -run TestWireFigures -wirefigures -v ./internal/pipeline")

// TestHTTP2FaultMatrix runs every endpoint against the raw server of
// h2server_test.go misbehaving at the wire, once per fault, and checks the table in
// docs/reliability.md: each cell is the result, the requests the server received and
// the protocol they came over. A reset or a refusal is HTTP/2's; over HTTP/1.1 a
// reset is a dropped connection and a refused request is answered.
func TestHTTP2FaultMatrix(t *testing.T) {
	once := func(v verdict) func(arrival) verdict {
		return func(a arrival) verdict {
			if a.n == 1 {
				return v
			}
			return verdict{kind: answer}
		}
	}
	always := func(v verdict) func(arrival) verdict { return func(arrival) verdict { return v } }
	faults := []struct {
		name   string
		decide func(arrival) verdict
	}{
		{"reset PROTOCOL_ERROR", always(verdict{kind: resetAfter, code: http2.ErrCodeProtocol})},
		{"reset INTERNAL_ERROR", always(verdict{kind: resetAfter, code: http2.ErrCodeInternal})},
		{"reset CANCEL", always(verdict{kind: resetAfter, code: http2.ErrCodeCancel})},
		{"reset PROTOCOL_ERROR once", once(verdict{kind: resetAfter, code: http2.ErrCodeProtocol})},
		{"dropped", always(verdict{kind: dropAfter})},
		{"refused once", once(verdict{kind: refuse})},
		{"refused always", always(verdict{kind: refuse})},
		{"GOAWAY, unanswered", always(verdict{kind: goAwayUnanswered})},
	}
	eps := wiretest.Endpoints()
	cells := make([][]string, len(eps))
	var wg sync.WaitGroup
	for i, ep := range eps {
		cells[i] = make([]string, len(faults))
		for j, f := range faults {
			wg.Go(func() {
				srv := newRawServer(t, f.decide)
				took, err := timedCall(rawClient(t, srv), ep)
				arrived, _ := srv.Totals()
				result := "ok"
				switch {
				case errors.Is(err, context.DeadlineExceeded):
					result = "deadline"
				case errors.Is(err, insurance.ErrOutcomeUnknown):
					result = "unknown"
				case err != nil:
					result = "error"
				}
				var protos []string
				for _, p := range [][2]string{{"HTTP/1.1", "h1"}, {"HTTP/2.0", "h2"}} {
					if srv.ByProto(p[0]) > 0 {
						protos = append(protos, p[1])
					}
				}
				cells[i][j] = fmt.Sprintf("%s (%d, %s)", result, arrived, strings.Join(protos, "+"))
				if took > callBound {
					cells[i][j] += " slow"
				}
			})
		}
	}
	wg.Wait()
	var b strings.Builder
	b.WriteString("| endpoint |")
	for _, f := range faults {
		b.WriteString(" " + f.name + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", len(faults)) + "\n")
	for i, ep := range eps {
		b.WriteString("| " + ep.Name + " | " + strings.Join(cells[i], " | ") + " |\n")
	}
	table := b.String()
	t.Logf("measured on %s:\n%s", runtime.Version(), table)
	assertDocTable(t, "../../docs/reliability.md", table)
}

// TestWireFigures measures, with the SDK's default retry waits, what one call sends
// to a server that misbehaves at the wire, and what 64 goroutines x 20 quotes send
// to a plain HTTP/1.1 server in a full outage (every request 503) and in a blip
// (every 20th request 503).
func TestWireFigures(t *testing.T) {
	if !*wireFigures {
		t.Skip("about 80 s: go test -run TestWireFigures -wirefigures -v ./internal/pipeline")
	}
	defaults := insurance.WithRetryWait(insurance.DefaultRetryWaitMin, insurance.DefaultRetryWaitMax)
	for _, tc := range []struct {
		name string
		v    verdict
		call func(context.Context, *insurance.Client, string) error
	}{
		{"PurchaseTuition, reset PROTOCOL_ERROR after processing", verdict{kind: resetAfter, code: http2.ErrCodeProtocol}, wiretest.BuyTuition},
		{"QuoteTravel, reset PROTOCOL_ERROR after processing", verdict{kind: resetAfter, code: http2.ErrCodeProtocol}, wiretest.QuoteTravel},
		{"PurchaseTuition, every stream REFUSED_STREAM", verdict{kind: refuse}, wiretest.BuyTuition},
		{"QuoteTravel, every stream REFUSED_STREAM", verdict{kind: refuse}, wiretest.QuoteTravel},
	} {
		srv := newRawServer(t, func(arrival) verdict { return tc.v })
		c := rawClient(t, srv, defaults)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		start := time.Now()
		err := tc.call(ctx, c, "q_fig")
		cancel()
		t.Logf("%s (20 s deadline): %d arrived (HTTP/1.1: %d, HTTP/2: %d), %d processed, in %s; outcome unknown: %t; Attempts %d; %v",
			tc.name, srv.Arrived("q_fig"), srv.ByProto("HTTP/1.1"), srv.ByProto("HTTP/2.0"), srv.Processed("q_fig"), time.Since(start).Round(10*time.Millisecond),
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
			_, _ = fmt.Fprint(w, wiretest.CreatedBody)
		}))
		c := wiretest.NewLoopbackClient(t, srv.URL, defaults)
		began := time.Now()
		failed := len(wiretest.InABurst(20, func() error { _, err := c.QuoteTravel(context.Background(), wiretest.FullTravelQuote()); return err }))
		t.Logf("64 x 20 QuoteTravel, every %d. request answered 503: %d requests for 1280 calls (%.2f a call), %d calls failed, in %s",
			every, received.Load(), float64(received.Load())/1280, failed, time.Since(began).Round(10*time.Millisecond))
		srv.Close()
	}
}
