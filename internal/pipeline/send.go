package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Send performs the request: one try after another, as the request's Class, the
// retry table, the context and the retry budget allow. Each turn of its loop reads
// top to bottom: try, account, classify, decide, wait.
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
		t, err := p.tryOnce(ctx, r, body, &c)
		if err != nil {
			return Answer{}, &Error{Attempts: c.attempts, MayHaveArrived: c.mayHaveArrived, Err: err}
		}

		arrived := t.mayHaveArrived()
		c.account(t, arrived)

		if t.err == nil && isSuccess(t.answer.StatusCode) {
			p.budget.Succeeded(retries > 0)
			return c.end(ctx, t, nil)
		}

		wait := p.wait(retries, t.answer)
		if ctx.Err() != nil || !retryable(t, arrived) || retries == p.cfg.MaxRetries || outlasts(ctx, wait) {
			return c.end(ctx, t, p.describe(ctx, t.err))
		}
		if !p.budget.TakeRetry() {
			c.budgetRefused = true
			return c.end(ctx, t, p.describe(ctx, t.err))
		}

		if err := sleep(ctx, wait); err != nil {
			p.budget.Refund() // the retry it paid for is not made
			if t.err != nil {
				err = fmt.Errorf("%w while waiting to retry after: %v", err, t.err)
			}
			return c.end(ctx, &try{}, err)
		}
	}
}

// tryOnce makes one try: it builds the request, lets BeforeAttempt write to its
// header, sends it, reads the answer, and notes in c whether the server answered
// its Expect.
func (p *Pipeline) tryOnce(ctx context.Context, r *Request, body []byte, c *tally) (*try, error) {
	t := p.newTry(ctx, r, c)
	req, err := p.newRequest(r, body, t)
	if err != nil {
		return nil, err
	}
	p.cfg.BeforeAttempt(ctx, t.number, req.Header)
	resp, err := p.deliver(t, req)
	if err != nil {
		t.err = unwrapURLError(err)
	} else {
		t.answer, t.err = readAnswer(resp)
	}
	c.skipExpect = p.pools.expect.observe(t, p.attemptTimedOut(ctx, t.err))
	t.logEnd(ctx)
	return t, nil
}

// deliver hands req to the try's lane, and once more (BeforeAttempt writing to it
// again) to the HTTP/1.1 records lane when net/http would have resent it (see rewind).
func (p *Pipeline) deliver(t *try, req *http.Request) (*http.Response, error) {
	var header http.Header
	if p.pools.jar != nil {
		header = req.Header.Clone() // http.Client adds the jar's cookies to req's
	}
	resp, err := p.clients[t.lane].Do(req)
	if !errors.Is(err, errResendOverHTTP1) {
		return resp, err
	}
	again := req.Clone(req.Context()) // the try's context: its trace counts the send
	again.Body = t.newBody()
	if header != nil {
		again.Header = header
	}
	p.cfg.BeforeAttempt(t.Context, t.number+t.Attempts(), again.Header)
	t.handOffs.Add(-1) // the guard lets this one in (see guardedPool)
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

// tally is what a call's tries add up to, and what the next try needs of them.
type tally struct {
	attempts       int     // requests sent, net/http's own resends included
	mayHaveArrived bool    // some request may have reached the server
	lastAnswer     *Answer // the last non-2xx answer
	budgetRefused  bool    // the retry budget refused a retry or a resend
	freshConn      bool    // the next try takes a connection of its own (wantsFreshConn)
	skipExpect     bool    // the server did not answer the last try's Expect
}

// account adds a try to the call.
func (c *tally) account(t *try, arrived bool) {
	c.attempts += t.Attempts()
	c.mayHaveArrived = c.mayHaveArrived || arrived
	c.budgetRefused = c.budgetRefused || t.budgetRefused.Load()
	c.freshConn = t.wantsFreshConn()
	if t.answer != nil && !isSuccess(t.answer.StatusCode) {
		c.lastAnswer = t.answer
	}
}

// end is how the call ends after try t, with err when it got no usable answer: an
// answer (2xx or not) is an Answer, anything else an *Error that keeps what there is.
func (c *tally) end(ctx context.Context, t *try, err error) (Answer, error) {
	if err == nil {
		res := *t.answer
		res.Attempts, res.BudgetRefused, res.MayHaveArrived = c.attempts, c.budgetRefused, c.mayHaveArrived
		return res, nil
	}
	e := &Error{Attempts: c.attempts, MayHaveArrived: c.mayHaveArrived, BudgetRefused: c.budgetRefused, Err: err}
	switch {
	case t.answer != nil: // a 2xx whose body failed
		e.StatusCode, e.Header, e.Body = t.answer.StatusCode, t.answer.Header, t.answer.Body
	case ctx.Err() != nil && c.lastAnswer != nil:
		last := *c.lastAnswer
		last.Attempts, last.MayHaveArrived = c.attempts, c.mayHaveArrived
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
