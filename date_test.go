package insurance

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDateTextIsZeroPaddedYearMonthDay: String and MarshalText write what
// fmt's "%04d-%02d-%02d" writes, for any field values, odd ones included.
func TestDateTextIsZeroPaddedYearMonthDay(t *testing.T) {
	dates := []Date{
		{2027, time.March, 1}, {1, time.January, 1}, {9999, time.December, 31}, {0, 0, 1},
		{-5, 13, -1}, {12345, 100, 7}, {math.MinInt, math.MinInt, math.MaxInt}, {0, -1, 0},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		dates = append(dates, Date{r.IntN(20000) - 5000, time.Month(r.IntN(30) - 10), r.IntN(80) - 20})
	}
	for _, d := range dates {
		want := fmt.Sprintf("%04d-%02d-%02d", d.Year, int(d.Month), d.Day)
		assert.Equal(t, want, d.String(), "%#v", d)
		if d.Year >= 0 && d.Year <= 9999 {
			text, err := d.MarshalText()
			require.NoError(t, err)
			assert.Equal(t, want, string(text), "%#v", d)
		}
	}
	text, err := Date{}.MarshalText()
	require.NoError(t, err)
	assert.Empty(t, text)
	assert.Empty(t, Date{}.String())
}
