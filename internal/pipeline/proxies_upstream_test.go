//go:build proxies

package pipeline_test

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The counting upstream behind every proxy of the matrix (proxies_test.go): the
// test's own server, on a loopback port fixed for the test, which counts the requests
// it receives by the call's key (its quote_id) so that a purchase processed twice
// shows, and which can answer 5xx, be down, or come back.

// upstream counts requests by key; it listens on addr while it is up.
type upstream struct {
	addr   string
	status func(key string) int // the status it answers; 201 when nil

	mu   sync.Mutex
	seen map[string]int
	srv  *httptest.Server
}

// newUpstream reserves a loopback port and starts listening on it when up.
func newUpstream(t *testing.T, up bool) *upstream {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	u := &upstream{addr: l.Addr().String(), seen: map[string]int{}}
	if up {
		u.serve(t, l)
	} else {
		require.NoError(t, l.Close()) // nothing listens: connections are refused
	}
	t.Cleanup(u.stop)
	return u
}

// serve answers on l: 201 with a policy for the key, or what status says.
func (u *upstream) serve(t *testing.T, l net.Listener) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			QuoteID string `json:"quote_id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		u.mu.Lock()
		u.seen[body.QuoteID]++
		u.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if u.status != nil {
			if code := u.status(body.QuoteID); code != http.StatusCreated {
				w.WriteHeader(code)
				fmt.Fprintf(w, `{"error":"upstream answers %d"}`, code)
				return
			}
		}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"quote_id":%q,"policy_id":"pol_%s"}`, body.QuoteID, body.QuoteID)
	}))
	srv.Listener.Close()
	srv.Listener = l
	srv.Start()
	u.mu.Lock()
	u.srv = srv
	u.mu.Unlock()
}

// comeBack starts listening on the upstream's port again (dead, then back).
func (u *upstream) comeBack(t *testing.T) {
	var l net.Listener
	var err error
	for start := time.Now(); time.Since(start) < 2*time.Second; time.Sleep(10 * time.Millisecond) {
		if l, err = net.Listen("tcp", u.addr); err == nil {
			break
		}
	}
	require.NoError(t, err, "the upstream's port %s was taken meanwhile", u.addr)
	u.serve(t, l)
}

func (u *upstream) stop() {
	u.mu.Lock()
	srv := u.srv
	u.mu.Unlock()
	if srv != nil {
		srv.Close()
	}
}

// count is how many requests carried key.
func (u *upstream) count(key string) int { u.mu.Lock(); defer u.mu.Unlock(); return u.seen[key] }

// rotating5xx answers 502, 503 or 504, by key.
func rotating5xx(key string) int {
	h := fnv.New32a()
	h.Write([]byte(key))
	return []int{http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout}[h.Sum32()%3]
}
