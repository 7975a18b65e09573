package pipeline

import (
	"net/http"
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
