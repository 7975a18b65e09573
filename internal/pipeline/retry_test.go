package pipeline

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestWaitGrowsWithJitterUpToTheMax(t *testing.T) {
	p := newPipeline(Config{RetryWaitMin: 100 * time.Millisecond, RetryWaitMax: 2 * time.Second, MaxRetryAfter: 10 * time.Second}, nil)
	for retries, ceiling := range []time.Duration{100, 200, 400, 800, 1600, 2000, 2000} {
		ceiling *= time.Millisecond
		seen := map[time.Duration]bool{}
		for range 200 {
			d := p.wait(retries, nil)
			assert.GreaterOrEqual(t, d, ceiling/2, "after %d retries", retries)
			assert.LessOrEqual(t, d, ceiling, "after %d retries", retries)
			seen[d] = true
		}
		assert.Greater(t, len(seen), 1, "after %d retries: waits must be jittered", retries)
	}
	assert.LessOrEqual(t, p.wait(200, nil), 2*time.Second, "no overflow on huge retry counts")
}

func TestWaitHonoursRetryAfterUpToTheCap(t *testing.T) {
	p := newPipeline(Config{RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond, MaxRetryAfter: 10 * time.Second}, nil)
	answer := func(status int, retryAfter string) *Answer {
		return &Answer{StatusCode: status, Header: http.Header{"Retry-After": {retryAfter}}}
	}
	assert.Equal(t, 3*time.Second, p.wait(0, answer(429, "3")))
	assert.Equal(t, 3*time.Second, p.wait(0, answer(503, "3")))
	assert.Equal(t, 10*time.Second, p.wait(0, answer(429, "3600")), "capped")
	assert.Equal(t, 10*time.Second, p.wait(0, answer(429, "99999999999999999")), "no overflow")
	assert.LessOrEqual(t, p.wait(0, answer(502, "3")), time.Millisecond, "only 429 and 503 carry Retry-After")
	assert.LessOrEqual(t, p.wait(0, answer(429, "soon")), time.Millisecond, "unparseable: normal backoff")
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{"7", 7 * time.Second, true},
		{"-1", 0, false},
		{"", 0, false},
		{"1.5", 0, false},
		{"Sat, 21 Nov 2026 12:00:30 GMT", 30 * time.Second, true},
		{"Sat, 21 Nov 2026 11:00:00 GMT", 0, true}, // in the past: retry now
	}
	for _, tt := range tests {
		got, ok := ParseRetryAfter(tt.in, now)
		assert.Equal(t, tt.ok, ok, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
}

// FuzzParseRetryAfter: any header value gives a wait that is never negative.
func FuzzParseRetryAfter(f *testing.F) {
	for _, v := range []string{"0", "120", "-1", "Sat, 21 Nov 2026 12:00:30 GMT", "soon", "99999999999999999999"} {
		f.Add(v)
	}
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := ParseRetryAfter(v, now)
		if d < 0 || (!ok && d != 0) {
			t.Fatalf("ParseRetryAfter(%q) = %v, %v", v, d, ok)
		}
	})
}

// A retry takes its cost while the bucket holds it; successes put tokens back, up to
// the capacity: one for a first-request success, the cost of a retry otherwise.
func TestBudgetTakesRetriesAndRefills(t *testing.T) {
	b := NewBudget(12, 5)
	assert.True(t, b.TakeRetry())
	assert.True(t, b.TakeRetry())
	assert.False(t, b.TakeRetry(), "2 tokens left, a retry costs 5")
	assert.Equal(t, 2, b.Tokens())

	b.Return(false)
	assert.Equal(t, 3, b.Tokens())
	b.Return(true)
	assert.Equal(t, 8, b.Tokens())
	b.Return(true)
	assert.Equal(t, 12, b.Tokens(), "never above the capacity")
}

// No budget refuses nothing.
func TestNilBudgetRefusesNothing(t *testing.T) {
	var b *Budget
	for range 1000 {
		assert.True(t, b.TakeRetry())
	}
	b.Return(true)
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
