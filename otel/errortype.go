package insuranceotel

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"

	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"

	"github.com/partnerinsure/insurance-go"
)

// errorType is the error.type of a failed call (see the package doc).
func errorType(err error) string {
	var apiErr *insurance.APIError
	var reqErr *insurance.RequestError
	var validation *insurance.ValidationError
	var netErr net.Error
	isNet := errors.As(err, &netErr)
	switch {
	case errors.As(err, &apiErr):
		return strconv.Itoa(apiErr.StatusCode)
	case errors.As(err, &validation):
		return "invalid_request"
	case errors.Is(err, insurance.ErrMissingCredentials):
		return "missing_credentials"
	case errors.Is(err, insurance.ErrResponseTooLarge):
		return "response_too_large"
	case errors.Is(err, context.DeadlineExceeded), isNet && netErr.Timeout():
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.As(err, &reqErr) && reqErr.StatusCode != 0:
		return "invalid_response"
	case isNet, errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection"
	}
	return semconv.ErrorTypeOther.Value.AsString()
}

// statusDescription is the span's status description on failure: never the error's
// text. A status code speaks for itself (the conventions leave the description empty
// then); otherwise it is the error type, or that the outcome is unknown.
func statusDescription(result insurance.CallResult, errType string) string {
	switch {
	case result.OutcomeUnknown:
		return "outcome unknown: check before trying again"
	case errType == strconv.Itoa(result.StatusCode):
		return ""
	}
	return errType
}
