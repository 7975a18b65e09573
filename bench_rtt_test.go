package insurance_test

import (
	"net"
	"strings"
	"testing"
	"time"
)

// BenchmarkPairedTLSAtRTT is BenchmarkPairedTLS's serial pair on a network with a
// round trip: both clients reach the TLS server through delayingProxy. It prices what
// a partner feels, where BenchmarkPairedTLS prices the CPU; a cost that adds no
// round trip all but vanishes here. It runs at 20 ms, the round trip this project
// measures partners' latency at, and at 2 ms, a short hop within one region.
func BenchmarkPairedTLSAtRTT(b *testing.B) {
	for _, rtt := range []time.Duration{2 * time.Millisecond, 20 * time.Millisecond} {
		for _, name := range []string{"QuoteTravel", "ListProducts"} {
			b.Run(name+"/"+rtt.String(), func(b *testing.B) {
				srv, n := tlsBenchServer(b)
				proxy := delayingProxy(b, strings.TrimPrefix(srv.URL, "https://"), rtt)
				timeTLSPair(b, newTLSPair(b, srv, "https://"+proxy), n, name, "serial")
			})
		}
	}
}

// delayingProxy forwards TCP connections to target, every byte arriving rtt/2 after it
// was sent, each way: a network with a round trip of rtt. It returns its address.
func delayingProxy(b *testing.B, target string, rtt time.Duration) string {
	b.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			client, err := ln.Accept()
			if err != nil {
				return
			}
			server, err := net.Dial("tcp", target)
			if err != nil {
				_ = client.Close()
				continue
			}
			go delayCopy(server, client, rtt/2)
			go delayCopy(client, server, rtt/2)
		}
	}()
	return ln.Addr().String()
}

// delayCopy copies src to dst, each read held back for delay, then closes both.
func delayCopy(dst, src net.Conn, delay time.Duration) {
	type chunk struct {
		due  time.Time
		data []byte
	}
	chunks := make(chan chunk, 256)
	go func() {
		defer close(chunks)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				chunks <- chunk{time.Now().Add(delay), buf[:n]}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range chunks {
		time.Sleep(time.Until(c.due))
		if _, err := dst.Write(c.data); err != nil {
			break
		}
	}
	_ = dst.Close()
	_ = src.Close()
}
