package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/examples/internal/cli/clitest"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// serve runs the program as `go run` would with args, until the test ends, and
// returns the URL it prints and a function that stops it.
func serve(t *testing.T, errOut io.Writer, args ...string) (url string, stop func()) {
	t.Helper()
	t.Setenv(insurance.EnvBaseURL, "")
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, pw, errOut)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	for url == "" && lines.Scan() {
		if rest, ok := strings.CutPrefix(lines.Text(), "Checkout on "); ok {
			url, _, _ = strings.Cut(rest, " ")
		}
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	require.NotEmpty(t, url)
	return url, func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(5 * time.Second):
			t.Fatal("the checkout did not stop")
		}
	}
}

// TestRunServesTheCheckout runs the program as `go run` would, on a free port, and
// signs in on the page it prints.
func TestRunServesTheCheckout(t *testing.T) {
	var stderr wiretest.Buffer
	url, stop := serve(t, &stderr, "-addr", "127.0.0.1:0")
	resp, page := signIn(t, browser(t), strings.TrimSuffix(url, "/"), "ada@example.com")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, page, "Gap-medical cover for ada@example.com")
	stop()
	assert.Empty(t, stderr.String(), "on loopback, no warning")
}

// TestRunWarnsBeyondLoopback: on an address other machines reach, anyone could have
// secrets minted with the partner's credentials: the program says so on stderr.
func TestRunWarnsBeyondLoopback(t *testing.T) {
	var stderr wiretest.Buffer
	_, stop := serve(t, &stderr, "-addr", ":0")
	stop()
	assert.True(t, strings.HasPrefix(stderr.String(), "warning: "), stderr.String())
	assert.Contains(t, stderr.String(), "customer secret")
}

// TestHelp: -h, -help and --help print the usage and exit 0; a mistake exits 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, "gap-medical-checkout", func(args []string, out io.Writer) error {
		return run(t.Context(), args, out, io.Discard)
	}, "gap-medical-checkout is a small partner web app", "-component-url string", "INSURANCE_BASE_URL", "INSURANCE_CLIENT_ID", "INSURANCE_CLIENT_SECRET")
}
