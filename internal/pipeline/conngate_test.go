package pipeline

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blockingTransport holds every request until release is closed, counting them.
type blockingTransport struct {
	entered atomic.Int32
	release chan struct{}
	err     error
}

func (b *blockingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	b.entered.Add(1)
	<-b.release
	if b.err != nil {
		return nil, b.err
	}
	return &http.Response{StatusCode: 200, Body: http.NoBody}, nil
}

// viaKey is the context key of the transport a test request goes to behind a gate.
type viaKey struct{}

// newTestGate is a gate in front of whichever transport each request names (see via).
func newTestGate() *connGate {
	return newConnGate(roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return r.Context().Value(viaKey{}).(http.RoundTripper).RoundTrip(r)
	}))
}

// via is a request, with context ctx, that the test gate passes to rt.
func via(t *testing.T, ctx context.Context, rt http.RoundTripper) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(context.WithValue(ctx, viaKey{}, rt), http.MethodGet, "https://api.example.com/v1/products", nil)
	require.NoError(t, err)
	return req
}

// TestConnGate: until the gate opens, one attempt at a time goes out; one waiting
// ends with its context, sending nothing; a failed attempt hands the turn on; once
// open, attempts go out together. In a synctest bubble, synctest.Wait shows what is
// blocked, without guessing how long to sleep.
func TestConnGate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newTestGate()
		failing := &blockingTransport{release: make(chan struct{}), err: errors.New("dial failed")}
		ok := &blockingTransport{release: make(chan struct{})}
		close(ok.release)

		first := make(chan error, 1)
		go func() { _, err := g.RoundTrip(via(t, context.Background(), failing)); first <- err }()
		synctest.Wait()
		require.EqualValues(t, 1, failing.entered.Load())

		ctx, cancel := context.WithCancel(context.Background())
		waiting := make(chan error, 1)
		go func() { _, err := g.RoundTrip(via(t, ctx, ok)); waiting <- err }()
		second := make(chan error, 1)
		go func() { _, err := g.RoundTrip(via(t, context.Background(), ok)); second <- err }()
		synctest.Wait()
		assert.Zero(t, ok.entered.Load(), "one attempt at a time before the first connection")

		cancel()
		assert.ErrorIs(t, <-waiting, context.Canceled)
		assert.Zero(t, ok.entered.Load(), "a cancelled wait sends nothing")

		close(failing.release) // the first attempt fails: the next one takes the turn
		assert.Error(t, <-first)
		assert.NoError(t, <-second)
		assert.EqualValues(t, 1, ok.entered.Load())

		g.open()
		held := &blockingTransport{release: make(chan struct{})}
		for range 3 {
			go func() { _, _ = g.RoundTrip(via(t, context.Background(), held)) }()
		}
		synctest.Wait()
		assert.EqualValues(t, 3, held.entered.Load(), "open: no waiting")
		close(held.release)
	})
}

// TestConnGateWaitIsBounded: an attempt waits for another's connection at most
// maxGateWait, then goes out on its own.
func TestConnGateWaitIsBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newTestGate()
		stuck := &blockingTransport{release: make(chan struct{})}
		defer close(stuck.release)
		go func() { _, _ = g.RoundTrip(via(t, context.Background(), stuck)) }()
		synctest.Wait()
		require.EqualValues(t, 1, stuck.entered.Load())

		ok := &blockingTransport{release: make(chan struct{})}
		close(ok.release)
		start := time.Now()
		_, err := g.RoundTrip(via(t, context.Background(), ok))
		require.NoError(t, err)
		assert.Equal(t, maxGateWait, time.Since(start), "waited for the connecting attempt, no longer")
		assert.EqualValues(t, 1, ok.entered.Load(), "then went out on its own")
	})
}
