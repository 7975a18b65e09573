package sandbox

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// auth is the scheme an endpoint accepts.
type auth int

const (
	authBasic auth = iota
	authClientID
	authBasicOrClientID
	authBearer
)

var authNames = map[auth]string{
	authBasic:           "Basic (client id and client secret)",
	authClientID:        "x-api-client-id header only",
	authBasicOrClientID: "Basic, or the x-api-client-id header",
	authBearer:          "Bearer customer secret only",
}

// authenticate checks the one scheme the endpoint accepts. For the Bearer scheme it
// returns the email address the customer secret was minted for.
func (s *Sandbox) authenticate(r *http.Request, a auth) (string, error) {
	authorization := r.Header.Get("Authorization")
	clientID := r.Header.Get("X-Api-Client-Id")
	switch a {
	case authBasic:
		if s.basicOK(r) {
			return "", nil
		}
		return "", unauthorized("this endpoint takes Basic auth with the partner client id and secret")
	case authClientID:
		if authorization == "" && equal(clientID, s.clientID) {
			return "", nil
		}
		return "", unauthorized("this endpoint takes only the x-api-client-id header with a known client id")
	case authBasicOrClientID:
		if (authorization != "" && s.basicOK(r)) || (authorization == "" && equal(clientID, s.clientID)) {
			return "", nil
		}
		return "", unauthorized("send Basic auth or the x-api-client-id header")
	case authBearer:
		token, ok := strings.CutPrefix(authorization, "Bearer ")
		if !ok || clientID != "" {
			return "", unauthorized("this endpoint takes only a Bearer customer client secret")
		}
		s.mu.Lock()
		secret, known := s.secrets.get(token)
		s.mu.Unlock()
		if !known {
			return "", unauthorized("unknown customer client secret")
		}
		if !s.Now().Before(secret.expires) {
			return "", &apiError{status: http.StatusUnauthorized, code: "secret_expired", reason: "authentication", message: "the customer client secret has expired: create a new one"}
		}
		return secret.email, nil
	}
	return "", unauthorized("unknown auth scheme")
}

func (s *Sandbox) basicOK(r *http.Request) bool {
	id, secret, ok := r.BasicAuth()
	return ok && equal(id, s.clientID) && equal(secret, s.clientSecret)
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
