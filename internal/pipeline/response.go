package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
)

// errTooLarge is a 2xx body over MaxSuccessBody, marked permanent where it is made.
var errTooLarge = permanent(ErrResponseTooLarge)

// readCapped reads at most limit bytes; more is ErrResponseTooLarge. A known length
// is read into one exact allocation. An unknown one (chunked) is read into a pooled
// buffer and copied out at its size; one longer than the buffer, through io.ReadAll.
func readCapped(r io.Reader, length, limit int64) (body []byte, err error) {
	if length >= 0 && length <= limit {
		body = make([]byte, length)
		var n int
		n, err = io.ReadFull(r, body)
		body = body[:n]
	} else {
		var buf *bytes.Buffer
		select {
		case buf = <-readBuffers:
			buf.Reset()
		default:
			buf = bytes.NewBuffer(make([]byte, 0, pooledRead+bytes.MinRead))
		}
		if _, err = buf.ReadFrom(io.LimitReader(r, pooledRead)); err == nil && buf.Len() == pooledRead {
			body, err = io.ReadAll(io.MultiReader(buf, io.LimitReader(r, limit+1-pooledRead)))
		} else {
			body = bytes.Clone(buf.Bytes())
		}
		select {
		case readBuffers <- buf:
		default: // enough are kept
		}
	}
	switch {
	case int64(len(body)) > limit:
		return body[:limit], errTooLarge
	case err != nil:
		return body, fmt.Errorf("reading response body: %w", err)
	}
	return body, nil
}

// readBuffers hold bodies of unknown length as they are read, up to pooledRead bytes:
// Effective Go's leaky buffer, which, unlike a sync.Pool, a collection does not empty.
var readBuffers = make(chan *bytes.Buffer, 8)

const pooledRead = 16 << 10

// hasNoBody reports an answer to a HEAD, a 204 or a 304: no body, whatever its length.
func hasNoBody(resp *http.Response) bool {
	return resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusNotModified ||
		(resp.Request != nil && resp.Request.Method == http.MethodHead)
}
