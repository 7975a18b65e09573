package pipeline

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A retry takes its cost while the bucket holds it; successes put tokens back, up to
// the capacity: one for a first-request success, the cost of a retry otherwise.
func TestBudgetTakesRetriesAndRefills(t *testing.T) {
	b := NewBudget(12, 5)
	assert.True(t, b.TakeRetry())
	assert.True(t, b.TakeRetry())
	assert.False(t, b.TakeRetry(), "2 tokens left, a retry costs 5")
	assert.Equal(t, 2, b.Tokens())

	b.Succeeded(false)
	assert.Equal(t, 3, b.Tokens())
	b.Succeeded(true)
	assert.Equal(t, 8, b.Tokens())
	b.Succeeded(true)
	assert.Equal(t, 12, b.Tokens(), "never above the capacity")
}

// No budget refuses nothing.
func TestNilBudgetRefusesNothing(t *testing.T) {
	var b *Budget
	for range 1000 {
		assert.True(t, b.TakeRetry())
	}
	b.Succeeded(true)
}

// Concurrent retries never take more than the bucket holds.
func TestBudgetUnderConcurrency(t *testing.T) {
	b := NewBudget(500, 5)
	var wg sync.WaitGroup
	var mu sync.Mutex
	taken := 0
	for range 64 {
		wg.Go(func() {
			for range 20 {
				if b.TakeRetry() {
					mu.Lock()
					taken++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 100, taken)
	assert.Zero(t, b.Tokens())
}

// A context that ends while a call waits to retry, with no budget, ends the call with
// the context's error: there is nothing to give back.
func TestAWaitEndedWithoutABudget(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	busy := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		time.AfterFunc(20*time.Millisecond, cancel) // the call's context ends during the wait
		return &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{}, Body: http.NoBody, Request: r}, nil
	})
	p := New(Config{BaseURL: "https://api.example.com", MaxRetries: 2, RetryWaitMin: time.Hour, RetryWaitMax: time.Hour},
		NewPools(&http.Client{Transport: busy}, 0, true), nil)
	_, err := p.Send(ctx, &Request{Method: http.MethodGet, Path: "/v1/products", Class: Idempotent})
	assert.ErrorIs(t, err, context.Canceled)
}

// A retry whose wait the context ends gives its tokens back.
func TestAWaitEndedGivesTheTokensBack(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	busy := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		time.AfterFunc(20*time.Millisecond, cancel)
		return &http.Response{StatusCode: http.StatusServiceUnavailable, Header: http.Header{}, Body: http.NoBody, Request: r}, nil
	})
	budget := NewBudget(10, 5)
	p := New(Config{BaseURL: "https://api.example.com", MaxRetries: 2, RetryWaitMin: time.Hour, RetryWaitMax: time.Hour},
		NewPools(&http.Client{Transport: busy}, 0, true), budget)
	_, err := p.Send(ctx, &Request{Method: http.MethodGet, Path: "/v1/products", Class: Idempotent})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, 10, budget.Tokens())
}

// Tokens is what the bucket holds now.
func (b *Budget) Tokens() int { return int(b.tokens.Load()) }
