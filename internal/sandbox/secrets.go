package sandbox

import (
	"net/http"
	"time"
)

// A customer secret is its prefix and this many random bytes, in hex.
const (
	customerSecretPrefix   = "cus_sec_"
	customerSecretHexBytes = 24
)

// customerSecret is a stored customer secret: which partner minted it, for whom, and
// until when.
type customerSecret struct {
	clientID string
	email    string
	expires  time.Time
}

func (s *Sandbox) createCustomerSecret(body []byte, c caller) (int, any, error) {
	var req customerSecretRequest
	if err := decode(body, &req); err != nil {
		return 0, nil, err
	}
	if err := checkEmail("email_address", req.EmailAddress); err != nil {
		return 0, nil, err
	}
	secret := customerSecretPrefix + s.ids.hex(idCustomerSecret, customerSecretHexBytes)
	expires := s.Now().Add(s.secretTTL)
	s.mu.Lock()
	s.secrets.put(secret, customerSecret{clientID: c.clientID, email: req.EmailAddress, expires: expires})
	s.mu.Unlock()
	return http.StatusCreated, map[string]any{
		"secret": secret, "email_address": req.EmailAddress, "expires_at": expires.UTC(),
	}, nil
}
