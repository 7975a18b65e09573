package sandbox

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
)

// jsonMediaType is the one media type of every request body, of the interface
// (api/openapi.yaml) and of the controls (api/sandbox.yaml).
const jsonMediaType = "application/json"

// checkContentType refuses a request body that is not sent as JSON, as the documents
// do (they take application/json only) and as a validating proxy in front of the
// service does (prism proxy --errors, with its own 422): 415 Unsupported Media Type,
// the status HTTP has for it, naming the type wanted. The choices:
//
//   - The media type is matched case-insensitively and its parameters are ignored:
//     "application/json; charset=utf-8" is JSON (RFC 8259 defines no parameter for
//     application/json, and JSON is UTF-8), as the documents' validator reads it.
//   - A body with no Content-Type is refused too: the interface says bodies are sent
//     with Content-Type: application/json, the documents' validator refuses a body
//     without one, and a sandbox that guessed would pass code a real gateway refuses.
//   - application/vnd.api+json and other JSON-based types are not application/json.
//   - Only a body is checked: a request without one (a GET, POST /sandbox/reset) is
//     unaffected whatever its headers say, and an empty body to an operation that
//     needs one stays a 400 for the missing body.
func checkContentType(r *http.Request, body []byte) error {
	if len(body) == 0 {
		return nil
	}
	sent := r.Header.Get("Content-Type")
	mediaType, _, err := mime.ParseMediaType(sent)
	if (err == nil || errors.Is(err, mime.ErrInvalidMediaParameter)) && mediaType == jsonMediaType {
		return nil
	}
	came := "with no Content-Type"
	if sent != "" {
		came = fmt.Sprintf("as %q", sent)
	}
	return &apiError{
		status: http.StatusUnsupportedMediaType, code: "unsupported_media_type", reason: "invalid_request",
		message: fmt.Sprintf("the request body must be JSON sent with Content-Type: %s; it came %s (with curl, add -H 'Content-Type: %s')",
			jsonMediaType, came, jsonMediaType),
	}
}
