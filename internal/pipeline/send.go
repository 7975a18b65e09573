package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"
)

// Send performs the request: one try after another, as the request's Class, the
// retry table, the context and the retry budget allow. Each turn of its loop reads
// top to bottom: try, judge, account, decide, wait. Beside the Answer it returns an
// error when the call got no usable answer: the request could not be encoded or sent,
// the context ended, or a 2xx body could not be read or decoded.
func (p *Pipeline) Send(ctx context.Context, r *Request) (Answer, error) {
	if err := ctx.Err(); err != nil {
		return Answer{}, err
	}
	var body []byte // the JSON of r.Body; nil when there is none
	if r.Body != nil {
		var err error
		if body, err = json.Marshal(r.Body); err != nil {
			return Answer{}, fmt.Errorf("encoding request body: %w", err)
		}
	}
	var (
		call    Answer  // what the tries came to
		t       *try    // the last try; nil when the call ended outside one (building it, waiting)
		v       verdict // the last try's: it picks the next one's lane and Expect
		refused *Answer // the last non-2xx answer
		err     error   // why the call failed
	)
	for retries := 0; ; retries++ {
		var req *http.Request
		if t, req, err = p.newTry(ctx, r, body, call.Attempts+1, v); err != nil {
			break
		}
		start := time.Now()
		p.deliver(t, req)

		// The attempt's bound (or the caller's http.Client.Timeout), not the call's context.
		timedOut := t.err != nil && ctx.Err() == nil && errors.Is(t.err, context.DeadlineExceeded)
		v = judge(t, timedOut)
		p.expect.observe(v)
		if p.cfg.Logger != nil && p.cfg.Logger.Enabled(ctx, slog.LevelDebug) {
			p.log(ctx, t, v, start)
		}
		call.Attempts += v.attempts
		call.MayHaveArrived = call.MayHaveArrived || v.arrived
		call.BudgetRefused = call.BudgetRefused || t.ev.budgetRefused.Load()
		call.Why = v.why

		if t.err == nil && isSuccess(t.answer.StatusCode) {
			p.budget.Return(retries > 0) // what its last retry took, or one
			err = nil                    // the call succeeded
			break
		}
		if t.answer != nil && !isSuccess(t.answer.StatusCode) {
			refused = t.answer
		}
		err = t.err
		if timedOut && t.Context.Err() == context.DeadlineExceeded { // the attempt timeout, which net/http reports as the context's
			what := "no answer"
			if t.answer != nil {
				what = "the answer's body was not read"
			}
			err = fmt.Errorf("%s within the attempt timeout of %s: %w", what, p.cfg.AttemptTimeout, context.DeadlineExceeded)
		}
		wait := p.wait(retries, t.answer)
		if ctx.Err() != nil || !v.retry || retries == p.cfg.MaxRetries || outlasts(ctx, wait) {
			break
		}
		if !p.budget.TakeRetry() {
			call.BudgetRefused = true
			break
		}
		if err = sleep(ctx, wait); err != nil {
			p.budget.Return(true) // the retry it paid for is not made
			if t.err != nil {
				err = fmt.Errorf("%w while waiting to retry after: %v", err, t.err)
			}
			t = nil // the call ends waiting, on no try's answer
			break
		}
	}
	// The call ends with its last try's answer; without one, once its context ended,
	// with the last non-2xx answer before.
	switch {
	case t != nil && t.answer != nil:
		call.StatusCode, call.Header, call.Body = t.answer.StatusCode, t.answer.Header, t.answer.Body
	case ctx.Err() != nil && refused != nil:
		call.StatusCode, call.Header, call.Body = refused.StatusCode, refused.Header, refused.Body
	}
	return call, err
}

// outlasts reports a wait that would end after the context's deadline: it is not
// begun, and the call ends at once with what it has.
func outlasts(ctx context.Context, wait time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return ok && !time.Now().Add(wait).Before(deadline)
}

// sleep waits d, or until the context ends.
func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d): // collected once it is unreachable, fired or not (Go 1.23)
		return nil
	}
}

// log writes a debug line for each request of try t (begun at start) to the Logger,
// which Send has found logs them: method, path, attempt, latency and outcome, never a
// header, a body or a query; why, unless it succeeded.
func (p *Pipeline) log(ctx context.Context, t *try, v verdict, start time.Time) {
	last := t.number + v.attempts - 1
	for n := t.number; n <= last; n++ {
		attrs := []slog.Attr{slog.String("method", t.req.Method), slog.String("path", t.req.Path),
			slog.Int("attempt", n), slog.Duration("latency", time.Since(start))}
		switch {
		case n < last:
			attrs = append(attrs, slog.String("why", "no answer: the request went out again at once"))
		case t.err != nil:
			attrs = append(attrs, slog.String("error", t.err.Error()), slog.String("why", v.why))
		case !isSuccess(t.answer.StatusCode):
			attrs = append(attrs, slog.Int("status", t.answer.StatusCode), slog.String("why", v.why))
		default:
			attrs = append(attrs, slog.Int("status", t.answer.StatusCode))
		}
		p.cfg.Logger.LogAttrs(ctx, slog.LevelDebug, "insurance: http attempt", attrs...)
	}
}
