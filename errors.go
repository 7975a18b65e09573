package insurance

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/partnerinsure/insurance-go/internal/pipeline"
)

// Sentinels matched with errors.Is. Every non-2xx answer is an *APIError; those of
// the statuses below match their sentinel (a 3xx, which the SDK never follows, or a
// 405, 409 or 415 matches none: test APIError.StatusCode).
var (
	ErrBadRequest    = errors.New("insurance: bad request")    // 400
	ErrUnauthorized  = errors.New("insurance: unauthorized")   // 401
	ErrPaymentFailed = errors.New("insurance: payment failed") // 402
	ErrForbidden     = errors.New("insurance: forbidden")      // 403
	ErrNotFound      = errors.New("insurance: not found")      // 404
	// ErrUnprocessable matches every 422.
	ErrUnprocessable = errors.New("insurance: unprocessable") // 422
	// ErrQuoteUnavailable matches a 422 to a quote or a purchase (an APIError whose
	// Path starts with /v1/quote/ or /v1/purchase/), where the interface says what it
	// means: the quote or offer is gone, as a pending or active policy exists for it.
	ErrQuoteUnavailable = errors.New("insurance: quote no longer available")
	ErrRateLimited      = errors.New("insurance: rate limited") // 429
	ErrServer           = errors.New("insurance: server error") // 5xx
	// ErrMissingCredentials is local: the call's auth scheme needs credentials this
	// Client was not given. Nothing was sent.
	ErrMissingCredentials = errors.New("insurance: missing credentials")
	// ErrOutcomeUnknown marks a purchase, onboarding or event call that failed after the
	// request may have reached the server: the record may exist. Check before trying
	// again; the SDK never resends such a call. Test it first: the same error also
	// matches ErrServer (a 503 to a purchase, say) or the context's error (a deadline
	// that passed after the request went out), and a switch that meets those first
	// says "try again" about a policy that may exist (the package example
	// OutcomeUnknownFirst shows the order). The interface has no read of a policy:
	// docs/outcome-unknown.md says, per endpoint, what a partner can learn and how to
	// reconcile,
	// https://github.com/partnerinsure/insurance-go/blob/main/docs/outcome-unknown.md
	ErrOutcomeUnknown = errors.New("insurance: outcome unknown, check before trying again")
	// ErrResponseTooLarge reports a 2xx body over 16 MiB: refused unread when its
	// Content-Length says so, cut at 16 MiB (and kept in RequestError.Body) otherwise.
	ErrResponseTooLarge = errors.New("insurance: response body exceeds 16 MiB")
)

// APIError is a non-2xx answer from the service, whatever its body.
type APIError struct {
	StatusCode int
	Type       string // body field "error"
	Code       string // body field "error_code"
	Message    string // body field "message"; the status text when the body has none
	Reason     string // body field "reason"
	RequestID  string // response header X-Request-Id, when present
	Method     string
	Path       string
	Header     http.Header
	Body       []byte // raw body, capped at 64 KiB
	Attempts   int    // how many attempts the call made (see RequestError.Attempts)
	// RetryAfter is the answer's Retry-After (delay-seconds or an HTTP date) as the
	// server sent it, uncapped; 0 when absent. The SDK waits it out capped (see
	// WithMaxRetryAfter): a 429 or 503 whose capped wait would end after the context's
	// deadline is returned at once, with RetryAfter set.
	RetryAfter time.Duration
	// BudgetRefused is true when the Client's retry budget refused a retry the retry
	// table allowed, or net/http's own resend, during the call (see WithRetryBudget).
	BudgetRefused bool
	// OutcomeUnknown is true for a 5xx answer to a record-creating call whose request
	// may have reached the server: the error then also matches ErrOutcomeUnknown. A
	// fake sets it to stand for the SDK's answer to a purchase.
	OutcomeUnknown bool
}

// Error names method, path, status, code and message; never a header, a request body
// or a secret. What the server sent is safe to log there: control characters (CR, LF,
// ESC, C1) escaped, each string cut to 200 runes. The fields keep it raw.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "insurance: %s %s: %d %s", e.Method, e.Path, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Code != "" {
		b.WriteString(": " + loggable(e.Code, maxShown))
	} else if e.Type != "" {
		b.WriteString(": " + loggable(e.Type, maxShown))
	}
	if e.Message != "" && e.Message != http.StatusText(e.StatusCode) {
		b.WriteString(": " + loggable(e.Message, maxShown))
	}
	if e.RequestID != "" {
		b.WriteString(" (request id " + loggable(e.RequestID, maxShown) + ")")
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts", e.Attempts)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	if e.BudgetRefused {
		b.WriteString(budgetRefusedText)
	}
	if e.OutcomeUnknown {
		b.WriteString(" (outcome unknown: check before trying again)")
	}
	return b.String()
}

// Is matches the sentinel of the status, ErrQuoteUnavailable for a 422 to a quote or
// purchase, and ErrOutcomeUnknown when OutcomeUnknown is set.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrOutcomeUnknown:
		return e.OutcomeUnknown
	case ErrQuoteUnavailable:
		return e.StatusCode == http.StatusUnprocessableEntity &&
			(strings.HasPrefix(e.Path, "/v1/quote/") || strings.HasPrefix(e.Path, "/v1/purchase/"))
	}
	return target == sentinelOf(e.StatusCode)
}

func sentinelOf(status int) error {
	switch {
	case status == http.StatusBadRequest:
		return ErrBadRequest
	case status == http.StatusUnauthorized:
		return ErrUnauthorized
	case status == http.StatusPaymentRequired:
		return ErrPaymentFailed
	case status == http.StatusForbidden:
		return ErrForbidden
	case status == http.StatusNotFound:
		return ErrNotFound
	case status == http.StatusUnprocessableEntity:
		return ErrUnprocessable
	case status == http.StatusTooManyRequests:
		return ErrRateLimited
	case status >= 500:
		return ErrServer
	}
	return nil
}

// callError maps how the pipeline ended a call to its public error: nil for a 2xx
// answer, an *APIError for another answer, and a *RequestError when none was usable
// (err), which holds a 2xx whose body failed, or as LastAnswer the non-2xx answer
// the call had when its context ended.
func callError(ep endpoint, res pipeline.Answer, err error) error {
	success := res.StatusCode >= 200 && res.StatusCode <= 299
	if err == nil && success {
		return nil
	}
	// Without an error there is an answer, whatever its status (even 0, from a
	// transport that made it up); beside an error, only when one was kept.
	answered := err == nil || res.StatusCode != 0
	var answer *APIError // the non-2xx answer
	if answered && !success {
		answer = &APIError{
			StatusCode:     res.StatusCode,
			RequestID:      res.Header.Get("X-Request-Id"),
			Method:         ep.method,
			Path:           ep.path,
			Header:         res.Header,
			Body:           res.Body,
			Attempts:       res.Attempts,
			BudgetRefused:  res.BudgetRefused,
			OutcomeUnknown: ep.class == pipeline.CreatesRecord && res.StatusCode >= 500 && res.MayHaveArrived,
		}
		answer.RetryAfter, _ = pipeline.ParseRetryAfter(res.Header.Get("Retry-After"), time.Now())
		// The events error body; other endpoints' error bodies are not shown by the
		// interface, so "error" may also be an object with code and message.
		var body struct {
			Error     json.RawMessage `json:"error"`
			ErrorCode string          `json:"error_code"`
			Message   string          `json:"message"`
			Reason    string          `json:"reason"`
		}
		if json.Unmarshal(res.Body, &body) == nil {
			answer.Code, answer.Message, answer.Reason = body.ErrorCode, body.Message, body.Reason
			var nested struct{ Type, Code, Message string }
			if json.Unmarshal(body.Error, &answer.Type) != nil && json.Unmarshal(body.Error, &nested) == nil {
				answer.Type = nested.Type
				answer.Code = cmp.Or(answer.Code, nested.Code)
				answer.Message = cmp.Or(answer.Message, nested.Message)
			}
		}
		answer.Message = cmp.Or(answer.Message, http.StatusText(res.StatusCode))
	}
	if err == nil {
		return answer
	}
	e := &RequestError{
		Method: ep.method, Path: ep.path, Attempts: res.Attempts, Why: res.Why,
		OutcomeUnknown: ep.class == pipeline.CreatesRecord && res.MayHaveArrived,
		BudgetRefused:  res.BudgetRefused, LastAnswer: answer, Err: err,
	}
	if success { // its body failed
		e.StatusCode, e.Header, e.Body = res.StatusCode, res.Header, res.Body
	}
	if errors.Is(err, pipeline.ErrResponseTooLarge) {
		e.Err = ErrResponseTooLarge
	}
	return e
}

// RequestError is a call that got no usable answer: it could not be sent, the context
// ended, the connection failed, or a 2xx body was too large, cut short or not JSON.
// Err keeps the cause: errors.Is(err, context.DeadlineExceeded) works.
type RequestError struct {
	Method string
	Path   string
	// Attempts is how many attempts the call made. An attempt is one request put on
	// the wire, or that tried to connect: the first, each retry, and the resend made
	// at once below a request that failed before an answer, by net/http itself (on a
	// fresh connection when a reused one failed; over HTTP/2 after a stream was
	// refused, went away or was reset) or by the SDK over HTTP/1.1 where net/http
	// would have resent an idempotent request over HTTP/2. A resend shares the
	// attempt timeout of the request it repeats, and only net/http's own resends are
	// not announced to Observers (they happen inside net/http).
	Attempts int
	// StatusCode and Body are those of a 2xx answer whose body could not be read or
	// decoded: the body is kept (capped at 16 MiB) so nothing the server said is lost.
	StatusCode int
	Header     http.Header
	Body       []byte
	// OutcomeUnknown is true when a record-creating call may have reached the server:
	// the error then also matches ErrOutcomeUnknown.
	OutcomeUnknown bool
	// LastAnswer is the last non-2xx answer when the call's context ended after it
	// (waiting to retry it, or during the retry): errors.As(err, &apiErr) gives it,
	// and err matches its sentinel (ErrServer, ErrRateLimited, ...) as well as the
	// context's error.
	LastAnswer *APIError
	// BudgetRefused is true when the Client's retry budget refused a retry the retry
	// table allowed, or net/http's own resend, during the call (see WithRetryBudget).
	BudgetRefused bool
	// Why says, in one sentence, where the last request got, from what the SDK saw:
	// "the body went out and the connection closed before an answer", "nothing could
	// connect", "the server answered 201 Created, but its body is cut or not JSON".
	// It is set whenever a request was attempted, and is part of Error's text when
	// the outcome is unknown: what support staff need to answer "did it go through?".
	Why string
	Err error
}

// budgetRefusedText ends the text of an error whose retry the budget refused.
const budgetRefusedText = " (not retried: the client's retry budget is spent)"

// Error names method, path, attempts and cause, its control characters escaped and
// the cause cut to 400 runes (it may quote what the server sent).
func (e *RequestError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "insurance: %s %s", e.Method, e.Path)
	if e.StatusCode != 0 {
		fmt.Fprintf(&b, ": status %d", e.StatusCode)
	}
	switch e.Attempts {
	case 0:
	case 1:
		b.WriteString(": 1 attempt")
	default:
		fmt.Fprintf(&b, ": %d attempts", e.Attempts)
	}
	b.WriteString(": " + loggable(strings.TrimPrefix(fmt.Sprint(e.Err), "insurance: "), 2*maxShown))
	if e.LastAnswer != nil {
		fmt.Fprintf(&b, " (last answer: %d %s)", e.LastAnswer.StatusCode, http.StatusText(e.LastAnswer.StatusCode))
	}
	if e.BudgetRefused {
		b.WriteString(budgetRefusedText)
	}
	if e.OutcomeUnknown {
		b.WriteString(" (outcome unknown: ")
		if e.Why != "" {
			b.WriteString(e.Why + "; ")
		}
		b.WriteString("check before trying again)")
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *RequestError) Unwrap() error { return e.Err }

// Is matches ErrOutcomeUnknown when OutcomeUnknown is set, and the sentinel of
// LastAnswer's status.
func (e *RequestError) Is(target error) bool {
	if target == ErrOutcomeUnknown {
		return e.OutcomeUnknown
	}
	return e.LastAnswer != nil && e.LastAnswer.Is(target)
}

// As hands out LastAnswer to errors.As(err, **APIError).
func (e *RequestError) As(target any) bool {
	p, ok := target.(**APIError)
	if ok && e.LastAnswer != nil {
		*p = e.LastAnswer
		return true
	}
	return false
}

// maxShown is how many runes of a server's string an error's text shows.
const maxShown = 200

// loggable is s with its control characters escaped, cut to limit runes (-1: none), so
// that a server cannot forge a log line or send escapes to a terminal.
func loggable(s string, limit int) string {
	var b strings.Builder
	for i, r := range []rune(s) {
		switch {
		case i == limit:
			b.WriteString("…")
			return b.String()
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case unicode.IsControl(r):
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ValidationError is a local check that failed: nothing was sent. A request with
// several problems fails with them joined (errors.Join): errors.As gives the first,
// and each is in the error's text.
type ValidationError struct {
	// Field names what is wrong: a request field by its JSON name (e.g.
	// "payment_method.token"), or "request", "ctx", "method", "path" or
	// "customer secret" for an argument of the call.
	Field   string
	Problem string // what is wrong, e.g. "is required"
}

// Error names the field and the problem.
func (e *ValidationError) Error() string {
	return "insurance: invalid request: " + e.Field + " " + e.Problem
}

func required(field, value string) error {
	if strings.TrimSpace(value) == "" {
		return &ValidationError{Field: field, Problem: "is required"}
	}
	return nil
}

func nilRequest() error { return &ValidationError{Field: "request", Problem: "is nil"} }
