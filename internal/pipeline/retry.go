package pipeline

import (
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// wait is how long to wait before retry number retries+1: as long as the answer's
// Retry-After asks, capped so that a hostile or mistaken header cannot stall a call,
// or else go-retryablehttp's exponential schedule between the client's shortest and
// longest wait, with equal jitter: at least half of it, so waits still grow.
func (p *Pipeline) wait(retries int, answer *Answer) time.Duration {
	if answer != nil && (answer.StatusCode == http.StatusTooManyRequests || answer.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := ParseRetryAfter(answer.Header.Get("Retry-After"), time.Now()); ok {
			return min(d, p.cfg.MaxRetryAfter)
		}
	}
	backoff := retryablehttp.DefaultBackoff(p.cfg.RetryWaitMin, p.cfg.RetryWaitMax, retries, nil)
	return backoff/2 + rand.N(backoff/2+1)
}

// ParseRetryAfter reads a Retry-After value: delay-seconds or an HTTP date.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(min(secs, int64(time.Duration(1<<62)/time.Second))) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(now), 0), true
	}
	return 0, false
}

// Budget bounds the retries of the clients that share it, as a token bucket: a retry
// takes cost tokens, refused when fewer are left; a call that succeeds puts one back,
// or the cost of a retry if it retried. In an outage the bucket empties after
// capacity/cost retries, until successes refill it. A nil *Budget refuses nothing.
type Budget struct {
	tokens   atomic.Int64
	capacity int64
	cost     int64
}

// NewBudget returns a full budget of capacity tokens whose retries cost cost each.
func NewBudget(capacity, cost int) *Budget {
	b := &Budget{capacity: int64(capacity), cost: int64(cost)}
	b.tokens.Store(b.capacity)
	return b
}

// TakeRetry takes the cost of one retry, if the bucket holds it.
func (b *Budget) TakeRetry() bool {
	if b == nil {
		return true
	}
	for {
		left := b.tokens.Load()
		if left < b.cost {
			return false
		}
		if b.tokens.CompareAndSwap(left, left-b.cost) {
			return true
		}
	}
}

// Spent reports a bucket that cannot pay for a retry: net/http's own resends are
// refused then too.
func (b *Budget) Spent() bool { return b != nil && b.tokens.Load() < b.cost }

// Return puts tokens back, never above the capacity: the cost of a retry (retry: the
// call's last retry succeeded, or the retry paid for was not made), or one for a
// call that succeeded at once.
func (b *Budget) Return(retry bool) {
	if b == nil {
		return
	}
	n := int64(1)
	if retry {
		n = b.cost
	}
	for {
		left := b.tokens.Load()
		if left >= b.capacity || b.tokens.CompareAndSwap(left, min(left+n, b.capacity)) {
			return
		}
	}
}
