package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
)

// ErrDropped is what a caller of a MemoryTransport gets for a request whose
// connection a fault dropped: like a server closing the connection without an
// answer, it matches io.EOF.
var ErrDropped = fmt.Errorf("insurancetest: the connection was closed without an answer (Fault.Drop): %w", io.EOF)

// MemoryTransport is an http.RoundTripper that serves each request with Handler in
// the caller's process, with no listener and no socket: the status, headers and body
// the handler writes; a handler that aborts (panics with http.ErrAbortHandler, as a
// Drop fault does) is a broken connection; a caller whose context ends gets the
// context's error at once. Inside a testing/synctest bubble, everything it does runs
// in fake time.
type MemoryTransport struct {
	Handler http.Handler
}

// RoundTrip serves req.
func (t *MemoryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		var err error
		body, err = io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, err
		}
	}
	served := req.Clone(req.Context())
	served.Body = io.NopCloser(bytes.NewReader(body))
	served.ContentLength = int64(len(body))
	served.RequestURI = req.URL.RequestURI()
	served.RemoteAddr = "127.0.0.1:1"
	served.Host = req.URL.Host

	rec := httptest.NewRecorder()
	done := make(chan any, 1)
	go func() {
		defer func() { done <- recover() }()
		t.Handler.ServeHTTP(rec, served)
	}()
	select {
	case <-req.Context().Done():
		return nil, req.Context().Err()
	case p := <-done:
		switch {
		case p == http.ErrAbortHandler:
			return nil, ErrDropped
		case p != nil:
			return nil, fmt.Errorf("insurancetest: the sandbox failed: %v", p)
		}
	}
	resp := rec.Result()
	resp.Request = req
	resp.ContentLength = int64(rec.Body.Len())
	resp.Header.Set("Content-Length", strconv.Itoa(rec.Body.Len()))
	return resp, nil
}
