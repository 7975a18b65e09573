package pipeline

import (
	"sync"
	"time"
)

// A record-creating request asks "Expect: 100-continue" and holds its body back until
// the server asks for it: a connection closed before that (a proxy reloading) carried
// the headers at most, so the request was provably not processed. A server that does
// not answer Expect costs each such request up to ExpectContinueTimeout (1 s): the
// switch below stops asking it for a while.

// What turns Expect off: more answers in a row than a passing fault gives; and for
// how long: then the pools ask again, in case the verdict was wrong or is no more.
const (
	expectStrikes = 3
	expectPause   = 5 * time.Minute
)

// expectSwitch decides whether record-creating requests ask Expect: after
// expectStrikes tries in a row found it unwelcome, not for expectPause. A "100
// Continue" clears the count. Derived clients share it.
type expectSwitch struct {
	mu       sync.Mutex
	strikes  int
	offUntil time.Time
}

// asks reports whether a record-creating request asks Expect now.
func (s *expectSwitch) asks() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !time.Now().Before(s.offUntil)
}

// observe counts what try verdict v showed of Expect.
func (s *expectSwitch) observe(v verdict) {
	if !v.expectHonoured && !v.expectUnwelcome {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case v.expectHonoured:
		s.strikes = 0
	case !time.Now().Before(s.offUntil): // not while off: a pause ends with none
		if s.strikes++; s.strikes >= expectStrikes {
			s.strikes, s.offUntil = 0, time.Now().Add(expectPause)
		}
	}
}
