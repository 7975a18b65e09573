package bench

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Load is what one run of Measure found: calls spread over goroutines sharing one
// new client, against a new server.
type Load struct {
	Goroutines  int
	Calls       int
	Connections int64         // TCP connections the server accepted
	P50, P99    time.Duration // latency of one call, measured around each call
}

// Measure makes calls calls of impl from goroutines goroutines sharing one new
// client (calls/goroutines each), against a new Server, and returns the connections
// opened and the latency percentiles. The first calls include the dials: nothing is
// warmed up. It stops at the first failed call and returns its error.
func Measure(impl Impl, goroutines, calls int) (Load, error) {
	if goroutines < 1 || calls < goroutines || calls%goroutines != 0 {
		return Load{}, fmt.Errorf("measure %s: want calls (%d) a positive multiple of goroutines (%d)", impl.Name, calls, goroutines)
	}
	srv := NewServer()
	defer srv.Close()
	call, err := impl.New(srv.URL)
	if err != nil {
		return Load{}, fmt.Errorf("measure %s: %w", impl.Name, err)
	}

	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	latencies := make([]time.Duration, calls)
	per := calls / goroutines
	var wg sync.WaitGroup
	for g := range goroutines {
		mine := latencies[g*per : (g+1)*per]
		wg.Go(func() {
			for i := range mine {
				start := time.Now()
				if err := call(ctx); err != nil {
					cancel(err)
					return
				}
				mine[i] = time.Since(start)
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return Load{}, fmt.Errorf("measure %s with %d goroutines: %w", impl.Name, goroutines, err)
	}

	slices.Sort(latencies)
	return Load{
		Goroutines:  goroutines,
		Calls:       calls,
		Connections: srv.Opened(),
		P50:         percentile(latencies, 50),
		P99:         percentile(latencies, 99),
	}, nil
}

// percentile returns the p-th percentile of sorted, by the nearest-rank method.
func percentile(sorted []time.Duration, p int) time.Duration {
	rank := (len(sorted)*p + 99) / 100 // ceil(n * p / 100)
	return sorted[max(rank, 1)-1]
}
