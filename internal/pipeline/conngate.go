package pipeline

import (
	"net/http"
	"net/http/httptrace"
	"sync"
	"time"
)

// connGate stands in front of a pool and lets its attempts out one at a time until
// its first connection: over HTTP/2 net/http would dial one for each of 64
// goroutines starting on a new Client, then close all but one. That connection opens
// the gate for good (its GotConn, before anything is written on it).
type connGate struct {
	pool http.RoundTripper
	up   chan struct{} // closed once the pool has had a connection
	once sync.Once
	turn chan struct{} // full while one attempt is connecting
}

// maxGateWait bounds the wait at a gate: then an attempt goes out on its own, so a
// dial that hangs holds a burst for a second, not for the dialer's 30 s.
const maxGateWait = time.Second

func newConnGate(pool http.RoundTripper) *connGate {
	return &connGate{pool: pool, up: make(chan struct{}), turn: make(chan struct{}, 1)}
}

func (g *connGate) open() { g.once.Do(func() { close(g.up) }) }

// RoundTrip sends req on the pool, first waiting, while the gate is not open yet, for
// the pool's first connection or for the turn to make it, at most maxGateWait.
func (g *connGate) RoundTrip(req *http.Request) (*http.Response, error) {
	select {
	case <-g.up:
		return g.pool.RoundTrip(req)
	default:
	}
	timer := time.NewTimer(maxGateWait)
	defer timer.Stop()
	select {
	case <-g.up:
	case g.turn <- struct{}{}:
		defer func() { <-g.turn }() // connected or failed: the next may try
	case <-timer.C:
		// The connecting attempt is slow: go out as if there were no gate.
	case <-req.Context().Done():
		return nil, req.Context().Err()
	}
	opens := &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { g.open() }}
	return g.pool.RoundTrip(req.WithContext(httptrace.WithClientTrace(req.Context(), opens)))
}
