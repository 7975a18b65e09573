package sandbox

import (
	"bytes"
	"maps"
	"net/http"
	"slices"
	"strings"
	"time"
)

// Limits of the request log, beside MaxRecords (its count of entries). They bound
// what a request can make the sandbox hold, whoever sends it: examples/sandbox may
// be reached by any page a browser on the machine opens.
const (
	// MaxLoggedBodyBytes is how much of a body the log keeps: the first bytes of
	// the masked body; BodyTruncated says when there were more.
	MaxLoggedBodyBytes = 64 << 10
	// MaxLoggedHeaderBytes is how much of a request's path and headers the log
	// keeps (names and values): a path longer than half of it is cut, and the
	// headers that do not fit (in name order) are left out; HeaderTruncated says so.
	MaxLoggedHeaderBytes = 8 << 10
)

// Request is one request of the interface the sandbox received. It never holds a
// secret: the auth scheme only, no credential header, and card numbers, account
// numbers and verification codes masked in the body.
//
// Every request has an entry, but only a request the sandbox reads has a body: one
// to an endpoint of the interface, by its method, with the credentials it takes. The
// body of a request to an unknown route, or without valid credentials, is neither
// read nor kept.
type Request struct {
	Method          string
	Path            string
	Auth            string // "basic", "client-id", "bearer", "none"; schemes joined with "+" when several
	ClientID        string // the known partner client id it carried (Basic, else x-api-client-id); "" otherwise
	Header          http.Header
	HeaderTruncated bool // the path was cut, or headers left out, at MaxLoggedHeaderBytes
	Body            []byte
	BodyTruncated   bool // Body is the first MaxLoggedBodyBytes of a longer (masked) body
	StatusCode      int  // 0 until answered, and when dropped or abandoned
	ReceivedAt      time.Time
	Warning         string // what the answer's WarningHeader said, if anything
}

// record logs a request as it arrives, before any fault applies to it, with body,
// the body read (nil when it was not).
func (s *Sandbox) record(r *http.Request, body []byte) *Request {
	entry := &Request{Method: r.Method, Auth: authScheme(r.Header), ReceivedAt: s.Now()}
	entry.Path, entry.Header, entry.HeaderTruncated = loggedHead(r)
	entry.Body, entry.BodyTruncated = loggedBody(body)
	s.mu.Lock()
	defer s.mu.Unlock()
	entry.ClientID = s.carriedClientID(r)
	s.log = append(s.log, entry)
	if len(s.log) > MaxRecords {
		s.log[0] = nil // the array keeps its first slots until append moves it
		s.log = s.log[1:]
	}
	return entry
}

// loggedBody is body masked and cut at MaxLoggedBodyBytes, in memory of its own: a
// slice of the body read would keep all of it.
func loggedBody(body []byte) (logged []byte, truncated bool) {
	if len(body) == 0 {
		return nil, false
	}
	masked := maskBody(body)
	if len(masked) > MaxLoggedBodyBytes {
		return bytes.Clone(masked[:MaxLoggedBodyBytes]), true
	}
	return bytes.Clone(masked), false
}

// loggedHead is r's path and its headers without credentials, within
// MaxLoggedHeaderBytes.
func loggedHead(r *http.Request) (path string, header http.Header, truncated bool) {
	path = r.URL.Path
	if len(path) > MaxLoggedHeaderBytes/2 {
		path, truncated = path[:MaxLoggedHeaderBytes/2], true
	}
	budget := MaxLoggedHeaderBytes - len(path)
	header = http.Header{}
	for _, name := range slices.Sorted(maps.Keys(r.Header)) {
		if credentialHeaders[http.CanonicalHeaderKey(name)] {
			continue
		}
		for _, v := range r.Header[name] {
			if len(name)+len(v) > budget {
				truncated = true
				continue
			}
			budget -= len(name) + len(v)
			header[name] = append(header[name], v)
		}
	}
	return path, header, truncated
}

// carriedClientID is the client id r carried, in its Basic credentials or else its
// x-api-client-id header, when it is a partner's: a secret sent in its place is never
// logged. The caller holds s.mu.
func (s *Sandbox) carriedClientID(r *http.Request) string {
	if id, _, ok := r.BasicAuth(); ok && s.knownClientID(id) {
		return id
	}
	if id := r.Header.Get("X-Api-Client-Id"); s.knownClientID(id) {
		return id
	}
	return ""
}

// Requests returns the logged requests, oldest first.
func (s *Sandbox) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := copies(s.log)
	for i := range out { // what a caller does with them is not the log's business
		out[i].Header, out[i].Body = out[i].Header.Clone(), bytes.Clone(out[i].Body)
	}
	return out
}

// answerRecorder notes the status of an answer in its log entry as the answer
// begins, so the entry is complete before the caller can read any of it.
type answerRecorder struct {
	http.ResponseWriter
	sandbox *Sandbox
	entry   *Request
	started bool
}

// WriteHeader notes the status, then sends it.
func (a *answerRecorder) WriteHeader(status int) {
	if !a.started {
		a.started = true
		a.sandbox.mu.Lock()
		a.entry.StatusCode = status
		a.sandbox.mu.Unlock()
	}
	a.ResponseWriter.WriteHeader(status)
}

// Write sends body bytes, noting a 200 if no status was sent.
func (a *answerRecorder) Write(b []byte) (int, error) {
	if !a.started {
		a.WriteHeader(http.StatusOK)
	}
	return a.ResponseWriter.Write(b)
}

// authScheme names the auth schemes a request carried.
func authScheme(h http.Header) string {
	var schemes []string
	if authorization := h.Get("Authorization"); authorization != "" {
		scheme, _, _ := strings.Cut(authorization, " ")
		switch strings.ToLower(scheme) {
		case "basic":
			schemes = append(schemes, "basic")
		case "bearer":
			schemes = append(schemes, "bearer")
		default:
			schemes = append(schemes, "other")
		}
	}
	if h.Get("X-Api-Client-Id") != "" {
		schemes = append(schemes, "client-id")
	}
	if len(schemes) == 0 {
		return "none"
	}
	return strings.Join(schemes, "+")
}

// credentialHeaders are the headers the log leaves out: they carry credentials.
var credentialHeaders = map[string]bool{"Authorization": true, "Proxy-Authorization": true, "X-Api-Client-Id": true, "Cookie": true}
