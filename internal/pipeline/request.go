package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
)

// newRequest builds the HTTP request of try t: its headers, its body, and the
// GetBody through which net/http must ask the try before sending it again.
func (p *Pipeline) newRequest(r *Request, body []byte, t *try) (*http.Request, error) {
	ctx := httptrace.WithClientTrace(t, &t.trace) // the try is the context (see try.Value)
	req, err := http.NewRequestWithContext(ctx, r.Method, p.cfg.BaseURL+r.Path, nil)
	if err != nil {
		return nil, fmt.Errorf("building request: %w", err)
	}
	switch {
	case body != nil:
		t.newBody = func() io.ReadCloser { return io.NopCloser(bytes.NewReader(body)) }
		if t.holdsBody { // the body goes out once the server asks for it (expect.go)
			req.Header.Set("Expect", "100-continue")
			t.newBody = func() io.ReadCloser { return heldBody{r: bytes.NewReader(body), read: &t.bodyRead} }
		}
		req.Body, req.GetBody, req.ContentLength = t.newBody(), t.rewind, int64(len(body))
		req.Header.Set("Content-Type", "application/json")
	case r.Class == Idempotent || !p.pools.traced:
		// A request without a body gets an empty one all the same, so that net/http
		// asks GetBody before sending it again (unasked, it sent a GET thousands of times
		// under HTTP/2 resets). Over HTTP/2 an empty DATA frame then ends the stream:
		// 25 µs, a quarter of a small GET over TLS (docs/performance.md). Over HTTP/1.1,
		// declared unchunked, it goes out as a nil body would. (A bodiless record-
		// creating request keeps none: on the HTTP/1.1 lanes nothing written is resent.)
		t.newBody = func() io.ReadCloser { return emptyBody{} }
		req.Body, req.GetBody, req.TransferEncoding = t.newBody(), t.rewind, identity
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", p.cfg.UserAgent)
	if r.AuthHeader != "" {
		req.Header.Set(r.AuthHeader, r.AuthValue)
	}
	return req, nil
}

// identity is the TransferEncoding of an empty body: no chunking, no probe of the body
// on a goroutine of net/http's own. net/http only reads it.
var identity = []string{"identity"}

// emptyBody is the body of a request that has none. WriteTo keeps io.Copy off the
// connection's ReadFrom, which would allocate a 32 KiB buffer to copy nothing.
type emptyBody struct{}

func (emptyBody) Read([]byte) (int, error)         { return 0, io.EOF }
func (emptyBody) WriteTo(io.Writer) (int64, error) { return 0, nil }
func (emptyBody) Close() error                     { return nil }
