package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// TestSeedBeyondLoopbackWarns: seeded credentials are predictable, so -seed with an
// address other machines reach prints a warning on standard error; on loopback, or
// without -seed, there is none.
func TestSeedBeyondLoopbackWarns(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		warn bool
	}{
		{"seed on every interface", []string{"-addr", ":0", "-seed", "42"}, true},
		{"seed on 127.0.0.1", []string{"-addr", "127.0.0.1:0", "-seed", "42"}, false},
		{"seed on localhost", []string{"-addr", "localhost:0", "-seed", "42"}, false},
		{"no seed on every interface", []string{"-addr", ":0"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr wiretest.Buffer
			_, stop := startTo(t, &stderr, tc.args...)
			require.NoError(t, stop())
			if !tc.warn {
				assert.Empty(t, stderr.String())
				return
			}
			assert.True(t, strings.HasPrefix(stderr.String(), "warning: "), stderr.String())
			assert.Contains(t, stderr.String(), "-seed")
			assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "one line")
		})
	}
}

// heapAfterGC is the live heap once a collection has run.
func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestPagesPostingToTheSandboxLeaveNoBodyInItsLog: any page a browser on the machine
// opens can make it send a "simple" cross-origin POST (a form with
// enctype="text/plain": no preflight, no custom header, no credentials) to the
// sandbox on loopback. Each is logged, without its body, and the sandbox's memory does
// not grow with the megabytes sent; a page on another origin cannot read the answers.
// (Not parallel: it reads the process's heap, and run runs in this process.)
func TestPagesPostingToTheSandboxLeaveNoBodyInItsLog(t *testing.T) {
	const allowed, evil = "http://127.0.0.1:8090", "https://evil.example"
	startup, stop := start(t, "-addr", "127.0.0.1:0", "-allow-origin", allowed)
	env := settings(startup)
	base := env[insurance.EnvBaseURL]
	mib := bytes.Repeat([]byte("card=4242424242424242&"), (1<<20)/22)
	routes := map[string]int{"/v1/quote/travel": 401, "/v1/purchase/gap-medical": 401, "/v1/purchase/tuition": 401, "/nope": 404}
	const rounds = 25

	before := heapAfterGC()
	for range rounds {
		for _, origin := range []string{evil, allowed} {
			for path, want := range routes {
				req, err := http.NewRequest(http.MethodPost, base+path, bytes.NewReader(mib))
				require.NoError(t, err)
				req.Header.Set("Origin", origin)
				req.Header.Set("Content-Type", "text/plain")
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				assert.Equal(t, want, resp.StatusCode, path)
				if origin == evil {
					assert.Empty(t, resp.Header.Get("Access-Control-Allow-Origin"), "a page on %s may not read the answer", evil)
				}
			}
		}
	}
	after := heapAfterGC()
	sent := rounds * 2 * len(routes)
	t.Logf("heap after GC: %.1f MB before, %.1f MB after %d cross-origin POSTs of %d bytes", float64(before)/1e6, float64(after)/1e6, sent, len(mib))

	req, err := http.NewRequest(http.MethodGet, base+"/sandbox/requests", nil)
	require.NoError(t, err)
	req.SetBasicAuth(env[insurance.EnvClientID], env[insurance.EnvClientSecret])
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var logged struct {
		Requests []struct {
			Path          string `json:"path"`
			Body          string `json:"body"`
			BodyTruncated bool   `json:"body_truncated"`
			StatusCode    int    `json:"status_code"`
		} `json:"requests"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&logged))
	require.Len(t, logged.Requests, sent, "an entry for every request")
	for _, r := range logged.Requests {
		assert.Equal(t, routes[r.Path], r.StatusCode, r.Path)
		assert.Empty(t, r.Body, r.Path)
		assert.False(t, r.BodyTruncated, r.Path)
	}
	assert.Less(t, int64(after)-int64(before), int64(8<<20), "the heap grew with what the pages sent")
	require.NoError(t, stop())
}
