package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sampleRounds = `1 cpu: AMD EPYC
1 BenchmarkPeers/hand/serial-2     	    4000	     50000 ns/op	    9700 B/op	     122 allocs/op
1 BenchmarkPeers/sdk/serial-2      	    4000	     55000 ns/op	    9600 B/op	     124 allocs/op
2 BenchmarkPeers/sdk/serial-2      	    4000	     60000 ns/op	    9600 B/op	     124 allocs/op
2 BenchmarkPeers/hand/serial-2     	    4000	     50000 ns/op	    9700 B/op	     122 allocs/op
3 BenchmarkPeers/hand/serial-2     	    4000	     40000 ns/op	    9700 B/op	     122 allocs/op
3 BenchmarkPeers/sdk/serial-2      	    4000	     40000 ns/op	    9600 B/op	     124 allocs/op
4 BenchmarkPeers/sdk/serial-2      	    4000	     90000 ns/op	    9600 B/op	     124 allocs/op
`

// The time ratio pairs results by round: round 4 has no baseline and is left out of
// the ratios, not of the medians.
func TestSummarizePairsRounds(t *testing.T) {
	rs, err := parseRounds(strings.NewReader(sampleRounds))
	require.NoError(t, err)
	assert.Equal(t, "AMD EPYC", rs.cpu)
	assert.Equal(t, 4, roundCount(rs))

	s, err := rs.summarize("sdk", "hand", "serial")
	require.NoError(t, err)
	assert.Equal(t, 3, s.rounds)
	assert.InDelta(t, 1.1, s.timeRatio.median, 1e-9) // ratios 1.1, 1.2, 1.0
	assert.InDelta(t, 1.0, s.timeRatio.min, 1e-9)
	assert.InDelta(t, 1.2, s.timeRatio.max, 1e-9)
	assert.InDelta(t, 57500, s.nsPerOp, 1e-9) // median of 40k, 55k, 60k, 90k
	assert.InDelta(t, 124, s.allocs, 1e-9)
	assert.Equal(t, 4000, rs.results[0].iterations)

	_, err = rs.summarize("sdk", "hand", "parallel")
	assert.Error(t, err, "no parallel results")
}

func TestParseRoundsRejects(t *testing.T) {
	for name, text := range map[string]string{
		"no round number": "BenchmarkPeers/sdk/serial-2 4000 1 ns/op 1 B/op 1 allocs/op\n",
		"no -benchmem":    "1 BenchmarkPeers/sdk/serial-2 4000 50000 ns/op\n",
		"no results":      "1 cpu: AMD EPYC\n",
		"flat name":       "1 BenchmarkPeers/sdk-2 4000 1 ns/op 1 B/op 1 allocs/op\n",
	} {
		_, err := parseRounds(strings.NewReader(text))
		assert.Error(t, err, name)
	}
}

func TestFormatting(t *testing.T) {
	assert.Equal(t, "6,400", thousands(6400))
	assert.Equal(t, "64", thousands(64))
	assert.Equal(t, "1,234,567", thousands(1234567))
	assert.Equal(t, "148 µs", duration(148_000))
	assert.Equal(t, "2.71 ms", duration(2_710_000))
	assert.Equal(t, "64", spreadCell(spread{64, 64, 64}, func(v float64) string { return thousands(int(v)) }))
	assert.Equal(t, "2.37 ms (1.99-6.61)", durationCell(spread{2_370_000, 1_990_000, 6_610_000}))
	assert.Equal(t, "135 µs (132-148)", durationCell(spread{135_000, 132_000, 148_000}))
	assert.Equal(t, "900 µs (800 µs-1.20 ms)", durationCell(spread{900_000, 800_000, 1_200_000}))
	assert.Equal(t, "9 (8-11)", spreadCell(spread{9, 8, 11}, func(v float64) string { return thousands(int(v)) }))
}
