package wiretest

import (
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Fault is what a scripted server does with one request.
type Fault func(w http.ResponseWriter, r *http.Request)

// Status answers code with a JSON body, and the header name and value pairs.
func Status(code int, header ...string) Fault {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		_, _ = io.WriteString(w, `{"message":"scripted"}`)
	}
}

// Reset reads the whole request, then drops the connection before any response byte.
func Reset(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0) // RST, not FIN
	}
	_ = conn.Close()
}

// Hang never answers; it returns when the client gives up.
func Hang(_ http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

// Stall sends the headers and half the body, then stops until the client gives up.
func Stall(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Length", "200")
	w.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(w, `{"quote_id":"q_stalled","prem`)
	w.(http.Flusher).Flush()
	<-r.Context().Done()
}

// Truncated promises a body and sends only part of it.
func Truncated(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Length", "200")
	w.WriteHeader(http.StatusCreated)
	_, _ = io.WriteString(w, `{"quote_id":"q_`)
	w.(http.Flusher).Flush()
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	_ = conn.Close() // FIN: the client reads an early end of body
}

// ScriptedServer plays faults in order, then answers every further request with the
// endpoint's success fixture. It counts the requests that reached it.
type ScriptedServer struct {
	*httptest.Server
	mu       sync.Mutex
	script   []Fault
	Received atomic.Int32
}

// NewScriptedServer starts a ScriptedServer for ep that plays script; it closes with the test.
func NewScriptedServer(t *testing.T, ep Endpoint, script ...Fault) *ScriptedServer {
	t.Helper()
	ok := Fixture(t, ep.Response)
	s := &ScriptedServer{script: script}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		s.Received.Add(1)
		s.mu.Lock()
		var next Fault
		if len(s.script) > 0 {
			next, s.script = s.script[0], s.script[1:]
		}
		s.mu.Unlock()
		if next != nil {
			next(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(ep.Status)
		_, _ = io.WriteString(w, ok)
	}))
	t.Cleanup(s.Close)
	return s
}

// CountingTLSServer answers every request 201 with body over TLS, with HTTP/2 when h2
// is true; it counts the connections whose TLS handshake completed (net/http may
// abandon a dial midway when another connection served its request) and the
// requests that came over HTTP/2.
func CountingTLSServer(tb testing.TB, h2 bool, body string) (srv *httptest.Server, opened, overH2 *atomic.Int32) {
	tb.Helper()
	opened, overH2 = new(atomic.Int32), new(atomic.Int32)
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.ProtoMajor == 2 {
			overH2.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, body)
	}))
	srv.EnableHTTP2 = h2
	srv.TLS = &tls.Config{VerifyConnection: func(tls.ConnectionState) error {
		opened.Add(1)
		return nil
	}}
	srv.StartTLS()
	tb.Cleanup(srv.Close)
	return srv, opened, overH2
}
