package main

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/examples/internal/cli/clitest"
)

// TestServesTheSandbox starts the command on a free port, reads the printed settings
// and calls it with a client built from them, as another program would.
func TestServesTheSandbox(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-addr", "127.0.0.1:0", "-client-id", "ci_demo"}, pw)
		pw.Close()
	}()

	env := map[string]string{}
	lines := bufio.NewScanner(pr)
	for lines.Scan() {
		if k, v, ok := strings.Cut(lines.Text(), "="); ok {
			env[k] = v
		}
		if strings.HasPrefix(lines.Text(), "test cards") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	assert.Equal(t, "ci_demo", env[insurance.EnvClientID])
	assert.NotEmpty(t, env[insurance.EnvClientSecret])

	client, err := insurance.NewClient(env[insurance.EnvBaseURL],
		insurance.WithCredentials(env[insurance.EnvClientID], env[insurance.EnvClientSecret]))
	require.NoError(t, err)
	products, err := client.ListProducts(ctx)
	require.NoError(t, err)
	assert.Len(t, products.Products, 3)

	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("the sandbox did not stop")
	}
}

// TestHelp: -h, -help and --help print the usage and exit 0, without listening; a
// mistake exits 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, "sandbox", func(args []string, out io.Writer) error {
		return run(t.Context(), args, out)
	}, "sandbox serves the insurance sandbox on a port", "-client-id string", "INSURANCE_BASE_URL")
}
