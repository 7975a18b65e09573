package main

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/partnerinsure/insurance-go"
)

// The partner's own record of its purchases. The interface has no read of a policy:
// when a purchase call fails after the request may have reached the insurer
// (insurance.ErrOutcomeUnknown), only the partner's own record says what was being
// bought, and Reconcile settles it later. docs/outcome-unknown.md explains the
// pattern.

// PurchaseState is where one purchase stands in the partner's records.
type PurchaseState string

// The states of a purchase. Sending is written before the insurer is called; the
// answer moves it to Bought or Failed, or to Unknown when there was no telling
// answer. Reconcile moves Unknown (and Sending left behind by a crash) on.
const (
	Sending          PurchaseState = "sending"
	Bought           PurchaseState = "bought"
	Failed           PurchaseState = "failed" // nothing was bought: the customer may try again
	Unknown          PurchaseState = "unknown"
	CheckWithInsurer PurchaseState = "check-with-insurer" // the interface cannot tell: a person asks the insurer
)

// Products the service sells, as the insurer names them.
const (
	ProductTuition    = "tuition"
	ProductGapMedical = "gap-medical"
)

// Purchase is the record of one purchase of one quote.
type Purchase struct {
	QuoteID string
	Product string
	// CustomerEmail and CoverageStart are what a gap-medical quote was made with, so
	// that Reconcile can send the quote again.
	CustomerEmail string
	CoverageStart insurance.Date
	State         PurchaseState
	// PolicyID is the policy bought; empty when Reconcile learned that the purchase
	// went through but not the policy's id (the insurer has it).
	PolicyID  string
	UpdatedAt time.Time
}

// PurchaseLog keeps the purchases. In production it is a table in the partner's
// database keyed by quote id; Begin is one conditional insert, so that two requests to
// buy one quote cannot both reach the insurer.
type PurchaseLog interface {
	// Begin records p, in state Sending, unless its quote already has a purchase
	// that did not fail; then it returns that purchase and false.
	Begin(ctx context.Context, p Purchase) (existing Purchase, begun bool, err error)
	// Update saves p's new state.
	Update(ctx context.Context, p Purchase) error
	// Open returns the purchases in state Sending or Unknown last updated before
	// cutoff, oldest first.
	Open(ctx context.Context, cutoff time.Time) ([]Purchase, error)
}

// MemoryLog is a PurchaseLog in memory, for this example and its tests.
type MemoryLog struct {
	mu        sync.Mutex
	purchases map[string]Purchase // by quote id
}

// NewMemoryLog returns an empty MemoryLog.
func NewMemoryLog() *MemoryLog { return &MemoryLog{purchases: map[string]Purchase{}} }

// Begin implements PurchaseLog.
func (l *MemoryLog) Begin(_ context.Context, p Purchase) (Purchase, bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if existing, ok := l.purchases[p.QuoteID]; ok && existing.State != Failed {
		return existing, false, nil
	}
	p.State, p.UpdatedAt = Sending, time.Now()
	l.purchases[p.QuoteID] = p
	return p, true, nil
}

// Update implements PurchaseLog.
func (l *MemoryLog) Update(_ context.Context, p Purchase) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	p.UpdatedAt = time.Now()
	l.purchases[p.QuoteID] = p
	return nil
}

// Open implements PurchaseLog.
func (l *MemoryLog) Open(_ context.Context, cutoff time.Time) ([]Purchase, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var open []Purchase
	for _, p := range l.purchases {
		if (p.State == Sending || p.State == Unknown) && p.UpdatedAt.Before(cutoff) {
			open = append(open, p)
		}
	}
	slices.SortFunc(open, func(a, b Purchase) int { return a.UpdatedAt.Compare(b.UpdatedAt) })
	return open, nil
}

// Get returns the purchase of a quote, for tests and reports.
func (l *MemoryLog) Get(quoteID string) (Purchase, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	p, ok := l.purchases[quoteID]
	return p, ok
}
