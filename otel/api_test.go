package insuranceotel_test

import (
	"os"
	"testing"

	"github.com/partnerinsure/insurance-go/internal/apirecord"
)

// TestAPIKeepsEveryRecordedName fails, naming the name, when a name of this package
// recorded in the core's api/v1/otel.txt is gone or its type changed: code written
// against v1 must still compile (RELEASING.md, "The compatibility promise"). Additions
// are free. go test -run TestAPI -args -record writes the record.
func TestAPIKeepsEveryRecordedName(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("../go.mod"); err != nil {
		// A copy of this module outside the repository (the module cache): the record
		// is in the repository's core module, beside which this one is developed.
		t.Skip("the API record is in ../api/v1, outside this copy of the module")
	}
	apirecord.Check(t, ".", "1.0.0",
		apirecord.Record{Package: "github.com/partnerinsure/insurance-go/otel", File: "../api/v1/otel.txt"},
	)
}
