package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// The sandbox's own controls, over HTTP, for code in any language. They take Basic
// auth with the partner credentials and never answer CORS: no page may call them.
// Package insurancetest documents each.

// Controls lists the control routes, for people.
var Controls = []string{
	"POST /sandbox/tuition-quotes",
	"POST /sandbox/mark-purchased",
	"POST /sandbox/faults",
	"GET /sandbox/requests",
	"GET /sandbox/policies",
	"GET /sandbox/quotes",
	"GET /sandbox/partners",
	"GET /sandbox/events",
	"POST /sandbox/clock",
	"POST /sandbox/reset",
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

// loggedRequest is a logged request as JSON, its body as text.
type loggedRequest struct {
	Method     string      `json:"method"`
	Path       string      `json:"path"`
	Auth       string      `json:"auth"`
	Header     http.Header `json:"header"`
	Body       string      `json:"body"`
	StatusCode int         `json:"status_code"`
	ReceivedAt time.Time   `json:"received_at"`
}

func (s *Sandbox) serveControl(w http.ResponseWriter, r *http.Request) {
	if !s.basicOK(r) {
		writeError(w, unauthorized("the sandbox controls take Basic auth with the partner client id and secret"))
		return
	}
	status, answer, err := s.control(r)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, status, answer)
}

func (s *Sandbox) control(r *http.Request) (int, any, error) {
	body, err := readRequestBody(r)
	if err != nil {
		return 0, nil, err
	}
	switch r.Method + " " + r.URL.Path {
	case "POST /sandbox/tuition-quotes":
		var req struct {
			CustomerEmailAddress string `json:"customer_email_address"`
		}
		if err := decodeStrict(body, &req); err != nil {
			return 0, nil, err
		}
		if err := checkEmail("customer_email_address", req.CustomerEmailAddress); err != nil {
			return 0, nil, err
		}
		return http.StatusCreated, map[string]string{"quote_id": s.NewTuitionQuote(req.CustomerEmailAddress)}, nil
	case "POST /sandbox/mark-purchased":
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
	case "POST /sandbox/faults":
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
		return http.StatusCreated, req, nil
	case "GET /sandbox/requests":
		logged := s.Requests()
		out := make([]loggedRequest, 0, len(logged))
		for _, q := range logged {
			out = append(out, loggedRequest{q.Method, q.Path, q.Auth, q.Header, string(q.Body), q.StatusCode, q.ReceivedAt})
		}
		return http.StatusOK, map[string]any{"requests": out}, nil
	case "GET /sandbox/policies":
		return http.StatusOK, map[string]any{"policies": s.Policies()}, nil
	case "GET /sandbox/quotes":
		return http.StatusOK, map[string]any{"quotes": s.Quotes()}, nil
	case "GET /sandbox/partners":
		return http.StatusOK, map[string]any{"partners": s.Partners()}, nil
	case "GET /sandbox/events":
		return http.StatusOK, map[string]any{"events": s.Events()}, nil
	case "POST /sandbox/clock":
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
	case "POST /sandbox/reset":
		s.Reset()
		return http.StatusOK, map[string]any{}, nil
	}
	return 0, nil, &apiError{status: http.StatusNotFound, code: "not_found",
		message: "no sandbox control " + r.Method + " " + r.URL.Path + "; the controls are " + strings.Join(Controls, ", ")}
}

// decodeStrict is decode refusing unknown fields, so a misspelt control field is a
// 400, not a silent no-op.
func decodeStrict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return badRequest("invalid_json", "invalid request body: %v", err)
	}
	return nil
}
