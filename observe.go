package insurance

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"

	"github.com/partnerinsure/insurance-go/internal/pipeline"
)

// Observer watches the calls of a Client: the hook for tracing, metrics, or a
// partner's own call log. Install one with WithObserver; the module
// github.com/partnerinsure/insurance-go/otel is one, for OpenTelemetry.
//
// For each call, on the calling goroutine, the Client calls StartCall once before
// anything else, StartAttempt before each attempt goes out, and EndCall once when the
// call returns, however it ends (a call refused locally has 0 attempts). An attempt
// is one request the SDK sends: the first, each retry, and the request it sends again
// at once over HTTP/1.1 where net/http would have resent it. The resends net/http
// makes itself, below the SDK, are counted in CallResult.Attempts and numbered, but
// not announced. What an Observer is shown never holds a secret, a body, a header
// value or a query.
type Observer interface {
	// StartCall begins observing a call. The context it returns is the call's from
	// then on (its attempts and EndCall see it): put a span in it, or return ctx.
	StartCall(ctx context.Context, call CallInfo) context.Context
	// StartAttempt runs before attempt number attempt (from 1) goes out. setHeader
	// adds a header to that attempt only, such as a W3C traceparent (but for the
	// request the SDK sends again at once over HTTP/1.1, which starts with the
	// headers of the attempt before it); it ignores the headers the SDK owns
	// (Authorization, x-api-client-id, Accept, Content-Type, Content-Length,
	// User-Agent, Host) and the idempotency keys (Idempotency-Key, X-Idempotency-Key).
	StartAttempt(ctx context.Context, attempt int, setHeader func(key, value string))
	// EndCall ends observing the call with what happened.
	EndCall(ctx context.Context, call CallInfo, result CallResult)
}

// CallInfo describes a call to its observers.
type CallInfo struct {
	Method        string // HTTP method, e.g. "POST"
	Route         string // the interface's path, e.g. "/v1/purchase/tuition" (for Do: the path given)
	URL           string // the base URL and the route; never a query or user info
	ServerAddress string // host of the base URL, e.g. "api.example.com"
	ServerPort    int    // port of the base URL, or the scheme's default
	// CreatesRecord is true for purchases, onboarding and events (and Do with a method
	// other than GET, HEAD, PUT and DELETE): calls never sent twice once they may have
	// reached the server.
	CreatesRecord bool
}

// CallResult is how a call ended.
type CallResult struct {
	// Attempts is how many times the request went out (see RequestError.Attempts);
	// 0 when the call was refused locally.
	Attempts   int
	StatusCode int    // status of the last answer; 0 when none came
	RequestID  string // X-Request-Id of the last answer, when present
	Err        error  // what the call returned; nil on success
	// OutcomeUnknown is true when Err matches ErrOutcomeUnknown: a record-creating
	// call that may have reached the server.
	OutcomeUnknown bool
	// BudgetRefused is true when the Client's retry budget refused a retry the retry
	// table allowed (see WithRetryBudget): the call ended with what it had.
	BudgetRefused bool
}

// newServerInfo returns the server address and port of a checked base URL.
func newServerInfo(base string) CallInfo {
	u, err := url.Parse(base)
	if err != nil {
		return CallInfo{}
	}
	port, _ := strconv.Atoi(u.Port())
	if port == 0 {
		port = 443
		if u.Scheme == "http" {
			port = 80
		}
	}
	return CallInfo{ServerAddress: u.Hostname(), ServerPort: port}
}

func (c *Client) callInfo(ep endpoint) CallInfo {
	info := c.server
	info.Method, info.Route, info.CreatesRecord = ep.method, ep.path, ep.class == pipeline.CreatesRecord
	info.URL = c.baseURL + ep.path
	return info
}

// resultOf summarises a call's outcome for its observers.
func resultOf(res Response, attempts int, err error) CallResult {
	result := CallResult{Attempts: attempts, Err: err, StatusCode: res.StatusCode, RequestID: res.RequestID()}
	if err == nil {
		return result
	}
	result.OutcomeUnknown = errors.Is(err, ErrOutcomeUnknown)
	var apiErr *APIError
	var reqErr *RequestError
	switch {
	case errors.As(err, &reqErr):
		result.BudgetRefused = reqErr.BudgetRefused
		if reqErr.StatusCode != 0 {
			result.StatusCode, result.RequestID = reqErr.StatusCode, reqErr.Header.Get("X-Request-Id")
		} else if reqErr.LastAnswer != nil {
			result.StatusCode, result.RequestID = reqErr.LastAnswer.StatusCode, reqErr.LastAnswer.RequestID
		}
	case errors.As(err, &apiErr):
		result.StatusCode, result.RequestID = apiErr.StatusCode, apiErr.RequestID
		result.BudgetRefused = apiErr.BudgetRefused
	}
	return result
}

// sdkOwnedHeaders are the headers an Observer cannot set.
var sdkOwnedHeaders = map[string]bool{
	"Authorization": true, http.CanonicalHeaderKey(HeaderClientID): true, "Accept": true,
	"Content-Type": true, "Content-Length": true, "User-Agent": true, "Host": true,
	// With one of these net/http takes a POST for replayable and may resend a
	// purchase after writing it; the interface defines no idempotency key.
	"Idempotency-Key": true, "X-Idempotency-Key": true,
}

// startAttempt runs the observers' StartAttempt with a setter limited to headers the
// SDK does not own.
func (c *Client) startAttempt(ctx context.Context, attempt int, header http.Header) {
	set := func(key, value string) {
		if key = http.CanonicalHeaderKey(key); !sdkOwnedHeaders[key] {
			header.Set(key, value)
		}
	}
	for _, o := range c.observers {
		o.StartAttempt(ctx, attempt, set)
	}
}
