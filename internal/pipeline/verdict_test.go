package pipeline

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// outcome is what a try saw, as judge reads it: what came back, and the evidence.
type outcome struct {
	status    int   // 0: no answer
	err       error // the try's error
	holdsBody bool  // the request asked Expect and held its body back
	conns     int32 // connections it got
	bodyRead  bool  // the held-back body went out
	before    bool  // the answer began before the held-back body went out
	timedOut  bool  // the attempt timeout ended it
}

func (o outcome) try(class Class) *try {
	t := &try{req: Request{Class: class, NeedsBody: class == CreatesRecord}, seesConns: true, holdsBody: o.holdsBody, err: o.err}
	if o.status != 0 {
		t.answer = &Answer{StatusCode: o.status}
	}
	t.ev.conns.Store(o.conns)
	t.ev.bodyRead.Store(o.bodyRead)
	switch {
	case o.status != 0 && o.before:
		t.ev.answerBegan.Store(answerBeforeBody)
	case o.status != 0 && o.holdsBody:
		t.ev.answerBegan.Store(answerAfterBody)
	}
	return t
}

var (
	errReset     = errors.New("read: connection reset by peer")
	errDial      = &net.OpError{Op: "dial", Err: errors.New("connection refused")}
	errCut       = fmt.Errorf("reading response body: %w", io.ErrUnexpectedEOF)
	errNotJSON   = fmt.Errorf("decoding response body: %w", json.Unmarshal([]byte("\x00\x00"), new(any)))
	errWrongType = permanent(fmt.Errorf("decoding response body: %w", json.Unmarshal([]byte(`{"a":1}`), new([]int))))
	errTimeout   = fmt.Errorf("net/http: request canceled: %w", context.DeadlineExceeded)
)

// The retry table of conventions.md, row by row: what an idempotent call (products,
// quotes, customer secrets) and a record-creating one (purchases, onboarding, events)
// may send again after each outcome, whether the request may have reached the
// server, and on which connection the next try goes.
func TestJudgeIsTheRetryTable(t *testing.T) {
	type want struct{ retry, arrived, freshConn bool }
	for _, row := range []struct {
		name          string
		outcome       outcome
		idempotent    want
		createsRecord want
		why           string // for the record-creating call
	}{
		{"dial failure: nothing sent", outcome{err: errDial},
			want{true, false, true}, want{true, false, false}, "nothing could connect"},
		{"no connection obtained", outcome{err: context.Canceled},
			want{true, false, true}, want{true, false, false}, "the request got no connection: nothing was sent"},
		{"429", outcome{status: 429, conns: 1},
			want{true, false, false}, want{true, false, false}, "the server answered 429 Too Many Requests: it refused the request unprocessed"},
		{"503 after the request went out", outcome{status: 503, conns: 1},
			want{true, true, false}, want{false, true, false}, "the server answered 503 Service Unavailable"},
		{"502 after the body went out", outcome{status: 502, conns: 1, holdsBody: true, bodyRead: true},
			want{true, true, false}, want{false, true, false}, "the server answered 502 Bad Gateway"},
		{"504", outcome{status: 504, conns: 1},
			want{true, true, false}, want{false, true, false}, "the server answered 504 Gateway Timeout"},
		{"503 before the body went out", outcome{status: 503, conns: 1, holdsBody: true, before: true},
			want{true, true, false}, want{true, false, false}, "the server answered 503 Service Unavailable before the body went out: it cannot have acted on the request"},
		{"417 before the body went out", outcome{status: 417, conns: 1, holdsBody: true, before: true},
			want{true, false, false}, want{true, false, false}, "the server answered 417 Expectation Failed before the body went out: it cannot have acted on the request"},
		{"reset after the request went out", outcome{err: errReset, conns: 1},
			want{true, true, true}, want{false, true, false}, "the request went out and the connection closed before an answer"},
		{"reset after the body went out", outcome{err: errReset, conns: 1, holdsBody: true, bodyRead: true},
			want{true, true, true}, want{false, true, false}, "the body went out and the connection closed before an answer"},
		{"closed before the server asked for the body", outcome{err: errReset, conns: 1, holdsBody: true},
			want{true, false, true}, want{true, false, true}, "the connection closed before the server asked for the body: the body never went out"},
		{"attempt timeout after the request went out", outcome{err: errTimeout, conns: 1, timedOut: true},
			want{true, true, true}, want{false, true, false}, "the request went out and the attempt timeout passed before an answer"},
		{"context ended after the body went out", outcome{err: context.DeadlineExceeded, conns: 1, holdsBody: true, bodyRead: true},
			want{true, true, true}, want{false, true, false}, "the body went out and the context ended before an answer"},
		{"2xx body cut short", outcome{status: 201, err: errCut, conns: 1},
			want{true, true, true}, want{false, true, false}, "the server answered 201 Created, but its body was cut short"},
		{"2xx body not JSON (Apache's NUL bytes)", outcome{status: 201, err: errNotJSON, conns: 1},
			want{true, true, true}, want{false, true, false}, "the server answered 201 Created, but its body is cut or not JSON"},
		{"2xx body of the wrong shape", outcome{status: 201, err: errWrongType, conns: 1},
			want{false, true, true}, want{false, true, false}, "the server answered 201 Created, but its body does not decode into the result"},
		{"2xx body too large", outcome{status: 200, err: errTooLarge, conns: 1},
			want{false, true, true}, want{false, true, false}, "the server answered 200 OK, but its body is larger than the SDK reads"},
		{"certificate that does not verify", outcome{err: &tls.CertificateVerificationError{Err: errors.New("x509")}, conns: 1},
			want{false, true, true}, want{false, true, false}, "the request went out and the connection closed before an answer"},
		{"middleware dropped the context", outcome{err: errContextDropped},
			want{false, false, true}, want{false, false, false}, "the request got no connection: nothing was sent"},
	} {
		for _, c := range []struct {
			class Class
			want  want
		}{{Idempotent, row.idempotent}, {CreatesRecord, row.createsRecord}} {
			v := judge(row.outcome.try(c.class), row.outcome.timedOut)
			got := want{v.retry, v.arrived, v.freshConn}
			assert.Equal(t, c.want, got, "%s, class %d: {retry, arrived, freshConn}", row.name, c.class)
			if c.class == CreatesRecord {
				assert.Equal(t, row.why, v.why, row.name)
			}
		}
	}
	for _, status := range []int{400, 401, 402, 403, 404, 409, 422} {
		for _, class := range []Class{Idempotent, CreatesRecord} {
			v := judge(outcome{status: status, conns: 1}.try(class), false)
			assert.False(t, v.retry, "a %d is never sent again", status)
		}
	}
}

// What a try shows of the server's way with Expect, which the pools count to stop
// asking a server that does not answer it.
func TestJudgeReadsTheServersWayWithExpect(t *testing.T) {
	continued := outcome{status: 201, conns: 1, holdsBody: true, bodyRead: true}.try(CreatesRecord)
	continued.ev.continued.Store(true)
	type news struct{ honoured, unwelcome bool }
	for name, tc := range map[string]struct {
		try      *try
		timedOut bool
		want     news
	}{
		"not asked":                            {outcome{status: 201, conns: 1}.try(CreatesRecord), false, news{}},
		"100 Continue":                         {continued, false, news{honoured: true}},
		"refused with 417":                     {outcome{status: 417, conns: 1, holdsBody: true, before: true}.try(CreatesRecord), false, news{unwelcome: true}},
		"answered after the body went unasked": {outcome{status: 201, conns: 1, holdsBody: true, bodyRead: true}.try(CreatesRecord), false, news{unwelcome: true}},
		"a gateway's 502 after the body":       {outcome{status: 502, conns: 1, holdsBody: true, bodyRead: true}.try(CreatesRecord), false, news{}},
		"silent until the attempt timeout":     {outcome{err: errTimeout, conns: 1, holdsBody: true}.try(CreatesRecord), true, news{unwelcome: true}},
		"closed before asking":                 {outcome{err: errReset, conns: 1, holdsBody: true}.try(CreatesRecord), false, news{}},
	} {
		v := judge(tc.try, tc.timedOut)
		assert.Equal(t, tc.want, news{v.expectHonoured, v.expectUnwelcome}, name)
	}
}

// An answer made up by attempt middleware, whose first byte net/http never reported,
// proves nothing about the held-back body.
func TestAnAnswerNetHTTPNeverReportedIsNoProof(t *testing.T) {
	made := &try{req: Request{Class: CreatesRecord, NeedsBody: true}, seesConns: true, holdsBody: true,
		answer: &Answer{StatusCode: http.StatusServiceUnavailable}}
	made.ev.conns.Store(1)
	v := judge(made, false)
	assert.True(t, v.arrived)
	assert.False(t, v.retry)
}
