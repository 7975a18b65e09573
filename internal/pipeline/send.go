package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Send performs the request: one attempt after another, as the request's Class, the
// retry table, the context and the retry budget allow. Each turn of its loop reads
// top to bottom: attempt, account, classify, decide, wait.
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
		a, err := p.try(ctx, r, body, &c)
		if err != nil {
			return Answer{}, &Error{Attempts: c.sent, MayHaveArrived: c.mayHaveArrived, Err: err}
		}

		arrived := a.mayHaveArrived()
		c.account(a, arrived)

		if a.err == nil && isSuccess(a.answer.StatusCode) {
			p.budget.Succeeded(retries > 0)
			return c.end(ctx, a, nil)
		}

		wait := p.wait(retries, a.answer)
		if ctx.Err() != nil || !retryable(a, arrived) || retries == p.cfg.MaxRetries || outlasts(ctx, wait) {
			return c.end(ctx, a, p.describe(ctx, a.err))
		}
		if !p.budget.TakeRetry() {
			c.budgetRefused = true
			return c.end(ctx, a, p.describe(ctx, a.err))
		}

		if err := sleep(ctx, wait); err != nil {
			p.budget.Refund() // the retry it paid for is not made
			if a.err != nil {
				err = fmt.Errorf("%w while waiting to retry after: %v", err, a.err)
			}
			return c.end(ctx, &attempt{}, err)
		}
	}
}

// try makes one attempt: it builds the request, lets BeforeAttempt write to its
// header, sends it, reads the answer, and notes in c whether the server answered
// its Expect.
func (p *Pipeline) try(ctx context.Context, r *Request, body []byte, c *tally) (*attempt, error) {
	a := p.newAttempt(ctx, r, c)
	req, err := p.newRequest(r, body, a)
	if err != nil {
		return nil, err
	}
	if p.cfg.BeforeAttempt != nil {
		p.cfg.BeforeAttempt(ctx, a.number, req.Header)
	}
	resp, err := p.deliver(a, req)
	if err != nil {
		a.err = unwrapURLError(err)
	} else {
		a.answer, a.err = readAnswer(resp)
	}
	c.skipExpect = p.pools.expect.observe(a, p.attemptTimedOut(ctx, a.err))
	a.logEnd(ctx)
	return a, nil
}

// deliver hands req to the attempt's lane, and once more (BeforeAttempt writing to it
// again) to the HTTP/1.1 records lane when net/http would have resent it (see rewind).
func (p *Pipeline) deliver(a *attempt, req *http.Request) (*http.Response, error) {
	var header http.Header
	if p.pools.jar != nil {
		header = req.Header.Clone() // http.Client adds the jar's cookies to req's
	}
	resp, err := p.clients[a.lane].Do(req)
	if !errors.Is(err, errResendOverHTTP1) {
		return resp, err
	}
	again := req.Clone(req.Context()) // the attempt's context: its trace counts the send
	again.Body = a.newBody()
	if header != nil {
		again.Header = header
	}
	if p.cfg.BeforeAttempt != nil {
		p.cfg.BeforeAttempt(a.Context, a.number+a.Sends(), again.Header)
	}
	a.handOffs.Add(-1) // the guard lets this one in (see guardedPool)
	return p.clients[recordsLane].Do(again)
}

// describe names what ended an attempt where the bare error would not: the
// attempt timeout, whose error net/http reports as the context's.
func (p *Pipeline) describe(ctx context.Context, err error) error {
	if p.attemptTimedOut(ctx, err) {
		return fmt.Errorf("no answer within the attempt timeout of %s: %w", p.attemptTimeout, context.DeadlineExceeded)
	}
	return err
}

// attemptTimedOut reports an attempt that WithAttemptTimeout ended, not the call's context.
func (p *Pipeline) attemptTimedOut(ctx context.Context, err error) bool {
	return err != nil && p.attemptTimeout > 0 && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded)
}

// tally is what a call's attempts add up to, and what the next attempt needs of them.
type tally struct {
	sent           int     // requests sent, net/http's own resends included
	mayHaveArrived bool    // some request may have reached the server
	lastAnswer     *Answer // the last non-2xx answer
	budgetRefused  bool    // the retry budget refused a retry or a resend
	freshConn      bool    // the next attempt takes a connection of its own (wantsFreshConn)
	skipExpect     bool    // the server did not answer the last attempt's Expect
}

// account adds an attempt to the call.
func (c *tally) account(a *attempt, arrived bool) {
	c.sent += a.Sends()
	c.mayHaveArrived = c.mayHaveArrived || arrived
	c.budgetRefused = c.budgetRefused || a.budgetRefused.Load()
	c.freshConn = a.wantsFreshConn()
	if a.answer != nil && !isSuccess(a.answer.StatusCode) {
		c.lastAnswer = a.answer
	}
}

// end is how the call ends after attempt a, with err when it got no usable answer: an
// answer (2xx or not) is an Answer, anything else an *Error that keeps what there is.
func (c *tally) end(ctx context.Context, a *attempt, err error) (Answer, error) {
	if err == nil {
		res := *a.answer
		res.Attempts, res.BudgetRefused, res.MayHaveArrived = c.sent, c.budgetRefused, c.mayHaveArrived
		return res, nil
	}
	e := &Error{Attempts: c.sent, MayHaveArrived: c.mayHaveArrived, BudgetRefused: c.budgetRefused, Err: err}
	switch {
	case a.answer != nil: // a 2xx whose body failed
		e.StatusCode, e.Header, e.Body = a.answer.StatusCode, a.answer.Header, a.answer.Body
	case ctx.Err() != nil && c.lastAnswer != nil:
		last := *c.lastAnswer
		last.Attempts, last.MayHaveArrived = c.sent, c.mayHaveArrived
		e.Last = &last
	}
	return Answer{}, e
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
