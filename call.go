package insurance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/partnerinsure/insurance-go/internal/pipeline"
)

// Do calls an endpoint the SDK does not wrap yet, with the same auth selection,
// retries and error mapping as the typed methods. in is sent as the JSON body (nil:
// none) and a 2xx body is decoded into out (nil: not decoded; Response.Raw keeps it).
// GET, HEAD, PUT and DELETE are retried like the idempotent calls; any other method is
// treated as record-creating and never sent twice once it may have reached the server.
// opts apply to this call alone (see Option).
func (c *Client) Do(ctx context.Context, method, path string, auth Auth, in, out any, opts ...Option) (*Response, error) {
	if method == "" || strings.ContainsAny(method, " \t\r\n") {
		return nil, &ValidationError{Field: "method", Problem: "want an HTTP method such as GET or POST"}
	}
	if !strings.HasPrefix(path, "/") || strings.Contains(path, "..") || strings.ContainsAny(path, "?#") {
		return nil, &ValidationError{Field: "path", Problem: "want an absolute path such as /v1/quote/pet, without query or '..'"}
	}
	class := pipeline.CreatesRecord
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodDelete:
		class = pipeline.Idempotent
	}
	res, err := c.call(ctx, endpoint{method: method, path: path, auth: auth, class: class}, in, out, opts)
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// endpoint is one operation of the interface: method, path, auth scheme and retry
// class, and whether the server needs its body to act on it (false for Do, which
// cannot know).
type endpoint struct {
	method, path string
	auth         Auth
	class        pipeline.Class
	needsBody    bool
}

// validator is implemented by request types with local checks.
type validator interface{ validate() error }

// call is the single path of every endpoint: apply the call's options, validate,
// authorize, send (the pipeline decodes a 2xx body into out), map errors, and give
// a result type of the SDK's its Response, with the Client's observers around it all.
func (c *Client) call(ctx context.Context, ep endpoint, in, out any, opts []Option) (resp Response, err error) {
	if err := c.check(); err != nil {
		return Response{}, err
	}
	if ctx == nil {
		return Response{}, &ValidationError{Field: "ctx", Problem: "is nil"}
	}
	if c, err = c.forCall(opts); err != nil {
		return Response{}, err
	}
	var res pipeline.Answer
	if observers := c.settings.observers; len(observers) > 0 {
		info := c.callInfo(ep)
		for _, o := range observers {
			if observed := o.StartCall(ctx, info); observed != nil {
				ctx = observed
			}
		}
		defer func() {
			result := resultOf(resp, res.Attempts, err)
			panicked := recover() // in middleware, a hook or a decoder: the observers hear of it, then it goes on
			if panicked != nil {
				result = CallResult{Attempts: res.Attempts, Err: fmt.Errorf("insurance: %s %s panicked: %v", ep.method, ep.path, panicked)}
			}
			for i := len(observers) - 1; i >= 0; i-- {
				observers[i].EndCall(ctx, info, result)
			}
			if panicked != nil {
				panic(panicked)
			}
		}()
	}
	if v, ok := in.(validator); ok {
		if err := v.validate(); err != nil {
			return Response{}, err
		}
	}
	header, value, err := c.settings.credentials.authorize(ep)
	if err != nil {
		return Response{}, err
	}
	res, err = c.pipe.Send(ctx, &pipeline.Request{
		Method: ep.method, Path: ep.path, Body: in, Out: out,
		AuthHeader: header, AuthValue: value, Class: ep.class, NeedsBody: ep.needsBody,
	})
	if err := callError(ep, res, err); err != nil {
		return Response{}, err
	}
	resp = Response{StatusCode: res.StatusCode, Header: res.Header, Raw: res.Body}
	if result, ok := out.(interface{ setResponse(Response) }); ok { // a result type of the SDK's, given to a typed method or Do
		result.setResponse(resp)
	}
	return resp, nil
}

// decodeAnswer is how the pipeline decodes a 2xx body into a call's out: in one pass
// where out can, then out may refuse an answer it cannot be used without (a quote
// without an id). An empty body (a 204, a HEAD) is not decoded.
func decodeAnswer(body []byte, out any) error {
	if len(body) > 0 {
		var err error
		if d, ok := out.(bodyDecoder); ok {
			err = d.decodeBody(body)
		} else {
			err = json.Unmarshal(body, out)
		}
		if err != nil {
			return fmt.Errorf("decoding response body: %w", err)
		}
	}
	if check, ok := out.(answerChecker); ok {
		return check.checkAnswer()
	}
	return nil
}

// bodyDecoder is implemented by the results whose answers the interface does not show
// (quotes, policies, product lists). json.Unmarshal would scan a body to check it and
// then hand it to their UnmarshalJSON, which parses it again: one pass instead of
// two.
type bodyDecoder interface{ decodeBody([]byte) error }

// answerChecker is implemented by results that refuse an answer they cannot be
// used without, such as a quote without an id.
type answerChecker interface{ checkAnswer() error }

// result is a typed endpoint's result: out, or nil and err when the call failed.
// (The endpoints call call themselves: through a generic function their options
// would escape to the heap.)
func result[T any](out *T, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	return out, nil
}
