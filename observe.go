package insurance

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"github.com/partnerinsure/insurance-go/internal/pipeline"
)

// Observer watches the calls of a Client: the hook for tracing, metrics, or a
// partner's own call log. Install one with WithObserver; the module
// github.com/partnerinsure/insurance-go/otel is one, for OpenTelemetry.
//
// For each call, on the calling goroutine, the Client calls StartCall once before
// anything else, StartAttempt before each attempt it hands to net/http, and EndCall
// once when the call ends, however it ends (a call refused locally has 0 attempts;
// one in which attempt middleware, a hook or a decoder panics ends with an error
// saying so, and the panic goes on). Attempts are as RequestError.Attempts counts
// them: net/http's own resends, made inside net/http, are counted and numbered but
// not announced.
//
// CallInfo and AttemptInfo never hold a secret, a body, a header value or a query.
// CallResult.Err is the error the call returns: an *APIError there keeps the
// answer's Header and Body, as the caller gets them (never the request's).
//
// Observer will not gain methods: hooks added after 1.0 are optional interfaces an
// Observer may implement, which the Client finds with a type assertion.
type Observer interface {
	// StartCall begins observing a call. The context it returns is the call's from
	// then on (its attempts and EndCall see it): put a span in it, or return ctx.
	StartCall(ctx context.Context, call CallInfo) context.Context
	// StartAttempt runs before each attempt goes out. ctx is the attempt's: the
	// call's, bounded by the attempt timeout, and done once the attempt is.
	StartAttempt(ctx context.Context, attempt AttemptInfo)
	// EndCall ends observing the call with what happened.
	EndCall(ctx context.Context, call CallInfo, result CallResult)
}

// AttemptInfo describes an attempt to its observers. It may gain fields.
type AttemptInfo struct {
	Number int // of the call's attempts, from 1
	// SetHeader adds a header to this attempt only, such as a W3C traceparent (but
	// for the request the SDK sends again at once over HTTP/1.1, which starts with the
	// headers of the attempt before it). It ignores the headers WithHeader refuses.
	SetHeader func(key, value string)
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
	// Why is RequestError.Why when the call failed without a usable answer: where
	// its last request got.
	Why string
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
		result.BudgetRefused, result.Why = reqErr.BudgetRefused, reqErr.Why
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

// beforeAttempt adds WithHeader's headers to an attempt's, then runs the observers'
// StartAttempt with a setter limited to the headers WithHeader would take.
func (c *Client) beforeAttempt(ctx context.Context, attempt int, header http.Header) {
	if c.settings.headers != nil {
		for name, values := range c.settings.headers() {
			header[name] = slices.Clone(values)
		}
	}
	if len(c.settings.observers) == 0 {
		return
	}
	info := AttemptInfo{Number: attempt, SetHeader: func(key, value string) {
		if headerRefusal(key, value) == "" {
			header.Set(key, value)
		}
	}}
	for _, o := range c.settings.observers {
		o.StartAttempt(ctx, info)
	}
}
