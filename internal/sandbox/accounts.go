package sandbox

import "net/http"

// Partners the sandbox accepts: each has credentials of its own, and its quotes,
// customer secrets and policies are its own. Another partner's quote_id is an
// unknown quote (400); a customer secret buys only quotes of the partner that minted
// it (403).

// account is one partner's credentials.
type account struct {
	clientID, clientSecret string
}

// newAccount draws fresh credentials.
func (s *Sandbox) newAccount() account {
	return account{
		clientID:     "ci_sandbox_" + s.ids.hex(idCredentials, 8),
		clientSecret: "cs_sandbox_" + s.ids.hex(idCredentials, 16),
	}
}

// AddPartner makes one more partner the sandbox accepts, with fresh credentials.
// Reset does not forget it.
func (s *Sandbox) AddPartner() (clientID, clientSecret string) {
	a := s.newAccount()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.accounts = append(s.accounts, a)
	return a.clientID, a.clientSecret
}

// knownClientID reports whether id is a partner's client id. The caller holds s.mu.
func (s *Sandbox) knownClientID(id string) bool {
	known := false
	for _, a := range s.accounts { // every one, in constant time each
		known = equal(id, a.clientID) || known
	}
	return known && id != ""
}

// partnerOf returns the client id of the partner whose Basic credentials r carries.
func (s *Sandbox) partnerOf(r *http.Request) (string, bool) {
	id, secret, ok := r.BasicAuth()
	if !ok {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	found := ""
	for _, a := range s.accounts {
		if equal(id, a.clientID) && equal(secret, a.clientSecret) {
			found = a.clientID
		}
	}
	return found, found != ""
}
