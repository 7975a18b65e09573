package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Fault makes requests of one route fail as networks and proxies make them fail.
// Package insurancetest documents each field.
type Fault struct {
	Times   int
	Process bool
	Status  int
	Body    string
	Header  http.Header
	Delay   time.Duration
	Drop    bool
}

// injected is a queued fault and how many more requests it applies to (< 0: every
// one until Reset).
type injected struct {
	Fault
	left int
}

// Inject queues f for route ("METHOD /path", one of the interface's), behind the
// faults already queued for that route.
func (s *Sandbox) Inject(route string, f Fault) error {
	if err := checkRoute(route); err != nil {
		return err
	}
	if err := f.check(); err != nil {
		return err
	}
	left := f.Times
	if left == 0 {
		left = -1
	}
	f.Header = f.Header.Clone()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults[route] = append(s.faults[route], &injected{Fault: f, left: left})
	return nil
}

func checkRoute(route string) error {
	method, path, _ := strings.Cut(route, " ")
	var routes []string
	for _, ep := range endpoints {
		if ep.method == method && ep.path == path {
			return nil
		}
		routes = append(routes, fmt.Sprintf("%q", ep.method+" "+ep.path))
	}
	return fmt.Errorf("route %q is not one of the interface's; want one of %s", route, strings.Join(routes, ", "))
}

func (f Fault) check() error {
	switch {
	case f.Times < 0:
		return fmt.Errorf("fault Times is %d: want 0 (every request) or more", f.Times)
	case f.Delay < 0:
		return fmt.Errorf("fault Delay is %s: want 0 or more", f.Delay)
	case f.Status != 0 && (f.Status < 100 || f.Status > 599):
		return fmt.Errorf("fault Status is %d: want an HTTP status, 100 to 599", f.Status)
	case f.Drop && f.Status != 0:
		return errors.New("fault Drop and Status exclude each other: a dropped connection has no answer")
	case f.Status == 0 && (f.Body != "" || len(f.Header) > 0):
		return errors.New("fault Body and Header go with a Status")
	case !f.Drop && f.Status == 0 && f.Delay == 0:
		return errors.New("the fault does nothing: set Status, Delay or Drop")
	}
	return nil
}

// claimFault takes the fault the next request of route meets, if any. Each request
// claims its own application under the lock, so concurrent requests each see a whole
// fault, and a fault with Times n applies to exactly n of them.
func (s *Sandbox) claimFault(route string) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	queue := s.faults[route]
	if len(queue) == 0 {
		return nil
	}
	next := queue[0]
	if next.left > 0 {
		if next.left--; next.left == 0 {
			s.faults[route] = queue[1:]
		}
	}
	f := next.Fault
	return &f
}

// applyFault plays f: it waits Delay, then drops the connection or answers Status. It
// reports whether the request is settled: answered, dropped, or abandoned by a caller
// that went away during the delay.
func (s *Sandbox) applyFault(w http.ResponseWriter, r *http.Request, f *Fault) bool {
	if !wait(r, f.Delay) {
		return true
	}
	switch {
	case f.Drop:
		panic(http.ErrAbortHandler) // net/http closes the connection without an answer
	case f.Status != 0:
		for k, vs := range f.Header {
			w.Header()[http.CanonicalHeaderKey(k)] = vs
		}
		body := f.Body
		if body == "" && f.Status >= 400 {
			// Like every error of the sandbox: the JSON error body, so that a fault
			// looks like the service's own error unless Body says otherwise.
			body = faultBody(f.Status)
			if w.Header().Get("Content-Type") == "" {
				w.Header().Set("Content-Type", "application/json")
			}
		}
		w.WriteHeader(f.Status)
		_, _ = io.WriteString(w, body)
		return true
	}
	return false
}

// faultBody is the error body of a status fault given no Body: the sandbox's error
// body, with error_code "injected_fault".
func faultBody(status int) string {
	text := http.StatusText(status)
	b, _ := json.Marshal(map[string]any{
		"error":      text,
		"error_code": "injected_fault",
		"message":    fmt.Sprintf("a fault injected in the sandbox answered %d %s", status, text),
		"reason":     strings.ToLower(strings.ReplaceAll(text, " ", "_")),
		"status":     status,
	})
	return string(b)
}
