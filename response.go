package insurance

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
)

// Response is what every result carries of the answer it came from.
type Response struct {
	StatusCode int             // HTTP status of the answer
	Header     http.Header     // response headers
	Raw        json.RawMessage // the body exactly as received
}

// Decode decodes the raw body into v, for fields the SDK does not type.
func (r *Response) Decode(v any) error {
	if len(r.Raw) == 0 {
		return errors.New("insurance: the response has no body to decode")
	}
	if err := json.Unmarshal(r.Raw, v); err != nil {
		return fmt.Errorf("insurance: decoding response body: %w", err)
	}
	return nil
}

// RequestID returns the X-Request-Id header of the answer, if any.
func (r *Response) RequestID() string { return r.Header.Get("X-Request-Id") }

// setResponse gives a result type, through its embedded Response, what call answered.
func (r *Response) setResponse(resp Response) { *r = resp }
