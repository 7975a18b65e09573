package sandbox

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// apiError is an error answer, sent as the events error body on every endpoint:
// {"error", "error_code", "message", "reason", "status"}.
type apiError struct {
	status  int
	code    string
	message string
	reason  string
}

// Error returns the message.
func (e *apiError) Error() string { return e.message }

func unauthorized(message string) *apiError {
	return &apiError{status: http.StatusUnauthorized, code: "unauthorized", message: message, reason: "authentication"}
}

// badRequest names the parameter at fault in its message.
func badRequest(code, format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, code: code, message: fmt.Sprintf(format, args...), reason: "invalid_request"}
}

func missing(param string) *apiError {
	return badRequest("parameter_missing", "missing required parameter: %s", param)
}

func writeError(w http.ResponseWriter, err error) {
	var e *apiError
	if !errors.As(err, &e) {
		e = &apiError{status: http.StatusInternalServerError, code: "internal", message: err.Error()}
	}
	reason := e.reason
	if reason == "" {
		reason = strings.ToLower(strings.ReplaceAll(http.StatusText(e.status), " ", "_"))
	}
	writeJSON(w, e.status, map[string]any{
		"error":      http.StatusText(e.status),
		"error_code": e.code,
		"message":    e.message,
		"reason":     reason,
		"status":     e.status,
	})
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	b, err := json.Marshal(body)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":"Internal Server Error","error_code":"internal","message":"sandbox bug: unencodable answer","reason":"internal","status":500}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
