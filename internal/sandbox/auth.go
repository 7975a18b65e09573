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

// caller is who sent a request of the interface: the partner, by client id, and for
// a Bearer customer secret the email address it was minted for.
type caller struct {
	clientID string
	email    string // Bearer only
}

// authenticate checks the one scheme the endpoint accepts and returns who called.
// For the Bearer scheme the partner is the one that minted the customer secret.
func (s *Sandbox) authenticate(r *http.Request, a auth) (caller, error) {
	authorization := r.Header.Get("Authorization")
	clientID := r.Header.Get("X-Api-Client-Id")
	switch a {
	case authBasic:
		if id, ok := s.partnerOf(r); ok {
			return caller{clientID: id}, nil
		}
		return caller{}, unauthorized("this endpoint takes Basic auth with a partner's client id and secret")
	case authClientID:
		if authorization == "" && s.isClientID(clientID) {
			return caller{clientID: clientID}, nil
		}
		return caller{}, unauthorized("this endpoint takes only the x-api-client-id header with a known client id")
	case authBasicOrClientID:
		if authorization != "" {
			if id, ok := s.partnerOf(r); ok {
				return caller{clientID: id}, nil
			}
		} else if s.isClientID(clientID) {
			return caller{clientID: clientID}, nil
		}
		return caller{}, unauthorized("send Basic auth or the x-api-client-id header")
	case authBearer:
		token, ok := strings.CutPrefix(authorization, "Bearer ")
		if !ok || clientID != "" {
			return caller{}, unauthorized("this endpoint takes only a Bearer customer client secret")
		}
		s.mu.Lock()
		secret, known := s.secrets.get(token)
		s.mu.Unlock()
		if !known {
			return caller{}, unauthorized("unknown customer client secret")
		}
		if !s.Now().Before(secret.expires) {
			return caller{}, &apiError{status: http.StatusUnauthorized, code: "secret_expired", reason: "authentication", message: "the customer client secret has expired: create a new one"}
		}
		return caller{clientID: secret.clientID, email: secret.email}, nil
	}
	return caller{}, unauthorized("unknown auth scheme")
}

// isClientID reports whether id is a partner's client id.
func (s *Sandbox) isClientID(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.knownClientID(id)
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }
