package main

import (
	"io"
	"testing"

	"github.com/partnerinsure/insurance-go/examples/internal/cli/clitest"
)

// TestHelp: -h, -help and --help print the usage and exit 0; a mistake exits 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, "mocking", func(args []string, out io.Writer) error {
		return run(t.Context(), args, out)
	}, "mocking runs CoverSeller", "coverseller_test.go")
}
