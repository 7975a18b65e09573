package sandbox

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

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
