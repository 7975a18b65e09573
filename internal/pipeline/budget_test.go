package pipeline

import (
	"sync"
	"testing"

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
