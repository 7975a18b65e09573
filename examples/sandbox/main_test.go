package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/examples/internal/cli/clitest"
)

// start runs the command with args until the test ends, and returns the lines it
// prints at start-up, up to the pid line, and a function that interrupts it and
// returns its outcome.
func start(t *testing.T, args ...string) (startup []string, stop func() error) {
	t.Helper()
	return startTo(t, io.Discard, args...)
}

// startTo is start with the command's standard error going to errOut.
func startTo(t *testing.T, errOut io.Writer, args ...string) (startup []string, stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, pw, errOut)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	for lines.Scan() {
		startup = append(startup, lines.Text())
		if strings.HasPrefix(lines.Text(), "pid ") {
			break
		}
	}
	if len(startup) == 0 || !strings.HasPrefix(startup[len(startup)-1], "pid ") {
		t.Fatalf("the sandbox stopped before it listened: %v\n%s", <-done, strings.Join(startup, "\n"))
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	return startup, func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(5 * time.Second):
			t.Fatal("the sandbox did not stop")
			return nil
		}
	}
}

// TestServesTheSandbox starts the command on a free port, reads the printed settings
// and calls it with a client built from them, as another program would.
func TestServesTheSandbox(t *testing.T) {
	startup, stop := start(t, "-addr", "127.0.0.1:0", "-client-id", "ci_demo")
	env := map[string]string{}
	for _, line := range startup {
		if k, v, ok := strings.Cut(line, "="); ok {
			env[k] = v
		}
	}
	assert.Equal(t, "ci_demo", env[insurance.EnvClientID])
	assert.NotEmpty(t, env[insurance.EnvClientSecret])

	client, err := insurance.NewClient(env[insurance.EnvBaseURL],
		insurance.WithCredentials(env[insurance.EnvClientID], env[insurance.EnvClientSecret]))
	require.NoError(t, err)
	products, err := client.ListProducts(t.Context())
	require.NoError(t, err)
	assert.Len(t, products.Products, 3)

	assert.NoError(t, stop())
}

// TestPrintsItsPid: a user who started the sandbox with go run learns which process to
// stop, last, once it listens.
func TestPrintsItsPid(t *testing.T) {
	startup, stop := start(t, "-addr", "127.0.0.1:0")
	require.NotEmpty(t, startup)
	pid := os.Getpid() // run runs in the test's process
	assert.Equal(t, fmt.Sprintf("pid %d: stop with Ctrl-C or kill %d", pid, pid), startup[len(startup)-1])
	assert.NoError(t, stop())
}

// TestHelp: -h, -help and --help print the usage and exit 0, without listening; a
// mistake exits 2.
func TestHelp(t *testing.T) {
	clitest.CheckHelp(t, "sandbox", func(args []string, out io.Writer) error {
		return run(t.Context(), args, out, io.Discard)
	}, "sandbox serves the insurance sandbox on a port", "process id", "-client-id string", "INSURANCE_BASE_URL")
}

// TestAllowOriginAndAuthTable: -allow-origin (repeatable) lets pages on those origins
// call the browser endpoints, and the start-up lines say which auth each endpoint
// takes.
func TestAllowOriginAndAuthTable(t *testing.T) {
	startup, stop := start(t, "-addr", "127.0.0.1:0",
		"-allow-origin", "http://127.0.0.1:8090", "-allow-origin", "http://localhost:3000")
	text := strings.Join(startup, "\n")
	assert.Contains(t, text, "POST  /v1/purchase/gap-medical   Bearer customer secret only")
	assert.Contains(t, text, "POST  /v1/quote/travel           Basic, or the x-api-client-id header")
	assert.Contains(t, text, "POST /sandbox/faults")
	assert.Contains(t, text, "pages on http://127.0.0.1:8090, http://localhost:3000 may call the browser endpoints")

	var base string
	for _, line := range startup {
		if v, ok := strings.CutPrefix(line, insurance.EnvBaseURL+"="); ok {
			base = v
		}
	}
	for origin, allowed := range map[string]bool{
		"http://127.0.0.1:8090": true, "http://localhost:3000": true, "http://evil.example": false,
	} {
		req, err := http.NewRequest(http.MethodOptions, base+"/v1/quote/travel", nil)
		require.NoError(t, err)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, allowed, resp.Header.Get("Access-Control-Allow-Origin") == origin, origin)
	}
	assert.NoError(t, stop())
}

func TestAllowOriginRefusesWhatIsNotAnOrigin(t *testing.T) {
	err := run(t.Context(), []string{"-allow-origin", "127.0.0.1:8090"}, io.Discard, io.Discard)
	assert.ErrorContains(t, err, "want an origin such as http://127.0.0.1:8090")
}

// Listening on every interface, the sandbox prints a base URL the SDK accepts.
func TestAllInterfacesPrintLocalhost(t *testing.T) {
	startup, stop := start(t, "-addr", ":0")
	var base string
	for _, line := range startup {
		if v, ok := strings.CutPrefix(line, insurance.EnvBaseURL+"="); ok {
			base = v
		}
	}
	assert.True(t, strings.HasPrefix(base, "http://localhost:"), base)
	_, err := insurance.NewClient(base)
	assert.NoError(t, err)
	assert.NoError(t, stop())
}

// settings reads the NAME=value lines of the start-up.
func settings(startup []string) map[string]string {
	env := map[string]string{}
	for _, line := range startup {
		if k, v, ok := strings.Cut(line, "="); ok {
			env[k] = v
		}
	}
	return env
}

// TestSeedRepeatsIDs: two runs with one -seed print the same credentials and answer
// the same calls with the same ids; the controls add partners with seeded
// credentials too.
func TestSeedRepeatsIDs(t *testing.T) {
	runOnce := func(seed string) []string {
		startup, stop := start(t, "-addr", "127.0.0.1:0", "-seed", seed)
		assert.Contains(t, startup, "ids and secrets drawn from seed "+seed)
		env := settings(startup)
		client, err := insurance.NewClient(env[insurance.EnvBaseURL],
			insurance.WithCredentials(env[insurance.EnvClientID], env[insurance.EnvClientSecret]))
		require.NoError(t, err)
		quote, err := client.QuoteTravel(t.Context(), &insurance.TravelQuoteRequest{
			Customer: insurance.Customer{EmailAddress: "ada@example.com"},
			PolicyAttributes: insurance.TravelPolicyAttributes{
				TripCost: 1000, TripStartDate: insurance.NewDate(2027, time.March, 1), TripEndDate: insurance.NewDate(2027, time.March, 3),
			},
		})
		require.NoError(t, err)

		req, err := http.NewRequest(http.MethodPost, env[insurance.EnvBaseURL]+"/sandbox/credentials", nil)
		require.NoError(t, err)
		req.SetBasicAuth(env[insurance.EnvClientID], env[insurance.EnvClientSecret])
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		added, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, resp.StatusCode, "%s", added)

		require.NoError(t, stop())
		return []string{env[insurance.EnvClientID], env[insurance.EnvClientSecret], quote.QuoteID, string(added)}
	}
	first := runOnce("42")
	assert.Equal(t, first, runOnce("42"))
	other := runOnce("43")
	for i := range first {
		assert.NotEqual(t, first[i], other[i])
	}
}

func TestSeedRefusesWhatIsNotAnInteger(t *testing.T) {
	err := run(t.Context(), []string{"-seed", "forty-two"}, io.Discard, io.Discard)
	assert.ErrorContains(t, err, `want an integer, not "forty-two"`)
}
