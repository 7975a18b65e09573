package insurance

import (
	"fmt"
	"maps"
	"net/http"
	"strings"
)

// WithHeader adds the header key: value to every request of the Client, or, given to
// a call, to that call's requests; a call's header replaces the Client's of the same
// name. For a correlation id or a header a gateway in front of the service asks for:
//
//	policy, err := client.PurchaseTuition(ctx, req, insurance.WithHeader("X-Correlation-Id", id))
//
// It refuses (NewClient, With or the call fails, and nothing is sent) a name or value
// net/http would refuse to send, and the headers the SDK or the protocol owns:
// Authorization, X-Api-Client-Id, Accept, Content-Type, Content-Length, Expect, Host,
// User-Agent (use WithUserAgent), Connection, Transfer-Encoding, Te, Trailer, Upgrade,
// Cookie, Proxy-Authorization, and the idempotency keys Idempotency-Key and
// X-Idempotency-Key (the interface has none, and with one net/http takes a POST for
// safe to resend). Header values are never logged or printed, not even by reflection
// over a Client value.
func WithHeader(key, value string) Option {
	return func(s *settings) error {
		if why := headerRefusal(key, value); why != "" {
			return fmt.Errorf("insurance: WithHeader(%q): %s", key, why)
		}
		s.headers = s.headers.with(http.CanonicalHeaderKey(key), value)
		return nil
	}
}

// headerRefusal says why the SDK will not add the header key: value to a request
// (WithHeader's, an Observer's), or is "".
func headerRefusal(key, value string) string {
	switch name := http.CanonicalHeaderKey(key); {
	case !validHeaderName(key):
		return "not a valid header name"
	case reservedHeaders[name]:
		return "the SDK or the protocol sets " + name
	case strings.ContainsFunc(value, invalidInHeaderValue):
		return "the value holds a control character"
	}
	return ""
}

// reservedHeaders are the headers neither WithHeader nor an Observer may set: the
// SDK's own, those of the protocol, and the idempotency keys.
var reservedHeaders = map[string]bool{
	"Authorization": true, http.CanonicalHeaderKey(HeaderClientID): true, "Accept": true,
	"Content-Type": true, "Content-Length": true, "Expect": true, "Host": true, "User-Agent": true,
	"Connection": true, "Transfer-Encoding": true, "Te": true, "Trailer": true, "Upgrade": true,
	"Cookie": true, "Proxy-Authorization": true,
	// With one of these net/http takes a POST for replayable and may resend a
	// purchase after writing it; the interface defines no idempotency key.
	"Idempotency-Key": true, "X-Idempotency-Key": true,
}

// validHeaderName reports a token (RFC 9110, section 5.6.2), as net/http requires of a
// header name.
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if r >= 0x80 || !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return false
		}
	}
	return true
}

// invalidInHeaderValue reports a byte net/http refuses in a header value: a control
// character other than tab.
func invalidInHeaderValue(r rune) bool { return r < ' ' && r != '\t' || r == 0x7f }

// extraHeaders are WithHeader's headers. The values sit in a closure, out of reach of
// reflection (fmt's %+v of a Client value, testify's diff, a debugger's dump); the
// header it returns is never modified, so Clients derived with With share it. nil:
// none.
type extraHeaders func() http.Header

// with returns h with name set to value.
func (h extraHeaders) with(name, value string) extraHeaders {
	next := http.Header{}
	if h != nil {
		maps.Copy(next, h())
	}
	next[name] = []string{value}
	return func() http.Header { return next }
}
