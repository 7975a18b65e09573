package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Send performs the request: one try after another, as the request's Class, the
// retry table, the context and the retry budget allow. Each turn of its loop reads
// top to bottom: try, judge, account, decide, wait.
func (p *Pipeline) Send(ctx context.Context, r *Request) (Answer, error) {
	if err := ctx.Err(); err != nil {
		return Answer{}, &Error{Err: err}
	}
	var body []byte // the JSON of r.Body; nil when there is none
	if r.Body != nil {
		var err error
		if body, err = json.Marshal(r.Body); err != nil {
			return Answer{}, &Error{Err: fmt.Errorf("encoding request body: %w", err)}
		}
	}
	var c tally
	for retries := 0; ; retries++ {
		t, req, err := p.newTry(ctx, r, body, &c)
		if err != nil {
			return c.end(ctx, nil, err)
		}
		start := time.Now()
		p.deliver(t, req)

		// The attempt's bound (or the caller's http.Client.Timeout), not the call's context.
		timedOut := t.err != nil && ctx.Err() == nil && errors.Is(t.err, context.DeadlineExceeded)
		v := judge(t, timedOut)
		c.account(t, v)
		p.pools.expect.observe(v)
		p.log(ctx, t, v, start)

		if t.err == nil && isSuccess(t.answer.StatusCode) {
			p.budget.Succeeded(retries > 0)
			return c.end(ctx, t, nil)
		}
		failure := t.err
		if timedOut && t.Context.Err() == context.DeadlineExceeded { // the attempt timeout, which net/http reports as the context's
			what := "no answer"
			if t.answer != nil {
				what = "the answer's body was not read"
			}
			failure = fmt.Errorf("%s within the attempt timeout of %s: %w", what, p.cfg.AttemptTimeout, context.DeadlineExceeded)
		}
		wait := p.wait(retries, t.answer)
		if ctx.Err() != nil || !v.retry || retries == p.cfg.MaxRetries || outlasts(ctx, wait) {
			return c.end(ctx, t, failure)
		}
		if !p.budget.TakeRetry() {
			c.budgetRefused = true
			return c.end(ctx, t, failure)
		}

		if err := sleep(ctx, wait); err != nil {
			p.budget.Refund() // the retry it paid for is not made
			if t.err != nil {
				err = fmt.Errorf("%w while waiting to retry after: %v", err, t.err)
			}
			return c.end(ctx, nil, err)
		}
	}
}

// tally is a call under way: what its tries came to, and what the next try needs of
// the last one.
type tally struct {
	attempts      int     // requests sent, net/http's own resends included
	arrived       bool    // some request may have reached the server
	budgetRefused bool    // the retry budget refused a retry, or a resend
	why           string  // where the last request got
	lastAnswer    *Answer // the last non-2xx answer
	freshConn     bool    // the next try takes a connection of its own
	skipExpect    bool    // the next try does not ask Expect: the last found it unwelcome
}

// account adds try t, judged v, to the call.
func (c *tally) account(t *try, v verdict) {
	c.attempts += t.Attempts()
	c.arrived = c.arrived || v.arrived
	c.budgetRefused = c.budgetRefused || t.ev.budgetRefused.Load()
	c.why = v.why
	c.freshConn, c.skipExpect = v.freshConn, v.expectUnwelcome
	if t.answer != nil && !isSuccess(t.answer.StatusCode) {
		c.lastAnswer = t.answer
	}
}

// end is how the call ends after try t (nil: after a wait, or none), with err when it
// got no usable answer: then an *Error too, which keeps what there is.
func (c *tally) end(ctx context.Context, t *try, err error) (Answer, error) {
	res := Answer{Attempts: c.attempts, MayHaveArrived: c.arrived, BudgetRefused: c.budgetRefused, Why: c.why}
	if t != nil && t.answer != nil { // its answer, or a 2xx whose body failed
		res.StatusCode, res.Header, res.Body = t.answer.StatusCode, t.answer.Header, t.answer.Body
	}
	if err == nil {
		return res, nil
	}
	e := &Error{Answer: res, Err: err}
	if res.StatusCode == 0 && ctx.Err() != nil && c.lastAnswer != nil {
		last := *c.lastAnswer
		last.Attempts, last.MayHaveArrived, last.BudgetRefused, last.Why = res.Attempts, res.MayHaveArrived, res.BudgetRefused, res.Why
		e.Last = &last
	}
	return res, e
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

// log writes a debug line for each request of try t (begun at start): method, path,
// attempt, latency and outcome, never a header, a body or a query; why, unless it
// succeeded.
func (p *Pipeline) log(ctx context.Context, t *try, v verdict, start time.Time) {
	if p.cfg.Logger == nil || !p.cfg.Logger.Enabled(ctx, slog.LevelDebug) {
		return
	}
	last := t.number + t.Attempts() - 1
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
