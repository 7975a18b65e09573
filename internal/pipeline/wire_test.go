package pipeline

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A bodiless request carries an empty body so that net/http asks before resending it
// (see newTry), but over HTTP/1.1 it goes out as one without: no Content-Length,
// no Transfer-Encoding, and nothing after its head, on a new connection and on a
// reused one.
func TestABodilessRequestGoesOutWithoutABody(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	heads := make(chan []string, 2)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		r := bufio.NewReader(conn)
		for range 2 {
			var head []string
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if line == "\r\n" {
					break
				}
				head = append(head, strings.TrimRight(line, "\r\n"))
			}
			heads <- head
			if _, err := conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")); err != nil {
				return
			}
		}
	}()
	p := New(Config{BaseURL: "http://" + ln.Addr().String()}, NewPools(&http.Client{Transport: NewTransport()}, 0, false), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, connection := range []string{"new", "reused"} {
		res, err := p.Send(ctx, &Request{Method: http.MethodGet, Path: "/v1/products", Class: Idempotent})
		require.NoError(t, err, connection)
		assert.Equal(t, 1, res.Attempts, connection)
		var head []string
		select {
		case head = <-heads:
		case <-ctx.Done():
		}
		require.NotEmpty(t, head, connection)
		assert.Equal(t, "GET /v1/products HTTP/1.1", head[0], "%s connection: the request line, so nothing came after the last head", connection)
		for _, field := range head[1:] {
			name, _, _ := strings.Cut(field, ":")
			assert.NotContains(t, []string{"content-length", "transfer-encoding"}, strings.ToLower(name), connection)
		}
	}
}

// The empty body costs no copy buffer: without emptyBody.WriteTo, io.Copy would hand it
// to the connection's ReadFrom, which allocates 32 KiB to copy nothing, a call. (Client
// and server in this process together allocate about 7 KiB a call, 17 KiB with -race.)
func TestABodilessRequestAllocatesNoCopyBuffer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("{}")) }))
	defer srv.Close()
	p := New(Config{BaseURL: srv.URL}, NewPools(&http.Client{Transport: NewTransport()}, 0, false), nil)
	send := func(n int) {
		for range n {
			_, err := p.Send(context.Background(), &Request{Method: http.MethodGet, Path: "/v1/products", Class: Idempotent})
			require.NoError(t, err)
		}
	}
	send(10) // a connection, and the pools net/http fills
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const calls = 200
	send(calls)
	runtime.ReadMemStats(&after)
	perCall := (after.TotalAlloc - before.TotalAlloc) / calls
	t.Logf("%d bytes a call", perCall)
	assert.Less(t, perCall, uint64(28<<10), "bytes allocated a call")
}
