package pipeline

import (
	"fmt"
	"io"
	"net/http"
)

// readAnswer reads an answer's body, capped, and closes it. Only a 2xx body that
// cannot be read in full is an error, as it is the answer the caller needs; a short
// or capped error body is kept as it is.
func readAnswer(resp *http.Response) (*Answer, error) {
	defer resp.Body.Close()
	answer := &Answer{StatusCode: resp.StatusCode, Header: resp.Header}
	if hasNoBody(resp) {
		return answer, nil
	}
	limit := int64(MaxErrorBody)
	if isSuccess(resp.StatusCode) {
		limit = MaxSuccessBody
		if resp.ContentLength > limit {
			return answer, ErrResponseTooLarge // refused without reading it
		}
	}
	body, err := readCapped(resp.Body, resp.ContentLength, limit)
	answer.Body = body
	if !isSuccess(resp.StatusCode) {
		err = nil // kept as it is
	}
	return answer, err
}

// readCapped reads at most limit bytes; more is ErrResponseTooLarge. A known length
// is read into one exact allocation; an unknown one (chunked) through io.ReadAll.
func readCapped(r io.Reader, length, limit int64) ([]byte, error) {
	if length >= 0 && length <= limit {
		body := make([]byte, length)
		n, err := io.ReadFull(r, body)
		if err != nil {
			return body[:n], fmt.Errorf("reading response body: %w", err)
		}
		return body, nil
	}
	body, err := io.ReadAll(io.LimitReader(r, limit+1))
	switch {
	case int64(len(body)) > limit:
		return body[:limit], ErrResponseTooLarge
	case err != nil:
		return body, fmt.Errorf("reading response body: %w", err)
	}
	return body, nil
}

func isSuccess(status int) bool { return status >= 200 && status < 300 }

// hasNoBody reports an answer that carries no body whatever its Content-Length says:
// to a HEAD, a 204 or a 304.
func hasNoBody(resp *http.Response) bool {
	return resp.StatusCode == http.StatusNoContent || resp.StatusCode == http.StatusNotModified ||
		(resp.Request != nil && resp.Request.Method == http.MethodHead)
}
