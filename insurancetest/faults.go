package insurancetest

import (
	"fmt"
	"net/http"
	"time"

	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

// Fault makes requests of one route fail as networks and proxies make them fail. Give
// it to Inject.
type Fault struct {
	// Times is how many matching requests it applies to, from the next one; 0: every
	// one until Reset.
	Times int
	// Process has the sandbox handle the request first (the record is created), then
	// the fault applies: the caller sees a failure for a purchase that went through.
	Process bool
	// Status answers this status, with Body and Header, instead of the real answer.
	Status int
	Body   string
	Header http.Header
	// Delay waits this long before answering; a caller that gives up meanwhile gets
	// no answer (and, without Process, nothing is handled).
	Delay time.Duration
	// Drop closes the connection without an answer.
	Drop bool
}

// Inject makes the next requests of route ("METHOD /path", one of the interface's,
// e.g. "POST /v1/purchase/tuition") fail as f says, after any fault already injected
// for that route. It panics on a route that is not the interface's or on a fault
// that makes no sense (a Drop with a Status, say): a mistake in the test itself.
func (s *Server) Inject(route string, f Fault) {
	if err := s.sandbox.Inject(route, sandbox.Fault(f)); err != nil {
		panic(fmt.Sprintf("insurancetest: Inject: %v", err))
	}
}
