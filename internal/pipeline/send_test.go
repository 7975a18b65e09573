package pipeline

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every attempt is counted once and its body read, also the answer the call ends
// with.
func TestEveryAttemptIsCountedOnce(t *testing.T) {
	sent := 0
	p := newPipeline(Config{MaxRetries: 3}, &http.Client{Transport: answering(&sent,
		canned{503, "busy", 4}, canned{503, "busy", 4}, canned{200, `{"ok":true}`, 11})})
	res, err := p.Send(context.Background(), &Request{Method: http.MethodGet, Path: "/v1/products", Class: Idempotent})
	require.NoError(t, err)
	assert.Equal(t, 3, sent)
	assert.Equal(t, 3, res.Attempts)
	assert.Equal(t, `{"ok":true}`, string(res.Body))
}

// A 2xx whose body breaks off is retried like a failed attempt while retries are
// left; when none are, it is an error that keeps what was read, never a success.
func TestATruncatedSuccessBodyIsAnErrorOnceRetriesRunOut(t *testing.T) {
	sent := 0
	p := newPipeline(Config{MaxRetries: 1}, &http.Client{Transport: answering(&sent, canned{200, `{"ok":`, 11})})
	res, err := p.Send(context.Background(), &Request{Method: http.MethodGet, Path: "/v1/products", Class: Idempotent})
	require.Error(t, err)
	assert.Equal(t, 2, sent)
	assert.Equal(t, 2, res.Attempts)
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Equal(t, `{"ok":`, string(res.Body))
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
}

// roundTripFunc is a transport made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// canned is an answer a test transport gives: its status, body and Content-Length.
type canned struct {
	status int
	body   string
	length int64
}

// answering is a transport giving the answers in turn (the last one again once they
// run out), counting the requests in sent.
func answering(sent *int, answers ...canned) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		a := answers[min(*sent, len(answers)-1)]
		*sent++
		return &http.Response{StatusCode: a.status, Header: http.Header{}, ContentLength: a.length,
			Body: io.NopCloser(strings.NewReader(a.body)), Request: r}, nil
	})
}

// newPipeline is a pipeline on the pools of hc (nil: the default transport), with no
// retry budget.
func newPipeline(cfg Config, hc *http.Client) *Pipeline {
	return New(cfg, NewPools(hc, 0, false), nil)
}
