package insurance_test

import (
	"testing"

	"github.com/partnerinsure/insurance-go/internal/apirecord"
)

// TestAPIKeepsEveryRecordedName fails, naming the name, when a name of insurance or
// insurancetest recorded in api/v1 is gone or its type changed: code written against
// v1 must still compile (RELEASING.md, "The compatibility promise"). Additions are free.
// go test -run TestAPI -args -record writes the records.
func TestAPIKeepsEveryRecordedName(t *testing.T) {
	t.Parallel()
	apirecord.Check(t, ".", "1.0.0",
		apirecord.Record{Package: "github.com/partnerinsure/insurance-go", File: "api/v1/insurance.txt"},
		apirecord.Record{Package: "github.com/partnerinsure/insurance-go/insurancetest", File: "api/v1/insurancetest.txt"},
	)
}
