package sandbox

import (
	"net/http"
	"strings"
	"time"
)

// The sandbox's own controls, over HTTP, for code in any language. They take Basic
// auth with any partner's credentials, act on the whole sandbox (every partner's
// records), and never answer CORS: no page may call them. api/sandbox.yaml describes
// them; package insurancetest documents each.

// control is one route of the controls: its handler gets the request body and the
// client id of the partner that called. body says whether it reads a JSON body
// (api/sandbox.yaml gives it a request body), whose Content-Type is then checked.
type control struct {
	route  string // "METHOD /path"
	handle func(s *Sandbox, body []byte, clientID string) (int, any, error)
	body   bool
}

var controls = []control{
	{"POST /sandbox/credentials", (*Sandbox).credentialsControl, false},
	{"POST /sandbox/tuition-quotes", (*Sandbox).newTuitionQuoteControl, true},
	{"POST /sandbox/mark-purchased", (*Sandbox).markPurchasedControl, true},
	{"POST /sandbox/faults", (*Sandbox).injectControl, true},
	{"GET /sandbox/requests", (*Sandbox).requestsControl, false},
	{"GET /sandbox/policies", list("policies", func(s *Sandbox) []listedPolicy { return convert(s.Policies(), newListedPolicy) }), false},
	{"GET /sandbox/quotes", list("quotes", func(s *Sandbox) []listedQuote { return convert(s.Quotes(), newListedQuote) }), false},
	{"GET /sandbox/partners", list("partners", (*Sandbox).Partners), false},
	{"GET /sandbox/events", list("events", (*Sandbox).Events), false},
	{"POST /sandbox/clock", (*Sandbox).clockControl, true},
	{"POST /sandbox/reset", (*Sandbox).resetControl, false},
}

// Controls lists the control routes, for people.
func Controls() []string {
	routes := make([]string, len(controls))
	for i, c := range controls {
		routes[i] = c.route
	}
	return routes
}

func (s *Sandbox) serveControl(w http.ResponseWriter, r *http.Request) {
	clientID, ok := s.partnerOf(r)
	if !ok {
		writeError(w, unauthorized("the sandbox controls take Basic auth with a partner's client id and secret"))
		return
	}
	status, answer, err := s.control(r, clientID)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, status, answer)
}

func (s *Sandbox) control(r *http.Request, clientID string) (int, any, error) {
	body, err := readRequestBody(r)
	if err != nil {
		return 0, nil, err
	}
	route := r.Method + " " + r.URL.Path
	for _, c := range controls {
		if c.route != route {
			continue
		}
		if c.body {
			if err := checkContentType(r, body); err != nil {
				return 0, nil, err
			}
		}
		return c.handle(s, body, clientID)
	}
	return 0, nil, &apiError{status: http.StatusNotFound, code: "not_found",
		message: "no sandbox control " + route + "; the controls are " + strings.Join(Controls(), ", ")}
}

// credentialsControl adds a partner (AddPartner).
func (s *Sandbox) credentialsControl([]byte, string) (int, any, error) {
	id, secret := s.AddPartner()
	return http.StatusCreated, map[string]string{"client_id": id, "client_secret": secret}, nil
}

// newTuitionQuoteControl makes a tuition quote of the calling partner.
func (s *Sandbox) newTuitionQuoteControl(body []byte, clientID string) (int, any, error) {
	var req struct {
		CustomerEmailAddress string `json:"customer_email_address"`
	}
	if err := decodeStrict(body, &req); err != nil {
		return 0, nil, err
	}
	if err := checkEmail("customer_email_address", req.CustomerEmailAddress); err != nil {
		return 0, nil, err
	}
	id, err := s.NewTuitionQuoteFor(clientID, req.CustomerEmailAddress)
	if err != nil {
		return 0, nil, err // the caller authenticated as clientID: cannot happen
	}
	return http.StatusCreated, map[string]string{"quote_id": id}, nil
}

func (s *Sandbox) markPurchasedControl(body []byte, _ string) (int, any, error) {
	var req struct {
		QuoteID string `json:"quote_id"`
	}
	if err := decodeStrict(body, &req); err != nil {
		return 0, nil, err
	}
	if err := s.MarkPurchased(req.QuoteID); err != nil {
		return 0, nil, badRequest("invalid_parameter", "%v", err)
	}
	return http.StatusOK, map[string]string{"quote_id": req.QuoteID, "status": quoteStatusPurchased}, nil
}

// faultRequest is the body of POST /sandbox/faults: Fault in snake_case.
type faultRequest struct {
	Route   string            `json:"route"`
	Times   int               `json:"times"`
	Process bool              `json:"process"`
	Status  int               `json:"status"`
	Body    string            `json:"body"`
	Header  map[string]string `json:"header"`
	DelayMS int64             `json:"delay_ms"`
	Drop    bool              `json:"drop"`
}

func (s *Sandbox) injectControl(body []byte, _ string) (int, any, error) {
	var req faultRequest
	if err := decodeStrict(body, &req); err != nil {
		return 0, nil, err
	}
	f := Fault{Times: req.Times, Process: req.Process, Status: req.Status, Body: req.Body,
		Delay: time.Duration(req.DelayMS) * time.Millisecond, Drop: req.Drop}
	if len(req.Header) > 0 {
		f.Header = http.Header{}
		for k, v := range req.Header {
			f.Header.Set(k, v)
		}
	}
	if err := s.Inject(req.Route, f); err != nil {
		return 0, nil, badRequest("invalid_fault", "%v", err)
	}
	if req.Header == nil {
		req.Header = map[string]string{} // answered as {}, as api/sandbox.yaml says, not null
	}
	return http.StatusCreated, req, nil
}

// loggedRequest is a logged request as JSON, its body as text.
type loggedRequest struct {
	Method          string      `json:"method"`
	Path            string      `json:"path"`
	Auth            string      `json:"auth"`
	ClientID        string      `json:"client_id"`
	Header          http.Header `json:"header"`
	HeaderTruncated bool        `json:"header_truncated"`
	Body            string      `json:"body"`
	BodyTruncated   bool        `json:"body_truncated"`
	StatusCode      int         `json:"status_code"`
	ReceivedAt      time.Time   `json:"received_at"`
	Warning         string      `json:"warning,omitempty"`
}

func (s *Sandbox) requestsControl([]byte, string) (int, any, error) {
	logged := s.Requests()
	out := make([]loggedRequest, 0, len(logged))
	for _, q := range logged {
		out = append(out, loggedRequest{q.Method, q.Path, q.Auth, q.ClientID, q.Header, q.HeaderTruncated,
			string(q.Body), q.BodyTruncated, q.StatusCode, q.ReceivedAt, q.Warning})
	}
	return http.StatusOK, map[string]any{"requests": out}, nil
}

// listedQuote is a quote as the controls list it: as a quote answers it, and the
// partner whose quote it is.
type listedQuote struct {
	Quote
	ClientID string `json:"client_id"`
}

func newListedQuote(q Quote) listedQuote { return listedQuote{q, q.ClientID} }

// listedPolicy is a policy as the controls list it: as a purchase answers it, and the
// partner whose policy it is.
type listedPolicy struct {
	Policy
	ClientID string `json:"client_id"`
}

func newListedPolicy(p Policy) listedPolicy { return listedPolicy{p, p.ClientID} }

// convert maps each record.
func convert[S, T any](in []S, to func(S) T) []T {
	out := make([]T, len(in))
	for i, r := range in {
		out[i] = to(r)
	}
	return out
}

// list answers {name: records()}.
func list[T any](name string, records func(*Sandbox) []T) func(*Sandbox, []byte, string) (int, any, error) {
	return func(s *Sandbox, _ []byte, _ string) (int, any, error) {
		return http.StatusOK, map[string]any{name: records(s)}, nil
	}
}

func (s *Sandbox) clockControl(body []byte, _ string) (int, any, error) {
	var req struct {
		Advance string `json:"advance"`
	}
	if err := decodeStrict(body, &req); err != nil {
		return 0, nil, err
	}
	d, err := time.ParseDuration(req.Advance)
	if err != nil || d < 0 {
		return 0, nil, badRequest("invalid_parameter", "advance must be a duration such as \"16m\" or \"1h30m\", not %q", req.Advance)
	}
	s.Advance(d)
	return http.StatusOK, map[string]any{"now": s.Now().UTC()}, nil
}

func (s *Sandbox) resetControl([]byte, string) (int, any, error) {
	s.Reset()
	return http.StatusOK, map[string]any{}, nil
}
