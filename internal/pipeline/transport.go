package pipeline

import (
	"crypto/tls"
	"net"
	"net/http"
	"slices"
	"time"
)

// MaxConnsPerHost bounds the default transport's connections to one host: without it,
// 64 goroutines open 70 and more. Further calls wait for one, or their context.
const MaxConnsPerHost = 64

// NewTransport is the transport used when the caller brings no *http.Client: the
// usual timeouts, every connection kept idle for reuse, HTTP/2 over TLS, and an
// HTTP/2 connection silent for 30 s pinged, and dropped when the ping goes unanswered.
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
		HTTP2:                 &http.HTTP2Config{SendPingTimeout: 30 * time.Second, PingTimeout: 15 * time.Second},
	}
}

// Pools are the connections of a client and of the clients derived from it, by lane.
// Idempotent requests ride the caller's transport (or NewTransport); record-creating
// ones an HTTP/1.1-only copy of it: over HTTP/2 net/http resends a request reset with
// PROTOCOL_ERROR, which may come after the server processed it (golang/go#47635);
// over HTTP/1.1 it resends a POST only when it wrote nothing of it. The copy closes
// connections idle longer than a bound, which a server may be closing.
//
// A transport other than an *http.Transport cannot be copied and does not report its
// connections: every lane rides it as it is, a record-creating request is never
// resent below the SDK, and nothing but a dial error proves a request unsent.
type Pools struct {
	// The three lanes a try goes out on.
	idempotent http.RoundTripper // Class Idempotent
	records    http.RoundTripper // Class CreatesRecord, and what a try sends again itself
	ownConn    http.RoundTripper // records, a new connection per request: a retry after a failed one
	// seesConns: the pools are *http.Transports, which report the connections a
	// request gets (records being the SDK's HTTP/1.1 copy).
	seesConns bool
	expect    *expectSwitch // whether record-creating requests ask Expect
	gate      *connGate     // in front of the idempotent pool; nil: none
	timeout   time.Duration // the *http.Client's, per Do
}

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
	ps := &Pools{idempotent: rt, records: rt, ownConn: rt, expect: new(expectSwitch), timeout: hc.Timeout}
	if base, ok := rt.(*http.Transport); ok {
		ps.records, ps.ownConn = http1Only(base, recordIdle), http1Only(base, -1)
		ps.seesConns = true
		if https {
			ps.gate = newConnGate(rt)
		}
	}
	return ps
}

// WithRecordIdle returns pools that share p's pool of idempotent requests and give
// record-creating ones a pool of their own, bounded by idle as NewPools does.
func (ps *Pools) WithRecordIdle(idle time.Duration) *Pools {
	q := *ps
	if base, ok := ps.idempotent.(*http.Transport); ok {
		q.records = http1Only(base, idle)
	}
	return &q
}

// http1Only returns a copy of base that speaks only HTTP/1.1 and closes connections
// idle for longer than idle (when idle > 0 and base's own bound is longer); with
// idle < 0 it keeps no connection alive: each request dials its own.
func http1Only(base *http.Transport, idle time.Duration) *http.Transport {
	c := base.Clone()
	c.Protocols = new(http.Protocols)
	c.Protocols.SetHTTP1(true)
	c.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	if c.TLSClientConfig != nil { // a used transport advertises h2 there; the slice is base's
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

// roundTrippers are the lanes' pools, each behind its guard (wire.go), the
// idempotent one through its gate too if it has one.
func (ps *Pools) roundTrippers() (idempotent, records, ownConn http.RoundTripper) {
	idempotent = ps.idempotent
	if ps.gate != nil {
		idempotent = ps.gate
	}
	return guardedPool{pool: idempotent, seesConns: ps.seesConns},
		guardedPool{pool: ps.records, seesConns: ps.seesConns, stripKeys: ps.seesConns},
		guardedPool{pool: ps.ownConn, seesConns: ps.seesConns} // reuses no connection: nothing to resend
}

// CloseIdleConnections closes the idle connections of the pools (the own-connection
// lane keeps none).
func (ps *Pools) CloseIdleConnections() {
	for _, rt := range []http.RoundTripper{ps.idempotent, ps.records} {
		if c, ok := rt.(interface{ CloseIdleConnections() }); ok {
			c.CloseIdleConnections()
		}
	}
}
