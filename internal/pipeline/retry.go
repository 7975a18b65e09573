package pipeline

import (
	"crypto/tls"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// retryable is the retry table of the SDK for one try's outcome: what an
// idempotent call may try again, and what a record-creating call may (only what
// never reached the server, and a 429).
func retryable(t *try, arrived bool) bool {
	if t.err != nil { // no answer, or a 2xx whose body could not be read
		if errors.Is(t.err, ErrResponseTooLarge) || isPermanent(t.err) {
			return false
		}
		return t.class == Idempotent || !arrived
	}
	switch t.answer.StatusCode {
	case http.StatusTooManyRequests:
		return true
	case http.StatusExpectationFailed: // sent again without Expect when its body never went out
		return !arrived
	}
	return isGatewayFailure(t.answer.StatusCode) && (t.class == Idempotent || !arrived) // !arrived: refused before its body went out
}

// wait is how long to wait before retry number retries+1: as long as the answer's
// Retry-After asks, capped so that a hostile or mistaken header cannot stall a call,
// or else go-retryablehttp's exponential schedule between the client's shortest and
// longest wait, with equal jitter: at least half of it, so waits still grow.
func (p *Pipeline) wait(retries int, answer *Answer) time.Duration {
	if answer != nil && (answer.StatusCode == http.StatusTooManyRequests || answer.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := ParseRetryAfter(answer.Header.Get("Retry-After"), time.Now()); ok {
			return min(d, p.cfg.MaxRetryAfter)
		}
	}
	backoff := retryablehttp.DefaultBackoff(p.cfg.RetryWaitMin, p.cfg.RetryWaitMax, retries, nil)
	return backoff/2 + rand.N(backoff/2+1)
}

// ParseRetryAfter reads a Retry-After value: delay-seconds or an HTTP date.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		return time.Duration(min(secs, int64(time.Duration(1<<62)/time.Second))) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(at.Sub(now), 0), true
	}
	return 0, false
}

// isPermanent reports a failure that trying again cannot cure: a certificate that does
// not verify, a server that does not speak TLS, or attempt middleware that drops the
// request's context or sends a request twice.
func isPermanent(err error) bool {
	var certErr *tls.CertificateVerificationError
	var recordErr tls.RecordHeaderError
	return errors.As(err, &certErr) || errors.As(err, &recordErr) ||
		errors.Is(err, errContextDropped) || errors.Is(err, errSentAgainAbove)
}

// unwrapURLError drops net/http's *url.Error layer, whose text repeats the full URL;
// the SDK's own error names method and path.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
