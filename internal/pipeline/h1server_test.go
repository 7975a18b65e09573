package pipeline_test

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
)

// The HTTP/1.1 side of the raw server of h2server_test.go: connections that ALPN
// gives http/1.1 go to net/http's server, through a listener the raw server hands
// them to, with the same counting logic.

// serveHTTP1 is the same logic for HTTP/1.1: a reset is a dropped connection.
func (s *rawServer) serveHTTP1(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	v, status, out := s.handle(r.Proto, r.Method, r.URL.Path, body)
	if v.kind == resetAfter || v.kind == dropAfter {
		dropConn(w)
		return
	}
	n := r.Context().Value(connRequestsKey{}).(*int)
	*n++ // one connection serves one request at a time
	if (s.goAwayAfter > 0 && *n >= s.goAwayAfter) || (s.goAwayOnNext > 0 && *n >= s.goAwayOnNext) {
		w.Header().Set("Connection", "close")
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(status)
	_, _ = w.Write(out)
}

// dropConn closes the connection of w with a TCP RST, before any answer.
func dropConn(w http.ResponseWriter) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		return
	}
	if tc, ok := conn.(*tls.Conn); ok {
		if tcp, ok := tc.NetConn().(*net.TCPConn); ok {
			_ = tcp.SetLinger(0)
		}
	}
	_ = conn.Close()
}

type connRequestsKey struct{}

func countRequests(ctx context.Context, _ net.Conn) context.Context {
	return context.WithValue(ctx, connRequestsKey{}, new(int))
}

// chanListener hands net/http's server the HTTP/1.1 connections one by one.
type chanListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
	addr  net.Addr
}

func (l *chanListener) hand(c net.Conn) {
	select {
	case l.conns <- c:
	case <-l.done:
		_ = c.Close()
	}
}

func (l *chanListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *chanListener) Close() error   { l.once.Do(func() { close(l.done) }); return nil }
func (l *chanListener) Addr() net.Addr { return l.addr }
