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

func request(t *testing.T, ctx context.Context) *http.Request {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.example.com/v1/products", nil)
	require.NoError(t, err)
	return req
}

// TestConnGate: until the gate opens, one attempt at a time goes out; one waiting
// ends with its context, sending nothing; a failed attempt hands the turn on; once
// open, attempts go out together. In a synctest bubble, synctest.Wait shows what is
// blocked, without guessing how long to sleep.
func TestConnGate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newConnGate()
		failing := &blockingTransport{release: make(chan struct{}), err: errors.New("dial failed")}
		ok := &blockingTransport{release: make(chan struct{})}
		close(ok.release)

		first := make(chan error, 1)
		go func() { _, err := g.roundTrip(failing, request(t, context.Background())); first <- err }()
		synctest.Wait()
		require.EqualValues(t, 1, failing.entered.Load())

		ctx, cancel := context.WithCancel(context.Background())
		waiting := make(chan error, 1)
		go func() { _, err := g.roundTrip(ok, request(t, ctx)); waiting <- err }()
		second := make(chan error, 1)
		go func() { _, err := g.roundTrip(ok, request(t, context.Background())); second <- err }()
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
			go func() { _, _ = g.roundTrip(held, request(t, context.Background())) }()
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
		g := newConnGate()
		stuck := &blockingTransport{release: make(chan struct{})}
		defer close(stuck.release)
		go func() { _, _ = g.roundTrip(stuck, request(t, context.Background())) }()
		synctest.Wait()
		require.EqualValues(t, 1, stuck.entered.Load())

		ok := &blockingTransport{release: make(chan struct{})}
		close(ok.release)
		start := time.Now()
		_, err := g.roundTrip(ok, request(t, context.Background()))
		require.NoError(t, err)
		assert.Equal(t, maxGateWait, time.Since(start), "waited for the connecting attempt, no longer")
		assert.EqualValues(t, 1, ok.entered.Load(), "then went out on its own")
	})
}
