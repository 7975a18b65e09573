//go:build proxies

package pipeline_test

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http/httptrace"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/partnerinsure/insurance-go"
)

// What each call of the matrix did, on the wire and in the end, and the table row and
// verdict of a scenario. A scenario fails on:
//
//   - a purchase the upstream processed twice;
//   - a purchase the upstream got that failed without ErrOutcomeUnknown;
//   - a purchase outcome unknown that the SDK could have known never arrived: the
//     upstream never saw it, and every request of it was answered before its body
//     went out (no 100 Continue, an answer within 900 ms of the connection, before
//     net/http's 1 s ExpectContinueTimeout sends the body unasked);
//   - a call over 2 x (1 + MaxRetries) requests (counted by an Observer);
//   - with the upstream up, any call that failed.

// callRecord is one call: its key, its sends as httptrace saw them, and its end.
type callRecord struct {
	id       string
	purchase bool
	start    time.Time

	mu    sync.Mutex
	sends []*sendTrace

	err      error
	attempts int // the Observer's CallResult.Attempts
}

// sendTrace is one request on the wire.
type sendTrace struct {
	proto                    string // negotiated by ALPN: "h2" or "http/1.1"
	conn, wait100, firstByte time.Time
	continued                bool
}

type callRecordKey struct{}

// traced is ctx carrying r and the httptrace hooks that fill it in. The SDK's own
// hooks compose with these.
func (r *callRecord) traced(ctx context.Context) context.Context {
	last := func(f func(s *sendTrace)) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if len(r.sends) > 0 {
			f(r.sends[len(r.sends)-1])
		}
	}
	ctx = context.WithValue(ctx, callRecordKey{}, r)
	return httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			s := &sendTrace{conn: time.Now(), proto: "http/1.1"}
			if tc, ok := info.Conn.(*tls.Conn); ok && tc.ConnectionState().NegotiatedProtocol == "h2" {
				s.proto = "h2"
			}
			r.mu.Lock()
			r.sends = append(r.sends, s)
			r.mu.Unlock()
		},
		Wait100Continue:      func() { last(func(s *sendTrace) { s.wait100 = time.Now() }) },
		Got100Continue:       func() { last(func(s *sendTrace) { s.continued = true }) },
		GotFirstResponseByte: func() { last(func(s *sendTrace) { s.firstByte = time.Now() }) },
	})
}

// bodyWithheld reports a send that asked for 100 Continue, never got it, and was
// answered before net/http would have sent the body unasked: its body never went out.
func (s *sendTrace) bodyWithheld() bool {
	return !s.wait100.IsZero() && !s.continued && !s.firstByte.IsZero() && s.firstByte.Sub(s.conn) < 900*time.Millisecond
}

// knowablyNotSent reports a call none of whose requests had its body go out.
func (r *callRecord) knowablyNotSent() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.sends {
		if !s.bodyWithheld() {
			return false
		}
	}
	return len(r.sends) > 0
}

// attemptCounter is the Observer that puts CallResult.Attempts into the call's record.
type attemptCounter struct{}

func (attemptCounter) StartCall(ctx context.Context, _ insurance.CallInfo) context.Context {
	return ctx
}

func (attemptCounter) StartAttempt(context.Context, insurance.AttemptInfo) {}

func (attemptCounter) EndCall(ctx context.Context, _ insurance.CallInfo, result insurance.CallResult) {
	if r, ok := ctx.Value(callRecordKey{}).(*callRecord); ok {
		r.mu.Lock()
		r.attempts = result.Attempts
		r.mu.Unlock()
	}
}

// tableHeader heads the rows the scenarios print.
var tableHeader = []string{"| proxy | scenario | kind | calls | succeeded | outcome unknown (never forwarded) | falsely unknown | processed twice | failed unknown-less, forwarded | over 6 requests | requests sent / forwarded |",
	"|---|---|---|---|---|---|---|---|---|---|---|"}

// kindTally is a phase's tally of one call kind.
type kindTally struct {
	calls, succeeded, unknown, unknownNeverForwarded, falselyUnknown int
	twice, missingUnknown, overBound, sent, forwarded                int
	// unknownAfter100: purchases outcome unknown after the proxy said "100 Continue"
	// itself (Caddy does, before it forwards): the body went out on its word, and the
	// SDK cannot know what followed.
	unknownAfter100 int
	failed          map[string]int // error texts
	wire            map[string]int // sends by protocol and 100 Continue
	examples        []string
}

// judge tallies records against the upstream's counts.
func judge(records []*callRecord, count func(string) int) kindTally {
	v := kindTally{failed: map[string]int{}, wire: map[string]int{}}
	for _, r := range records {
		n := count(r.id)
		v.calls++
		v.sent += r.attempts
		v.forwarded += n
		r.mu.Lock()
		for _, s := range r.sends {
			switch {
			case s.continued:
				v.wire[s.proto+" 100 Continue"]++
			case !s.wait100.IsZero():
				v.wire[s.proto+" Expect, no 100"]++
			default:
				v.wire[s.proto]++
			}
		}
		r.mu.Unlock()
		unknown := errors.Is(r.err, insurance.ErrOutcomeUnknown)
		note := func(what string) {
			if len(v.examples) < 5 {
				v.examples = append(v.examples, fmt.Sprintf("%s %s: upstream saw %d, attempts %d, sends %s: %v", what, r.id, n, r.attempts, r.describeSends(), r.err))
			}
		}
		switch {
		case r.err == nil:
			v.succeeded++
		default:
			v.failed[shortErr(r.err)]++
		}
		if r.attempts > maxRequests {
			v.overBound++
			note("over the bound")
		}
		if !r.purchase {
			if r.err != nil {
				note("quote failed")
			}
			continue
		}
		if n > 1 {
			v.twice++
			note("processed twice")
		}
		if unknown {
			v.unknown++
			note("outcome unknown")
			if r.lastSendContinued() {
				v.unknownAfter100++
			}
			if n == 0 {
				v.unknownNeverForwarded++
				if r.knowablyNotSent() {
					v.falselyUnknown++
					note("falsely unknown")
				}
			}
		}
		if r.err != nil && !unknown && n > 0 {
			v.missingUnknown++
			note("forwarded, failed, not outcome unknown")
		}
	}
	return v
}

// lastSendContinued reports a call whose last send got "100 Continue".
func (r *callRecord) lastSendContinued() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.sends) > 0 && r.sends[len(r.sends)-1].continued
}

// describeSends is each send as protocol, 100 Continue, and ms to the first byte.
func (r *callRecord) describeSends() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var parts []string
	for _, s := range r.sends {
		p := s.proto
		switch {
		case s.continued:
			p += " 100"
		case !s.wait100.IsZero():
			p += " expect"
		}
		if !s.firstByte.IsZero() {
			p += fmt.Sprintf(" answer@%dms", s.firstByte.Sub(s.conn).Milliseconds())
		}
		parts = append(parts, p)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// shortErr is an error's text without its per-call details, to group by.
func shortErr(err error) string {
	s := err.Error()
	if i := strings.Index(s, "insurance: POST "); i >= 0 {
		if j := strings.Index(s[i:], ": "); j > 0 {
			s = s[i+j+2:]
		}
	}
	if len(s) > 160 {
		s = s[:160]
	}
	return s
}

// row is the markdown row of v.
func (v kindTally) row(proxy, scenario, kind string) string {
	if kind == "quotes" {
		return fmt.Sprintf("| %s | %s | %s | %d | %d | - | - | - | - | %d | %d / %d |", proxy, scenario, kind, v.calls, v.succeeded, v.overBound, v.sent, v.forwarded)
	}
	return fmt.Sprintf("| %s | %s | %s | %d | %d | %d (%d) | %d | %d | %d | %d | %d / %d |", proxy, scenario, kind, v.calls, v.succeeded,
		v.unknown, v.unknownNeverForwarded, v.falselyUnknown, v.twice, v.missingUnknown, v.overBound, v.sent, v.forwarded)
}

// check fails t on what the matrix forbids; upstreamUp: every call must succeed.
func (v kindTally) check(t *testing.T, kind string, upstreamUp bool) {
	t.Helper()
	assert.Zero(t, v.twice, "%s processed twice", kind)
	assert.Zero(t, v.missingUnknown, "%s the upstream got, failed without ErrOutcomeUnknown", kind)
	assert.Zero(t, v.falselyUnknown, "%s outcome unknown though no body went out", kind)
	assert.Zero(t, v.overBound, "%s over %d requests", kind, maxRequests)
	if upstreamUp {
		assert.Equal(t, v.calls, v.succeeded+v.unknownAfter100, "every one of the %s succeeded (the upstream was up), but for outcome unknowns after a 100 Continue", kind)
		if v.unknownAfter100 > 0 {
			t.Logf("%s outcome unknown after the proxy's 100 Continue: %d", kind, v.unknownAfter100)
		}
	}
	t.Logf("%s sends: %v", kind, v.wire)
	if len(v.failed) > 0 {
		keys := make([]string, 0, len(v.failed))
		for k := range v.failed {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("%s failed %d x: %s", kind, v.failed[k], k)
		}
	}
	for _, e := range v.examples {
		t.Logf("e.g. %s", e)
	}
}
