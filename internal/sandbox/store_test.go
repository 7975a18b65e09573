package sandbox

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStoreForgetsTheOldestBeyondItsCap(t *testing.T) {
	s := newStore[int](3)
	for i := range 5 {
		s.put(fmt.Sprint(i), i)
	}
	assert.Len(t, s.items, 3)
	_, kept := s.get("0")
	assert.False(t, kept)
	v, kept := s.get("4")
	assert.True(t, kept)
	assert.Equal(t, 4, v)

	s.put("4", 40) // an update is not a new record
	assert.Len(t, s.items, 3)
	_, kept = s.get("2")
	assert.True(t, kept)
}

func TestQuotesAreCapped(t *testing.T) {
	sb := New(Config{})
	for range MaxRecords + 50 {
		sb.NewTuitionQuote("ada@example.com")
	}
	assert.Len(t, sb.quotes.items, MaxRecords)
}
