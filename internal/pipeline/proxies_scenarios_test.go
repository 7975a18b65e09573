//go:build proxies

package pipeline_test

import (
	"context"
	"crypto/x509"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// The scenarios of the proxy matrix. Every call has a 3 s context (plus its spacing in
// the keep-alive scenario); goroutines buy and as many quote, all starting at once.

// upstreamState is how the upstream behaves in a scenario.
type upstreamState int

const (
	upstreamUp       upstreamState = iota
	upstream5xx                    // answers 502, 503 or 504 (by key) to every request
	upstreamDead                   // nothing listens: the proxy's connections are refused
	upstreamDeadBack               // dead for a first burst, then back for a second one
)

// scenario is one row group of the matrix.
type scenario struct {
	name       string
	setup      proxySetup // keepAlive, oneRequest, oneStream
	upstream   upstreamState
	goroutines int           // buying, and as many quoting
	each       int           // calls per goroutine
	gap        time.Duration // before each call (then 1.999-2.001 s: gap -1 ms +0-2 ms)
	reloads    int           // 300 ms apart, the first 300 ms into the burst
}

const proxyCallDeadline = 3 * time.Second

// scenarios is the matrix's list. PROXIES_SOAK sets the keep-alive scenario's calls
// per goroutine (default 5: about 10 s).
func scenarios() []scenario {
	soak := 5
	if v, err := strconv.Atoi(os.Getenv("PROXIES_SOAK")); err == nil {
		soak = v
	}
	return []scenario{
		{name: "steady", goroutines: 64, each: 10},
		{name: "reload", goroutines: 64, each: 20, reloads: 1},
		{name: "three reloads", goroutines: 64, each: 40, reloads: 3},
		{name: "keep-alive 2s", setup: proxySetup{keepAlive: 2 * time.Second}, goroutines: 16, each: soak, gap: 2 * time.Second},
		{name: "one request per connection", setup: proxySetup{oneRequest: true}, goroutines: 64, each: 30},
		{name: "one stream per connection", setup: proxySetup{oneStream: true}, goroutines: 64, each: 5},
		{name: "upstream 5xx", upstream: upstream5xx, goroutines: 16, each: 3},
		{name: "upstream dead", upstream: upstreamDead, goroutines: 16, each: 2},
		// dead for 16 x 2 calls each, then back for a burst with three reloads
		{name: "dead then back", upstream: upstreamDeadBack, goroutines: 64, each: 40, reloads: 3},
	}
}

// runScenario starts the upstream and the proxy, runs the scenario's bursts and
// prints and checks their rows.
func runScenario(t *testing.T, pk proxyKind, sc scenario, cert, key string, pool *x509.CertPool) {
	up := newUpstream(t, sc.upstream == upstreamUp || sc.upstream == upstream5xx)
	if sc.upstream == upstream5xx {
		up.status = rotating5xx
	}
	setup := sc.setup
	setup.upstream, setup.cert, setup.key = up.addr, cert, key
	px := pk.start(t, setup)
	c := tlsClient(t, px.URL, pool, insurance.WithObserver(attemptCounter{}))

	report := func(phase string, buys, quotes []*callRecord, upstreamUp bool) {
		name := sc.name + phase
		b, q := judge(buys, up.count), judge(quotes, up.count)
		t.Logf("%s", b.row(pk.name, name, "purchases"))
		t.Logf("%s", q.row(pk.name, name, "quotes"))
		b.check(t, "purchases"+phase, upstreamUp)
		q.check(t, "quotes"+phase, upstreamUp)
	}
	if sc.upstream == upstreamDeadBack {
		buys, quotes := burst(t, c, px, 16, 2, 0, 0, "dead")
		report(": while dead", buys, quotes, false)
		up.comeBack(t)
		buys, quotes = burst(t, c, px, sc.goroutines, sc.each, 0, sc.reloads, "back")
		report(": back, three reloads", buys, quotes, true)
		return
	}
	buys, quotes := burst(t, c, px, sc.goroutines, sc.each, sc.gap, sc.reloads, "")
	report("", buys, quotes, sc.upstream == upstreamUp)
}

// burst runs goroutines buying and as many quoting, each call spaced by gap, and
// reloads the proxy meanwhile; it returns the records of the purchases and quotes.
func burst(t *testing.T, c *insurance.Client, px *proxy, goroutines, each int, gap time.Duration, reloads int, prefix string) (buys, quotes []*callRecord) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	start := make(chan struct{})
	for _, purchase := range []bool{true, false} {
		kind := "quote"
		if purchase {
			kind = "buy"
		}
		for g := range goroutines {
			wg.Go(func() {
				<-start
				for i := range each {
					if gap > 0 {
						time.Sleep(gap - time.Millisecond + rand.N(2*time.Millisecond+1))
					}
					r := &callRecord{id: fmt.Sprintf("%s%s_%d_%d", prefix, kind, g, i), purchase: purchase, start: time.Now()}
					ctx, cancel := context.WithTimeout(r.traced(context.Background()), proxyCallDeadline)
					if purchase {
						r.err = wiretest.BuyTuition(ctx, c, r.id)
					} else {
						r.err = wiretest.QuoteTravel(ctx, c, r.id)
					}
					cancel()
					mu.Lock()
					if purchase {
						buys = append(buys, r)
					} else {
						quotes = append(quotes, r)
					}
					mu.Unlock()
				}
			})
		}
	}
	close(start)
	for range reloads {
		time.Sleep(300 * time.Millisecond)
		assert.NoError(t, px.reload(), "reload")
	}
	wg.Wait()
	return buys, quotes
}
