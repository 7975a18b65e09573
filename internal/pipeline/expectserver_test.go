package pipeline

import (
	"bufio"
	"net"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Servers that do not play along with Expect: 100-continue, for the tests of this
// package and of package pipeline_test (exported here, in a test file, for that).

// ExpectLog records the Expect header of every request a server gets.
type ExpectLog struct {
	mu   sync.Mutex
	seen []string
}

// Record notes r's Expect header.
func (l *ExpectLog) Record(r *http.Request) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.seen = append(l.seen, r.Header.Get("Expect"))
}

// All is every Expect header recorded, oldest first.
func (l *ExpectLog) All() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

// IgnoresExpect serves HTTP/1.1 on loopback as a server that knows nothing of
// Expect: it never says "100 Continue", and lets answer read each request's body
// (or not) and write the response. It returns the server's URL.
func IgnoresExpect(t *testing.T, answer func(c net.Conn, r *http.Request)) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var wg sync.WaitGroup
	t.Cleanup(func() { _ = ln.Close(); wg.Wait() })
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer func() { _ = c.Close() }()
				br := bufio.NewReader(c)
				for {
					r, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					answer(c, r)
				}
			})
		}
	})
	return "http://" + ln.Addr().String()
}
