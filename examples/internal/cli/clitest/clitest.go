// Package clitest checks, from an example program's tests, that the program reads its
// command line as package cli promises.
package clitest

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go/examples/internal/cli"
)

// Run is a program's run function with its context bound: it parses args and writes
// its output to out.
type Run func(args []string, out io.Writer) error

// CheckHelp checks that run, the run function of the program in examples/name,
// answers -h, -help and --help by writing its usage, which contains each of want, and
// an outcome that exits with status 0; and answers an unknown flag or a stray
// argument with a *cli.UsageError carrying the usage, exit status 2, having written
// nothing.
func CheckHelp(t *testing.T, name string, run Run, want ...string) {
	t.Helper()
	usageLine := "Usage: go run ./examples/" + name
	for _, tc := range []struct {
		args     []string
		status   int
		mistake  string // in the error, for a usage error
		helpFlag bool
	}{
		{args: []string{"-h"}, helpFlag: true},
		{args: []string{"-help"}, helpFlag: true},
		{args: []string{"--help"}, helpFlag: true},
		{args: []string{"-no-such-flag"}, status: 2, mistake: "flag provided but not defined: -no-such-flag"},
		{args: []string{"--no-such-flag=1"}, status: 2, mistake: "flag provided but not defined: -no-such-flag"},
		{args: []string{"stray"}, status: 2, mistake: `unexpected argument "stray"`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out strings.Builder
			err := run(tc.args, &out)
			assert.Equal(t, tc.status, cli.Status(err), "exit status for %v", err)
			if tc.helpFlag {
				assert.ErrorIs(t, err, cli.ErrHelp)
				assert.True(t, strings.HasPrefix(out.String(), usageLine), "the usage comes first:\n%s", out.String())
				assert.Contains(t, out.String(), "-h, -help, --help")
				for _, w := range want {
					assert.Contains(t, out.String(), w)
				}
				return
			}
			var usage *cli.UsageError
			require.True(t, errors.As(err, &usage), "want a *cli.UsageError, got %v", err)
			assert.ErrorContains(t, err, tc.mistake)
			assert.True(t, strings.HasPrefix(usage.Usage, usageLine), "the error carries the usage:\n%s", usage.Usage)
			assert.Empty(t, out.String(), "a mistake is reported on standard error, not out")
		})
	}
}
