package main

import (
	"context"
	"fmt"
	"sync"

	"github.com/partnerinsure/insurance-go"
)

// CredentialLookup finds an agency's client id and secret, in the platform's own
// secret store.
type CredentialLookup func(ctx context.Context, agencyID string) (clientID, clientSecret string, err error)

// AgencyClients hands out one *insurance.Client per agency a platform sells for,
// made on first use with the agency's own credentials and derived with With from one
// base Client: all of them share its connection pools and its retry budget, so a
// thousand agencies cost one pool, and an outage is not retried a thousand times
// over. It is safe for concurrent use.
type AgencyClients struct {
	base   *insurance.Client
	lookup CredentialLookup

	mu      sync.Mutex
	clients map[string]*insurance.Client
}

// NewAgencyClients returns an empty cache over base, whose settings (retries,
// observers, logger) every agency's client inherits.
func NewAgencyClients(base *insurance.Client, lookup CredentialLookup) *AgencyClients {
	return &AgencyClients{base: base, lookup: lookup, clients: map[string]*insurance.Client{}}
}

// For returns the client of an agency, deriving it on first use. An agency whose
// credentials are not set up yet is an error matching insurance.ErrMissingCredentials.
func (a *AgencyClients) For(ctx context.Context, agencyID string) (*insurance.Client, error) {
	a.mu.Lock()
	c, ok := a.clients[agencyID]
	a.mu.Unlock()
	if ok {
		return c, nil
	}
	id, secret, err := a.lookup(ctx, agencyID)
	if err != nil {
		return nil, fmt.Errorf("agency %s: %w", agencyID, err)
	}
	c, err = a.base.With(insurance.WithCredentials(id, secret))
	if err != nil {
		return nil, fmt.Errorf("agency %s: %w", agencyID, err)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if cached, ok := a.clients[agencyID]; ok {
		return cached, nil // another goroutine derived it meanwhile
	}
	a.clients[agencyID] = c
	return c, nil
}

// Forget drops an agency's client, after its credentials were rotated or revoked:
// the next For derives a new one. Deriving costs no connection, so forgetting is
// cheap.
func (a *AgencyClients) Forget(agencyID string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.clients, agencyID)
}
