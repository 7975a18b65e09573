package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	newFlags := func() (*flag.FlagSet, *string) {
		flags := flag.NewFlagSet("demo", flag.ContinueOnError)
		return flags, flags.String("name", "Ada", "customer name")
	}
	const wantUsage = "Usage: go run ./examples/demo [flags]\n" +
		"\ndemo does a thing.\n" +
		"\nSecond paragraph.\n" +
		"\nFlags:\n" +
		"  -name string\n    \tcustomer name (default \"Ada\")\n" +
		"  -h, -help, --help\n    \tprint this help and exit\n"

	t.Run("flags", func(t *testing.T) {
		flags, name := newFlags()
		var out strings.Builder
		require.NoError(t, Parse(flags, []string{"-name", "Grace"}, &out, "demo does a thing."))
		assert.Equal(t, "Grace", *name)
		assert.Empty(t, out.String())
	})
	for _, args := range [][]string{{"-h"}, {"-help"}, {"--help"}, {"-name", "Grace", "-h"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			flags, _ := newFlags()
			var out strings.Builder
			err := Parse(flags, args, &out, "demo does a thing.\n", "Second paragraph.")
			assert.Same(t, ErrHelp, err)
			assert.Equal(t, wantUsage, out.String())
		})
	}
	for _, tc := range []struct {
		args    []string
		mistake string
	}{
		{[]string{"-nope"}, "flag provided but not defined: -nope"},
		{[]string{"-name"}, "flag needs an argument: -name"},
		{[]string{"-name", "Grace", "extra"}, `unexpected argument "extra": this program takes only flags`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			flags, _ := newFlags()
			var out strings.Builder
			err := Parse(flags, tc.args, &out, "demo does a thing.\n", "Second paragraph.")
			var usage *UsageError
			require.ErrorAs(t, err, &usage)
			assert.EqualError(t, err, tc.mistake)
			assert.Equal(t, wantUsage, usage.Usage)
			assert.Empty(t, out.String())
		})
	}
	t.Run("no flags", func(t *testing.T) {
		var out strings.Builder
		err := Parse(flag.NewFlagSet("bare", flag.ContinueOnError), []string{"--help"}, &out, "bare does a thing.")
		assert.Same(t, ErrHelp, err)
		assert.Equal(t, "Usage: go run ./examples/bare\n\nbare does a thing.\n\nFlags:\n  -h, -help, --help\n    \tprint this help and exit\n", out.String())
	})
}

func TestStatusAndReport(t *testing.T) {
	for _, tc := range []struct {
		err    error
		status int
		stderr string
	}{
		{nil, 0, ""},
		{ErrHelp, 0, ""},
		{fmt.Errorf("wrapped: %w", ErrHelp), 0, ""},
		{errors.New("it broke"), 1, "demo: it broke\n"},
		{&UsageError{Err: errors.New("bad flag"), Usage: "Usage: demo\n"}, 2, "demo: bad flag\n\nUsage: demo\n"},
	} {
		var stderr strings.Builder
		assert.Equal(t, tc.status, Status(tc.err), "%v", tc.err)
		assert.Equal(t, tc.status, report(&stderr, "demo", tc.err), "%v", tc.err)
		assert.Equal(t, tc.stderr, stderr.String(), "%v", tc.err)
	}
}

// fakeEnv, set, makes TestExitOnError run the fake program on the test binary's
// arguments after "--".
const fakeEnv = "CLI_TEST_FAKE_PROGRAM"

// fakeMain is the main of a small program built the way the examples are.
func fakeMain(args []string) {
	flags := flag.NewFlagSet("fake", flag.ContinueOnError)
	fail := flags.Bool("fail", false, "fail after parsing")
	err := Parse(flags, args, os.Stdout, "fake does nothing.")
	if err == nil {
		fmt.Println("ran")
		if *fail {
			err = errors.New("it broke")
		}
	}
	ExitOnError("fake", err)
}

// TestExitOnError checks real exit statuses and streams, in a child process running
// this test binary: no build needed.
func TestExitOnError(t *testing.T) {
	if os.Getenv(fakeEnv) == "1" {
		fakeMain(flag.Args())
		os.Exit(0) // main returned
	}
	for _, tc := range []struct {
		args           []string
		status         int
		stdout, stderr string // prefixes
	}{
		{nil, 0, "ran\n", ""},
		{[]string{"-h"}, 0, "Usage: go run ./examples/fake [flags]\n\nfake does nothing.\n", ""},
		{[]string{"--help"}, 0, "Usage: go run ./examples/fake [flags]\n", ""},
		{[]string{"-fail"}, 1, "ran\n", "fake: it broke\n"},
		{[]string{"-nope"}, 2, "", "fake: flag provided but not defined: -nope\n\nUsage: go run ./examples/fake [flags]\n"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			cmd := exec.Command(os.Args[0], append([]string{"-test.run=^TestExitOnError$", "--"}, tc.args...)...)
			cmd.Env = append(os.Environ(), fakeEnv+"=1", "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0") // no 1s wait at exit under -race
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			status := 0
			var exit *exec.ExitError
			if errors.As(err, &exit) {
				status = exit.ExitCode()
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tc.status, status, "stderr: %s", stderr.String())
			assert.True(t, strings.HasPrefix(stdout.String(), tc.stdout), "stdout: %q", stdout.String())
			if tc.stderr == "" {
				assert.Empty(t, stderr.String())
			} else {
				assert.True(t, strings.HasPrefix(stderr.String(), tc.stderr), "stderr: %q", stderr.String())
			}
			if tc.stdout == "" {
				assert.Empty(t, stdout.String())
			}
		})
	}
}
