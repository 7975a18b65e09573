package insurancetest

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
)

// memoryNetwork is the network of a Server made with InMemory. Each connection a
// client dials is one end of a net.Pipe; an http.Server serving the sandbox reads the
// other. net/http's client and server code run as they do over loopback (Expect:
// 100-continue, a Drop closing the connection, a dial refused once closed), with no
// listener and no socket: a goroutine blocked on a pipe is durably blocked, so inside
// a testing/synctest bubble fake time advances while the client waits for an answer.
type memoryNetwork struct {
	handler http.Handler

	mu     sync.Mutex
	conns  map[net.Conn]*memoryConn // by the server's end, while open
	closed bool
	// drained is made by a Close that finds connections open, and closed when the
	// last of them is.
	drained chan struct{}
}

// memoryConn is an open connection's server and state.
type memoryConn struct {
	server *http.Server
	state  http.ConnState
}

func newMemoryNetwork(h http.Handler) *memoryNetwork {
	return &memoryNetwork{handler: h, conns: map[net.Conn]*memoryConn{}}
}

// errClosed is what a dial to a closed in-memory sandbox fails with.
var errClosed = errors.New("insurancetest: the in-memory sandbox is closed (connection refused)")

// transport returns t dialing the sandbox in memory, keeping no connection idle.
// Proxy is cleared: a proxy from the environment is not used for loopback either.
//
// An idle connection keeps two goroutines of the client and one of the server
// blocked on its pipe, and a testing/synctest bubble whose test returns while any
// goroutine is blocked panics ("deadlock"): its clock stops then, so no idle
// timeout would ever end them. A negative MaxIdleConnsPerHost makes net/http close
// each connection once its answer is read, without asking the server to
// (DisableKeepAlives would send "Connection: close").
func (n *memoryNetwork) transport(t *http.Transport) *http.Transport {
	t.Proxy = nil
	t.DialContext = n.dial
	t.MaxIdleConnsPerHost = -1
	return t
}

// dial connects a client to the sandbox. Each connection has an http.Server of its
// own, whose Serve accepts it, starts its goroutine and returns: that goroutine is
// then the dialer's, in the dialer's synctest bubble if it has one, and no
// http.Server (whose listener WaitGroup a bubble would claim) is shared between
// bubbles.
func (n *memoryNetwork) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, &net.OpError{Op: "dial", Net: network, Addr: memoryAddr(addr), Err: err}
	}
	n.mu.Lock()
	closed := n.closed
	n.mu.Unlock()
	if closed {
		return nil, &net.OpError{Op: "dial", Net: network, Addr: memoryAddr(addr), Err: errClosed}
	}
	clientEnd, serverEnd := net.Pipe()
	srv := &http.Server{Handler: n.handler}
	srv.ConnState = func(c net.Conn, state http.ConnState) { n.track(c, srv, state) }
	_ = srv.Serve(&oneConnListener{conn: serverEnd}) // returns at the second Accept
	return clientEnd, nil
}

// track follows the server ends' states, for Close.
func (n *memoryNetwork) track(c net.Conn, srv *http.Server, state http.ConnState) {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch state {
	case http.StateClosed, http.StateHijacked:
		delete(n.conns, c)
		if len(n.conns) == 0 && n.drained != nil {
			close(n.drained)
			n.drained = nil
		}
	case http.StateNew:
		n.conns[c] = &memoryConn{server: srv, state: state}
		if n.closed { // dialed as Close began: refused after all
			_ = c.Close()
		}
	default:
		if mc := n.conns[c]; mc != nil {
			mc.state = state
		}
	}
}

// close refuses new connections, closes the idle ones, lets those serving a request
// close after the answer, and waits until all are closed: as httptest.Server.Close
// does over loopback.
func (n *memoryNetwork) close() {
	n.mu.Lock()
	n.closed = true
	for c, mc := range n.conns {
		mc.server.SetKeepAlivesEnabled(false) // a request being served is answered, then its connection closed
		if mc.state == http.StateIdle || mc.state == http.StateNew {
			_ = c.Close()
		}
	}
	if len(n.conns) == 0 {
		n.mu.Unlock()
		return
	}
	if n.drained == nil {
		n.drained = make(chan struct{})
	}
	drained := n.drained
	n.mu.Unlock()
	<-drained
}

// oneConnListener accepts one connection, then reports itself closed, which ends
// Serve. Closing it leaves the connection open.
type oneConnListener struct {
	conn net.Conn
}

func (l *oneConnListener) Accept() (net.Conn, error) {
	if c := l.conn; c != nil {
		l.conn = nil
		return c, nil
	}
	return nil, net.ErrClosed
}

func (l *oneConnListener) Close() error { return nil }

func (l *oneConnListener) Addr() net.Addr { return memoryAddr("insurancetest.invalid:80") }

// memoryAddr is an address in memory.
type memoryAddr string

func (a memoryAddr) Network() string { return "pipe" }
func (a memoryAddr) String() string  { return string(a) }
