// Package cli reads the example programs' command lines, so that all of them behave
// the same way:
//
//   - -h, -help and --help print the program's usage on standard output and exit
//     with status 0;
//   - an unknown flag, a bad flag value or an argument the program does not take
//     prints the mistake and the usage on standard error and exits with status 2;
//   - any other failure prints "name: error" on standard error and exits with
//     status 1.
//
// A program parses its flags with Parse inside its testable run function, and its
// main hands run's result to ExitOnError.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// ErrHelp is what Parse returns once it has printed the usage the user asked for:
// the program stops there and exits with status 0. It is flag.ErrHelp.
var ErrHelp = flag.ErrHelp

// UsageError is a mistake on the command line: an unknown flag, a bad flag value, or
// an argument the program does not take. The program exits with status 2.
type UsageError struct {
	Err   error  // what is wrong
	Usage string // the program's usage, printed after Err
}

// Error says what is wrong, without the usage.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns what is wrong.
func (e *UsageError) Unwrap() error { return e.Err }

// Parse parses args, the command line without the program name, into flags. flags
// must use flag.ContinueOnError and be named after the program's directory under
// examples/; it may define no flag at all. about are the paragraphs of the usage
// that follow the "Usage:" line: what the program does (its package doc in a
// sentence or two), then, for example, connect.Help.
//
// When args ask for help, Parse writes the usage to out and returns ErrHelp. When
// they are wrong, or hold arguments other than flags, it returns a *UsageError and
// writes nothing. Parse replaces the output and Usage function of flags.
func Parse(flags *flag.FlagSet, args []string, out io.Writer, about ...string) error {
	if flags.ErrorHandling() != flag.ContinueOnError {
		panic("cli.Parse: flag set " + flags.Name() + " must use flag.ContinueOnError")
	}
	text := usageText(flags, about...)
	flags.SetOutput(io.Discard) // the usage is printed here or by ExitOnError
	flags.Usage = func() {}
	err := flags.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		if _, err := io.WriteString(out, text); err != nil {
			return err
		}
		return ErrHelp
	case err != nil:
		return &UsageError{Err: err, Usage: text}
	case flags.NArg() > 0:
		return &UsageError{Err: fmt.Errorf("unexpected argument %q: this program takes only flags", flags.Arg(0)), Usage: text}
	}
	return nil
}

// usageText is the usage Parse prints for flags: how to run the program, the about
// paragraphs, then the flags and their defaults.
func usageText(flags *flag.FlagSet, about ...string) string {
	var b strings.Builder
	hasFlags := false
	flags.VisitAll(func(*flag.Flag) { hasFlags = true })
	fmt.Fprintf(&b, "Usage: go run ./examples/%s", flags.Name())
	if hasFlags {
		b.WriteString(" [flags]")
	}
	b.WriteString("\n")
	for _, p := range about {
		fmt.Fprintf(&b, "\n%s\n", strings.TrimRight(p, "\n"))
	}
	b.WriteString("\nFlags:\n")
	output := flags.Output()
	flags.SetOutput(&b)
	flags.PrintDefaults()
	flags.SetOutput(output)
	b.WriteString("  -h, -help, --help\n    \tprint this help and exit\n")
	return b.String()
}

// Status is the exit status for the outcome of a program's run: 0 for success and
// ErrHelp, 2 for a *UsageError, 1 for any other error.
func Status(err error) int {
	var usage *UsageError
	switch {
	case err == nil, errors.Is(err, ErrHelp):
		return 0
	case errors.As(err, &usage):
		return 2
	default:
		return 1
	}
}

// ExitOnError ends the program named name when err, the outcome of its run, is a
// failure: it prints "name: err" on standard error, followed by the usage for a
// *UsageError, and exits with Status(err). On success and ErrHelp it returns, so that
// main returns, its deferred calls run, and the program exits with status 0.
func ExitOnError(name string, err error) {
	if status := report(os.Stderr, name, err); status != 0 {
		os.Exit(status)
	}
}

// report is ExitOnError without the exit: it writes to stderr what ExitOnError
// prints, and returns the exit status.
func report(stderr io.Writer, name string, err error) int {
	status := Status(err)
	if status == 0 {
		return 0
	}
	fmt.Fprintf(stderr, "%s: %v\n", name, err)
	var usage *UsageError
	if errors.As(err, &usage) {
		fmt.Fprintf(stderr, "\n%s", usage.Usage)
	}
	return status
}
