package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
)

// encodeBody is the JSON of a request body; nil when there is none.
func encodeBody(v any) ([]byte, error) {
	if v == nil {
		return nil, nil
	}
	body, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding request body: %w", err)
	}
	return body, nil
}

// newRequest builds the HTTP request of attempt a: its headers, its body, and the
// GetBody through which net/http must ask the attempt before sending it again.
func (p *Pipeline) newRequest(ctx context.Context, r *Request, body []byte, a *attempt) (*http.Request, error) {
	ctx = httptrace.WithClientTrace(ctx, &a.trace)
	req, err := http.NewRequestWithContext(ctx, r.Method, p.cfg.BaseURL+r.Path, nil)
	if err != nil {
		return nil, fmt.Errorf("building request: %w", err)
	}
	// A request without a body gets an empty one all the same: net/http resends a
	// bodiless request over HTTP/2 up to six more times without asking GetBody.
	// HTTP/1.1 still sends no body with a GET; HTTP/2 ends the stream with an empty
	// DATA frame instead of on its HEADERS.
	newBody := func() io.ReadCloser { return emptyBody{} }
	if body != nil {
		newBody = func() io.ReadCloser { return io.NopCloser(bytes.NewReader(body)) }
		req.ContentLength = int64(len(body))
		req.Header.Set("Content-Type", "application/json")
	}
	req.Body, req.GetBody = newBody(), a.rewind(newBody)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", p.cfg.UserAgent)
	if r.AuthHeader != "" {
		req.Header.Set(r.AuthHeader, r.AuthValue)
	}
	return req, nil
}

// emptyBody is the body of a request that has none.
type emptyBody struct{}

func (emptyBody) Read([]byte) (int, error) { return 0, io.EOF }
func (emptyBody) Close() error             { return nil }
