package contracttest_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTheSDKsModuleDoesNotNeedIt keeps kin-openapi out of partners' builds and go.sum:
// no package of the SDK's module, its tests included, depends on kin-openapi or on
// this package, so the SDK's go.mod need not list the validator.
// scripts/partner-gosum.sh checks the go.sum a partner gets.
func TestTheSDKsModuleDoesNotNeedIt(t *testing.T) {
	const self = "github.com/partnerinsure/insurance-go/contract"
	cmd := exec.Command("go", "list", "-deps", "-test", "./...")
	cmd.Dir = "../../.." // the SDK's module, beside which contract/ is nested
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list in the SDK's module: %v", err)
	}
	listed := 0
	for pkg := range strings.FieldsSeq(string(out)) {
		listed++
		if strings.HasPrefix(pkg, self) || strings.HasPrefix(pkg, "github.com/getkin/kin-openapi") {
			t.Errorf("the SDK's module depends on %s: only contract/ may", pkg)
		}
	}
	if listed < 3 {
		t.Fatalf("go list listed %d packages, not the SDK's module's:\n%s", listed, out)
	}
}
