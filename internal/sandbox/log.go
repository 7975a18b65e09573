package sandbox

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// Request is one request of the interface the sandbox received. It never holds a
// secret: the auth scheme only, no credential header, and card numbers, account
// numbers and verification codes masked in the body.
type Request struct {
	Method     string
	Path       string
	Auth       string // "basic", "client-id", "bearer", "none"; schemes joined with "+" when several
	ClientID   string // the known partner client id it carried (Basic, else x-api-client-id); "" otherwise
	Header     http.Header
	Body       []byte
	StatusCode int // 0 until answered, and when dropped or abandoned
	ReceivedAt time.Time
}

// record logs a request as it arrives, before any fault applies to it.
func (s *Sandbox) record(r *http.Request, body []byte) *Request {
	entry := &Request{
		Method: r.Method, Path: r.URL.Path, Auth: authScheme(r.Header),
		Header: withoutCredentials(r.Header), Body: maskBody(body), ReceivedAt: s.Now(),
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	entry.ClientID = s.carriedClientID(r)
	s.log = append(s.log, entry)
	if len(s.log) > MaxRecords {
		s.log = s.log[len(s.log)-MaxRecords:]
	}
	return entry
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

// withoutCredentials copies h without the headers that carry credentials.
func withoutCredentials(h http.Header) http.Header {
	out := h.Clone()
	for _, k := range []string{"Authorization", "Proxy-Authorization", "X-Api-Client-Id", "Cookie"} {
		out.Del(k)
	}
	return out
}

// sensitiveKeys are the JSON keys whose values are masked in a logged body: card
// numbers and verification codes, bank and ACH account numbers.
var sensitiveKeys = map[string]bool{
	"number": true, "verification": true, "account_number": true, "ach_account_number": true,
}

// maskBody returns body as received but for the values of sensitiveKeys, masked
// (every string and number within them, however nested). A body that is not one JSON
// value (malformed, cut at the size limit) has every digit masked instead: a
// verification code or a spaced card number may be anywhere in it.
func maskBody(body []byte) []byte {
	if holdsNoSensitiveKey(body) {
		return body
	}
	spans, ok := sensitiveSpans(body)
	if !ok {
		return anyDigit.ReplaceAll(body, []byte("*"))
	}
	var out bytes.Buffer
	last := 0
	for _, sp := range spans {
		out.Write(body[last:sp.start])
		raw := strings.Trim(string(body[sp.start:sp.end]), `"`)
		masked, _ := json.Marshal(mask(raw))
		out.Write(masked)
		last = sp.end
	}
	out.Write(body[last:])
	return out.Bytes()
}

var anyDigit = regexp.MustCompile(`[0-9]`)

// quotedSensitiveKeys are sensitiveKeys as they stand in JSON text.
var quotedSensitiveKeys = func() [][]byte {
	var keys [][]byte
	for k := range sensitiveKeys {
		keys = append(keys, []byte(`"`+k+`"`))
	}
	return keys
}()

// holdsNoSensitiveKey reports, cheaply, a body that maskBody would return unchanged:
// one valid JSON value in which no sensitive key can stand, not even spelt with
// escapes. Most bodies are such; the others take the full walk.
func holdsNoSensitiveKey(body []byte) bool {
	if bytes.IndexByte(body, '\\') >= 0 || !json.Valid(body) {
		return false
	}
	for _, k := range quotedSensitiveKeys {
		if bytes.Contains(body, k) {
			return false
		}
	}
	return true
}

// mask keeps the last four characters of a long value, and nothing of a short one.
func mask(v string) string {
	if len(v) < 8 {
		return strings.Repeat("*", len(v))
	}
	return strings.Repeat("*", len(v)-4) + v[len(v)-4:]
}

type span struct{ start, end int }

// sensitiveSpans finds where the string and number values under sensitiveKeys lie in
// a JSON body; ok is false when body is not one JSON value.
func sensitiveSpans(body []byte) (spans []span, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	type frame struct{ object, wantKey, masked bool }
	var stack []frame
	key := ""
	values := 0 // top-level values: a body is one
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return spans, err == io.EOF && values == 1 && len(stack) == 0
		}
		top := len(stack) - 1
		if top < 0 {
			if values++; values > 1 {
				return nil, false
			}
		}
		// A value is masked when it is under a sensitive key, or within a container
		// that is.
		isValue := top >= 0 && !(stack[top].object && stack[top].wantKey)
		masked := isValue && (stack[top].masked || (stack[top].object && sensitiveKeys[key]))
		if d, isDelim := tok.(json.Delim); isDelim {
			switch d {
			case '{', '[':
				stack = append(stack, frame{object: d == '{', wantKey: d == '{', masked: masked})
			default:
				if stack = stack[:top]; top > 0 && stack[top-1].object {
					stack[top-1].wantKey = true
				}
			}
			continue
		}
		if !isValue {
			if top >= 0 { // a key
				key, _ = tok.(string)
				stack[top].wantKey = false
			}
			continue
		}
		if stack[top].object {
			stack[top].wantKey = true
		}
		switch tok.(type) {
		case string, json.Number, float64:
			if masked {
				end := int(dec.InputOffset())
				start := end - len(bytes.TrimLeft(body[before:end], " \t\r\n:,"))
				spans = append(spans, span{start, end})
			}
		}
	}
}
