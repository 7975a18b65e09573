package pipeline

import (
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"slices"
	"time"
)

// MaxConnsPerHost bounds the connections of the default transport to one host:
// without it, 64 goroutines open 70 and more (net/http parks a new connection when a
// freed one serves its request first). Further calls wait for one, or their context.
const MaxConnsPerHost = 64

// NewTransport is the transport used when the caller brings no *http.Client: the
// usual net/http timeouts, HTTP/2 over TLS, and a pool that keeps every connection it
// opens idle for reuse, so a client shared by many goroutines does not churn
// connections.
func NewTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          4 * MaxConnsPerHost,
		MaxIdleConnsPerHost:   MaxConnsPerHost,
		MaxConnsPerHost:       MaxConnsPerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// Pools are the connections of a client and of every client derived from it, by
// lane. Idempotent requests ride the caller's transport (or NewTransport).
// Record-creating requests ride a copy of it that speaks only HTTP/1.1, because over
// HTTP/2 net/http resends a request after a stream reset with PROTOCOL_ERROR
// (golang/go#47635), which may come after the server processed it, and tells no
// one; over HTTP/1.1 it resends a POST only when nothing of it was written. The copy
// closes connections idle for longer than a bound, to keep purchases off connections
// a server is about to close; and a purchase holds its body back (expect.go), so a
// connection closed under it all the same provably carried nothing.
//
// A transport other than an *http.Transport cannot be copied and does not report
// its connections: every lane rides it as it is, a record-creating request is never
// resent below the SDK, and no failure but a dial error proves that nothing was sent.
type Pools struct {
	idempotent, records http.RoundTripper
	ownConn             http.RoundTripper // records, but a new connection per request
	// traced is true when both pools are *http.Transports (records the SDK's
	// HTTP/1.1 copy): they report the connections a request obtains, and records
	// resends nothing that was written.
	traced  bool
	expect  *expectSwitch // whether record-creating requests ask Expect
	gate    *connGate     // of the idempotent pool; nil: none
	jar     http.CookieJar
	timeout time.Duration // the *http.Client's, per Do
}

// lane is the pool a try goes out on.
type lane int

const (
	idempotentLane lane = iota // Class Idempotent
	recordsLane                // Class CreatesRecord, and what deliver sends again
	ownConnLane                // a new connection: the retry after one that failed (wantsFreshConn)
	lanes                      // how many there are
)

// NewPools builds the pools of hc (nil: a client on NewTransport). recordIdle bounds
// how long a record-creating request's connection may have been idle (0: the
// transport's own bound; negative: none is reused). Over https, the idempotent pool
// lets its first burst out through a gate (see connGate).
func NewPools(hc *http.Client, recordIdle time.Duration, https bool) *Pools {
	if hc == nil {
		hc = &http.Client{Transport: NewTransport()}
	}
	rt := hc.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	p := &Pools{idempotent: rt, records: rt, ownConn: rt, expect: new(expectSwitch), jar: hc.Jar, timeout: hc.Timeout}
	if t, ok := rt.(*http.Transport); ok {
		p.records, p.ownConn = http1Only(t, recordIdle), http1Only(t, -1)
		p.traced = true
		if https {
			p.gate = newConnGate(maxGateWait)
		}
	}
	return p
}

// WithRecordIdle returns pools that share p's pool of idempotent requests and give
// record-creating ones a pool of their own, bounded by idle as NewPools does.
func (p *Pools) WithRecordIdle(idle time.Duration) *Pools {
	q := *p
	if t, ok := p.idempotent.(*http.Transport); ok {
		q.records = http1Only(t, idle)
	}
	return &q
}

// http1Only returns a copy of t that speaks only HTTP/1.1 and closes connections idle
// for longer than idle (when idle > 0 and t's own bound is longer); with idle < 0 it
// keeps no connection alive: each request dials its own.
func http1Only(t *http.Transport, idle time.Duration) *http.Transport {
	c := t.Clone()
	c.Protocols = new(http.Protocols)
	c.Protocols.SetHTTP1(true)
	c.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	if c.TLSClientConfig != nil { // a used transport advertises h2 there; the slice is t's
		c.TLSClientConfig.NextProtos = slices.DeleteFunc(slices.Clone(c.TLSClientConfig.NextProtos), func(p string) bool { return p == "h2" })
	}
	if c.ExpectContinueTimeout <= 0 || c.ExpectContinueTimeout > time.Second { // 0 would send a held-back body at once
		c.ExpectContinueTimeout = time.Second
	}
	switch {
	case idle < 0:
		c.DisableKeepAlives = true
	case idle > 0 && (c.IdleConnTimeout == 0 || c.IdleConnTimeout > idle):
		c.IdleConnTimeout = idle
	}
	return c
}

// roundTrippers are the pools by lane, each behind its guard (see guardedPool), the
// idempotent one through its gate too if it has one.
func (p *Pools) roundTrippers() [lanes]http.RoundTripper {
	return [lanes]http.RoundTripper{
		idempotentLane: guardedPool{pool: p.idempotent, traced: p.traced, gate: p.gate},
		recordsLane:    guardedPool{pool: p.records, traced: p.traced, stripKeys: p.traced},
		ownConnLane:    guardedPool{pool: p.ownConn, traced: p.traced}, // reuses no connection: nothing to resend
	}
}

// guardedPool stands between a caller's attempt middleware and a pool, and keeps
// what the middleware could break. It lets in each request the try sends and no
// more: middleware that sends a request again by itself is refused, as the first may
// have been processed. It marks the try answered once the pool returned a
// response: nothing is resent after that, and only http.Client asks for the body
// again, to follow a redirect it then refuses. On traced pools, a request must still
// carry its try's context, whose trace counts the connections (without it a
// purchase that was sent would look unsent, and be retried): one that lost it is
// refused unsent. And on the HTTP/1.1 lanes a request goes out without an
// Idempotency-Key or X-Idempotency-Key header: with one, net/http takes a POST for
// replayable and resends it after it was written.
type guardedPool struct {
	pool              http.RoundTripper
	traced, stripKeys bool
	gate              *connGate // nil: none
}

// errContextDropped refuses a request whose context no longer carries its try.
var errContextDropped = errors.New("attempt middleware replaced the request's context: the SDK can no longer tell a request that was sent from one that was not, so none is sent (pass req.Context() on)")

// errSentAgainAbove refuses a request that attempt middleware sends a second time.
var errSentAgainAbove = errors.New("attempt middleware sent the request again by itself: refused, as the first may have been processed (the SDK retries)")

// RoundTrip sends req on the pool, guarded.
func (g guardedPool) RoundTrip(req *http.Request) (*http.Response, error) {
	t, ok := req.Context().Value(tryKey{}).(*try)
	switch {
	case !ok && g.traced:
		return nil, errContextDropped
	case !ok:
		return g.pool.RoundTrip(req)
	case t.handOffs.Add(1) > 1:
		return nil, errSentAgainAbove
	}
	if g.stripKeys && (hasKey(req.Header, "Idempotency-Key") || hasKey(req.Header, "X-Idempotency-Key")) {
		req = req.Clone(req.Context())
		req.Header.Del("Idempotency-Key")
		req.Header.Del("X-Idempotency-Key")
	}
	resp, err := g.gate.roundTrip(g.pool, req)
	if err == nil {
		t.answered.Store(true)
	}
	return resp, err
}

// hasKey reports a header present, even empty: net/http takes a request with an empty
// Idempotency-Key for replayable too.
func hasKey(h http.Header, key string) bool {
	_, ok := h[key]
	return ok
}

// CloseIdleConnections closes the idle connections of both pools.
func (p *Pools) CloseIdleConnections() {
	for _, rt := range []http.RoundTripper{p.idempotent, p.records} {
		if c, ok := rt.(interface{ CloseIdleConnections() }); ok {
			c.CloseIdleConnections()
		}
	}
}
