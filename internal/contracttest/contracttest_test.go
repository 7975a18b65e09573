package contracttest_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoShippedPackageImportsIt keeps kin-openapi out of partners' builds: no package
// of the module but this one depends on kin-openapi or on this package, so only
// _test.go files reach them.
func TestNoShippedPackageImportsIt(t *testing.T) {
	const self = "github.com/partnerinsure/insurance-go/internal/contracttest"
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "./...")
	cmd.Dir = "../.." // the module's root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	listed := 0
	for line := range strings.Lines(string(out)) {
		pkg, deps, _ := strings.Cut(strings.TrimSpace(line), " ")
		listed++
		if pkg == self {
			continue
		}
		for dep := range strings.FieldsSeq(deps) {
			if dep == self || strings.HasPrefix(dep, "github.com/getkin/kin-openapi") {
				t.Errorf("%s depends on %s: only _test.go files may", pkg, dep)
			}
		}
	}
	if listed < 3 {
		t.Fatalf("go list listed %d packages, not the module's:\n%s", listed, out)
	}
}
