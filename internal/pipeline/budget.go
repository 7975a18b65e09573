package pipeline

import "sync/atomic"

// Budget bounds the retries of the clients that share it, as a token bucket: a retry
// takes cost tokens and is refused when fewer are left; a call that succeeds at its
// first request puts one back, one that succeeds after retrying the cost of its last
// retry. While calls succeed every retry the table allows is made; in an outage the
// bucket empties after capacity/cost retries, until successes refill it. A nil
// *Budget refuses nothing.
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

// Refund puts back the cost of a retry taken and not made.
func (b *Budget) Refund() {
	if b != nil {
		b.put(b.cost)
	}
}

// Spent reports a bucket that cannot pay for a retry: net/http's own resends are
// refused then too.
func (b *Budget) Spent() bool { return b != nil && b.tokens.Load() < b.cost }

// Succeeded puts tokens back for a call that succeeded: the cost of one retry if it
// retried, one token otherwise; never above the capacity.
func (b *Budget) Succeeded(retried bool) {
	switch {
	case b == nil:
	case retried:
		b.put(b.cost)
	default:
		b.put(1)
	}
}

// put adds n tokens, up to the capacity.
func (b *Budget) put(n int64) {
	for {
		left := b.tokens.Load()
		if left >= b.capacity || b.tokens.CompareAndSwap(left, min(left+n, b.capacity)) {
			return
		}
	}
}
