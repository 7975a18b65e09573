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
	assert.Equal(t, 3, s.len())
	_, kept := s.get("0")
	assert.False(t, kept)
	v, kept := s.get("4")
	assert.True(t, kept)
	assert.Equal(t, 4, v)

	s.put("4", 40) // an update is not a new record
	assert.Equal(t, 3, s.len())
	_, kept = s.get("2")
	assert.True(t, kept)
}

func TestQuotesAreCapped(t *testing.T) {
	sb := New(Config{})
	for range MaxRecords + 50 {
		sb.NewTuitionQuote("ada@example.com")
	}
	assert.Equal(t, MaxRecords, sb.quotes.len())
}

func TestLuhn(t *testing.T) {
	for number, valid := range map[string]bool{
		CardOK:                true,
		CardDeclined:          true,
		"5555555555554444":    true,
		"4242424242424241":    false,
		"4242 4242 4242 4242": false,
		"42":                  false,
		"":                    false,
	} {
		assert.Equal(t, valid, luhn(number), number)
	}
}
