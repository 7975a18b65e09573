package pipeline_test

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/pipeline"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// A server that misbehaves on purpose at the wire. Over TLS it offers h2 and
// http/1.1 (ALPN); HTTP/2 connections are served frame by frame with x/net/http2's
// Framer, so a test decides what happens to each stream: answered, reset with any
// code after it was processed, refused before, cut by a GOAWAY, or dropped with its
// connection. HTTP/1.1 connections go to net/http's server with the same counting
// logic. Every request is keyed by the quote_id of its body (its path when it has
// none), and the server counts, per key, what arrived and what it processed.

// verdictKind is what the server does with one request.
type verdictKind int

const (
	answer     verdictKind = iota // process, answer 2xx
	resetAfter                    // process, then RST_STREAM with code (HTTP/1.1: drop the connection)
	refuse                        // RST_STREAM REFUSED_STREAM, not processed (HTTP/1.1: answered as usual)
	dropAfter                     // process, then drop the connection (RST) without answering
	// goAwayUnanswered: process, send a graceful GOAWAY whose last stream id covers the
	// stream, and close the connection soon after without answering it, as Caddy 2.6
	// (built with Go 1.19: golang/go#55846) does to the streams in flight when a
	// response closes the connection (HTTP/1.1: answered as usual).
	goAwayUnanswered
)

type verdict struct {
	kind verdictKind
	code http2.ErrCode // of resetAfter
}

// arrival is one complete request as the server saw it. n counts the arrivals of
// its key so far, this one included.
type arrival struct {
	proto        string // "HTTP/2.0" or "HTTP/1.1"
	method, path string
	key          string
	n            int
}

// rawServer is the fixture; see newRawServer.
type rawServer struct {
	URL  string
	Pool *x509.CertPool // trusts the server's certificate

	decide func(arrival) verdict
	// goAwayAfter, when not 0, ends each HTTP/2 connection after that many answered
	// streams with a graceful GOAWAY sent right after the last answer (nginx's
	// keepalive_requests); HTTP/1.1 answers that one with Connection: close.
	goAwayAfter int
	// goAwayOnNext, when not 0, answers that many streams on each HTTP/2 connection
	// and sends the graceful GOAWAY when the next one arrives, so that at least one
	// stream in flight lies above its last stream id and is never processed.
	goAwayOnNext int
	// earlyHints sends a 103 Early Hints before every reset or refusal over HTTP/2:
	// an answer began, but no final one comes.
	earlyHints bool

	ln   net.Listener
	h1   *http.Server
	h1ln *chanListener
	wg   sync.WaitGroup

	mu        sync.Mutex
	conns     map[net.Conn]bool
	arrived   map[string]int // requests that arrived, by key
	processed map[string]int // ... of which the server processed, by key
	byProto   map[string]int // requests that arrived, by protocol
}

// newRawServer starts a rawServer on loopback that answers every request as decide
// says; the options below are set by configure before it accepts. It closes with the test.
func newRawServer(t testing.TB, decide func(arrival) verdict, configure ...func(*rawServer)) *rawServer {
	t.Helper()
	cert, pool := testCert(t)
	s := &rawServer{
		Pool: pool, decide: decide,
		conns: map[net.Conn]bool{}, arrived: map[string]int{}, processed: map[string]int{},
		byProto: map[string]int{},
	}
	for _, f := range configure {
		f(s)
	}
	tcp, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s.ln = tls.NewListener(tcp, &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2", "http/1.1"}})
	s.URL = "https://" + tcp.Addr().String()
	s.h1ln = &chanListener{conns: make(chan net.Conn), done: make(chan struct{}), addr: tcp.Addr()}
	s.h1 = &http.Server{Handler: http.HandlerFunc(s.serveHTTP1), ConnContext: countRequests, ErrorLog: log.New(io.Discard, "", 0)}
	go func() { _ = s.h1.Serve(s.h1ln) }()
	s.wg.Go(s.accept)
	t.Cleanup(s.Close)
	return s
}

// Close stops the server and waits for its connections to end.
func (s *rawServer) Close() {
	_ = s.ln.Close()
	s.mu.Lock()
	for c := range s.conns {
		_ = c.Close()
	}
	s.mu.Unlock()
	_ = s.h1.Close()
	_ = s.h1ln.Close()
	s.wg.Wait()
}

// CloseIdleHTTP1 closes the idle HTTP/1.1 connections at once, as a reload does.
func (s *rawServer) CloseIdleHTTP1() {
	s.h1.SetKeepAlivesEnabled(false)
	s.h1.SetKeepAlivesEnabled(true)
}

// Arrived and Processed are the counts for one key; ByProto the requests that
// arrived over proto ("HTTP/2.0", "HTTP/1.1").
func (s *rawServer) Arrived(key string) int   { return s.count(s.arrived, key) }
func (s *rawServer) Processed(key string) int { return s.count(s.processed, key) }
func (s *rawServer) ByProto(proto string) int { return s.count(s.byProto, proto) }

func (s *rawServer) count(m map[string]int, key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return m[key]
}

// Totals are the requests that arrived and those processed, over all keys.
func (s *rawServer) Totals() (arrived, processed int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, n := range s.arrived {
		arrived += n
	}
	for _, n := range s.processed {
		processed += n
	}
	return arrived, processed
}

// arrive counts one complete request.
func (s *rawServer) arrive(proto, method, path string, body []byte) arrival {
	var b struct {
		QuoteID string `json:"quote_id"`
	}
	_ = json.Unmarshal(body, &b)
	key := b.QuoteID
	if key == "" {
		key = path
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.arrived[key]++
	s.byProto[proto]++
	return arrival{proto: proto, method: method, path: path, key: key, n: s.arrived[key]}
}

// handle counts one complete request and returns the verdict on it and, for a
// processed one, the answer's status and body.
func (s *rawServer) handle(proto, method, path string, body []byte) (verdict, int, []byte) {
	a := s.arrive(proto, method, path, body)
	key := a.key
	v := s.decide(a)
	if (v.kind == refuse || v.kind == goAwayUnanswered) && proto != "HTTP/2.0" {
		v.kind = answer // HTTP/1.1 has no way to refuse a request unprocessed, nor GOAWAY
	}
	if v.kind == refuse {
		return v, 0, nil
	}
	s.mu.Lock()
	s.processed[key]++
	s.mu.Unlock()
	switch path {
	case "/v1/products":
		return v, http.StatusOK, []byte(`{"products":[]}`)
	case "/v1/auth/customer/secret":
		return v, http.StatusCreated, []byte(`{"secret":"cus_sec_raw"}`)
	}
	return v, http.StatusCreated, fmt.Appendf(nil, `{"quote_id":%q,"policy_id":"pol_%s","id":"00000000-0000-0000-0000-000000000001"}`, key, key)
}

func (s *rawServer) accept() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns[c] = true
		s.mu.Unlock()
		s.wg.Go(func() {
			tc := c.(*tls.Conn)
			_ = tc.SetDeadline(time.Now().Add(5 * time.Second))
			if err := tc.Handshake(); err != nil {
				s.forget(c)
				return
			}
			_ = tc.SetDeadline(time.Time{})
			if tc.ConnectionState().NegotiatedProtocol == "h2" {
				s.serveH2(tc)
				s.forget(c)
				return
			}
			s.mu.Lock()
			delete(s.conns, c) // net/http's server owns it now
			s.mu.Unlock()
			s.h1ln.hand(c)
		})
	}
}

func (s *rawServer) forget(c net.Conn) {
	_ = c.Close()
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
}

// writeHeaders writes a HEADERS frame on stream id: the status, then name and value
// pairs.
func writeHeaders(fr *http2.Framer, id uint32, endStream bool, status string, fields ...string) error {
	var buf bytes.Buffer
	enc := hpack.NewEncoder(&buf)
	_ = enc.WriteField(hpack.HeaderField{Name: ":status", Value: status})
	for i := 0; i+1 < len(fields); i += 2 {
		_ = enc.WriteField(hpack.HeaderField{Name: fields[i], Value: fields[i+1]})
	}
	return fr.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: buf.Bytes(), EndStream: endStream, EndHeaders: true})
}

// h2Stream is a stream being received.
type h2Stream struct {
	method, path string
	body         bytes.Buffer
}

// serveH2 serves one HTTP/2 connection, one frame at a time, answering each
// request as soon as it is complete.
func (s *rawServer) serveH2(c *tls.Conn) {
	preface := make([]byte, len(http2.ClientPreface))
	if _, err := io.ReadFull(c, preface); err != nil || string(preface) != http2.ClientPreface {
		return
	}
	fr := http2.NewFramer(c, c)
	fr.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	if fr.WriteSettings() != nil {
		return
	}
	streams := map[uint32]*h2Stream{}
	answered, goneAway := 0, false
	var lastID uint32 // the last stream answered

	goAway := func(last uint32) {
		goneAway = true
		_ = fr.WriteGoAway(last, http2.ErrCodeNo, nil)
		_ = c.SetReadDeadline(time.Now().Add(100 * time.Millisecond)) // then close
	}
	complete := func(id uint32, st *h2Stream) error {
		delete(streams, id)
		if s.goAwayOnNext > 0 && answered >= s.goAwayOnNext && !goneAway {
			goAway(lastID)
		}
		if goneAway && id > lastID {
			s.arrive("HTTP/2.0", st.method, st.path, st.body.Bytes())
			return nil // above the GOAWAY's last stream id: ignored (RFC 9113, 6.8)
		}
		v, status, out := s.handle("HTTP/2.0", st.method, st.path, st.body.Bytes())
		if s.earlyHints && v.kind != answer {
			if err := writeHeaders(fr, id, false, "103"); err != nil {
				return err
			}
		}
		switch v.kind {
		case refuse:
			return fr.WriteRSTStream(id, http2.ErrCodeRefusedStream)
		case resetAfter:
			return fr.WriteRSTStream(id, v.code)
		case goAwayUnanswered:
			goAway(id)
			return nil
		case dropAfter:
			if tcp, ok := c.NetConn().(*net.TCPConn); ok {
				_ = tcp.SetLinger(0)
			}
			return errors.New("dropped")
		}
		if err := writeHeaders(fr, id, false, strconv.Itoa(status), "content-type", "application/json", "content-length", strconv.Itoa(len(out))); err != nil {
			return err
		}
		if err := fr.WriteData(id, true, out); err != nil {
			return err
		}
		answered++
		lastID = id
		if s.goAwayAfter > 0 && answered >= s.goAwayAfter {
			goAway(id)
		}
		return nil
	}

	for {
		f, err := fr.ReadFrame()
		if err != nil {
			return
		}
		switch f := f.(type) {
		case *http2.SettingsFrame:
			if !f.IsAck() {
				err = fr.WriteSettingsAck()
			}
		case *http2.PingFrame:
			if !f.IsAck() {
				err = fr.WritePing(true, f.Data)
			}
		case *http2.MetaHeadersFrame:
			st := &h2Stream{method: f.PseudoValue("method"), path: f.PseudoValue("path")}
			id := f.Header().StreamID
			streams[id] = st
			if f.StreamEnded() {
				err = complete(id, st)
			}
		case *http2.DataFrame:
			id := f.Header().StreamID
			if n := uint32(len(f.Data())); n > 0 {
				err = fr.WriteWindowUpdate(0, n)
			}
			st := streams[id]
			if st == nil || err != nil {
				break
			}
			st.body.Write(f.Data())
			if f.StreamEnded() {
				err = complete(id, st)
			} else if n := uint32(len(f.Data())); n > 0 {
				err = fr.WriteWindowUpdate(id, n)
			}
		case *http2.RSTStreamFrame:
			delete(streams, f.Header().StreamID)
		case *http2.GoAwayFrame:
			return
		}
		if err != nil {
			return
		}
	}
}

// testCert is the certificate of net/http/httptest's TLS servers (for 127.0.0.1),
// and a pool that trusts it.
func testCert(t testing.TB) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	srv := httptest.NewUnstartedServer(nil)
	srv.StartTLS()
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	return srv.TLS.Certificates[0], pool
}

// rawClient is a Client on the SDK's default transport that trusts s, with quick
// retry waits; opts come last.
func rawClient(t testing.TB, s *rawServer, opts ...insurance.Option) *insurance.Client {
	return tlsClient(t, s.URL, s.Pool, opts...)
}

// tlsClient is a Client of url on the SDK's default transport, told only to trust
// pool, with quick retry waits; opts come last.
func tlsClient(t testing.TB, url string, pool *x509.CertPool, opts ...insurance.Option) *insurance.Client {
	t.Helper()
	transport := pipeline.NewTransport()
	transport.TLSClientConfig = &tls.Config{RootCAs: pool}
	base := []insurance.Option{
		insurance.WithCredentials(wiretest.ClientID, wiretest.ClientSecret),
		insurance.WithHTTPClient(&http.Client{Transport: transport}),
		wiretest.FastRetries,
	}
	c, err := insurance.NewClient(url, append(base, opts...)...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}
