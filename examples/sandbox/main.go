// Command sandbox serves the insurance sandbox on a port, so code in any language can
// point at it:
//
//	go run ./examples/sandbox -addr 127.0.0.1:8080
//
// It prints the base URL, the partner credentials, the auth scheme each endpoint
// takes, the sandbox's own controls (faults, the request log, the clock) and its
// process id, and serves until interrupted (Ctrl-C) or killed with that id. Pages on
// other origins may call the browser endpoints with -allow-origin (repeatable). With
// -seed N every id and secret it makes is drawn from N, so two runs that make the same
// calls in the same order see the same ids:
//
//	go run ./examples/sandbox -seed 42
//
// Seeded secrets are predictable: with -seed and an -addr other than loopback (":8080"
// listens on every interface) it prints a line starting "warning:" to standard error.
// Whoever can reach the port can send requests, pages a browser opens included (a form
// can post to it from any site): its request log keeps an entry for each, but no body
// of a request to an unknown route or without valid credentials, and 64 KiB of any
// other (see package insurancetest).
//
// Behaviour, controls and test values are documented in package insurancetest; the
// controls are described by api/sandbox.yaml, served at /sandbox/sandbox.yaml.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/partnerinsure/insurance-go/examples/internal/cli"
	"github.com/partnerinsure/insurance-go/examples/internal/connect"
	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

// about is the usage's account of the program, as in the package doc.
const about = `sandbox serves the insurance sandbox on a port, so code in any language can point
at it. It prints the settings to give that code (INSURANCE_BASE_URL,
INSURANCE_CLIENT_ID and INSURANCE_CLIENT_SECRET), the auth scheme each endpoint
takes, its own controls under /sandbox/ (faults, the request log, the clock) and its
process id, and serves until interrupted (Ctrl-C) or killed. Pages on other origins
may call the browser endpoints with -allow-origin; with -seed, ids and secrets
repeat from run to run. Behaviour, controls and test values are documented in
package insurancetest (go doc ./insurancetest); the controls in OpenAPI at
/sandbox/sandbox.yaml.`

func main() {
	cli.ExitOnError("sandbox", run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// options are what the command line sets.
type options struct {
	addr    string
	sandbox sandbox.Config
}

// parseFlags reads the command line into options. A new setting is a field and a
// flag here.
func parseFlags(args []string, out io.Writer) (*options, error) {
	var opts options
	flags := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	flags.StringVar(&opts.addr, "addr", "127.0.0.1:8080", "address to listen on")
	flags.StringVar(&opts.sandbox.ClientID, "client-id", "", "partner client id to accept (default: random)")
	flags.StringVar(&opts.sandbox.ClientSecret, "client-secret", "", "partner client secret to accept (default: random)")
	flags.DurationVar(&opts.sandbox.SecretTTL, "secret-ttl", sandbox.DefaultSecretTTL, "lifetime of customer secrets")
	flags.Func("allow-origin", "a web origin (e.g. http://127.0.0.1:8090) whose pages may call the browser endpoints; repeatable",
		func(origin string) error {
			if !strings.HasPrefix(origin, "http://") && !strings.HasPrefix(origin, "https://") {
				return fmt.Errorf("want an origin such as http://127.0.0.1:8090, not %q", origin)
			}
			opts.sandbox.AllowedOrigins = append(opts.sandbox.AllowedOrigins, origin)
			return nil
		})
	flags.Func("seed", "draw every id and secret from this integer, so runs repeat them (default: random)",
		func(v string) error {
			seed, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return fmt.Errorf("want an integer, not %q", v)
			}
			opts.sandbox.Seed = &seed
			return nil
		})
	if err := cli.Parse(flags, args, out, about); err != nil {
		return nil, err
	}
	return &opts, nil
}

// run serves the sandbox until ctx ends; the settings go to out, warnings to errOut.
func run(ctx context.Context, args []string, out, errOut io.Writer) error {
	opts, err := parseFlags(args, out)
	if err != nil {
		return err
	}
	sb := sandbox.New(opts.sandbox)
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return err
	}
	if opts.sandbox.Seed != nil && !connect.Loopback(ln.Addr()) {
		fmt.Fprintf(errOut, "warning: with -seed, the credentials and customer secrets repeat from run to run, "+
			"and %s is reachable from other machines: whoever knows or guesses the seed can call this sandbox "+
			"as its partners (listen on 127.0.0.1, or drop -seed)\n", ln.Addr())
	}
	srv := &http.Server{Handler: sb, ReadHeaderTimeout: 10 * time.Second}
	printStartup(out, sb, ln.Addr(), opts.sandbox)
	return connect.Serve(ctx, srv, ln)
}

// printStartup tells the user, one line each, where the sandbox listens, how to call
// it, and, last, how to stop it.
func printStartup(out io.Writer, sb *sandbox.Sandbox, addr net.Addr, cfg sandbox.Config) {
	fmt.Fprintf(out, "insurance sandbox listening\n")
	base := "http://" + reachable(addr)
	fmt.Fprintf(out, "INSURANCE_BASE_URL=%s\n", base)
	fmt.Fprintf(out, "INSURANCE_CLIENT_ID=%s\n", sb.ClientID())
	fmt.Fprintf(out, "INSURANCE_CLIENT_SECRET=%s\n", sb.ClientSecret())
	fmt.Fprintf(out, "test cards: %s ok, %s declined; tokens: %s ok, %s declined\n",
		sandbox.CardOK, sandbox.CardDeclined, sandbox.TokenOK, sandbox.TokenDeclined)
	fmt.Fprintln(out, "endpoints and the auth each takes:")
	for _, r := range sandbox.Routes() {
		fmt.Fprintf(out, "  %-5s %-26s %s\n", r.Method, r.Path, r.Auth)
	}
	fmt.Fprintf(out, "sandbox controls (Basic auth, any partner's): %s\n", strings.Join(sandbox.Controls(), ", "))
	fmt.Fprintf(out, "OpenAPI documents: %s%s (the interface), %s%s (the controls)\n",
		base, sandbox.OpenAPIPath, base, sandbox.SandboxDocumentPath)
	if len(cfg.AllowedOrigins) > 0 {
		fmt.Fprintf(out, "pages on %s may call the browser endpoints\n", strings.Join(cfg.AllowedOrigins, ", "))
	}
	if cfg.Seed != nil {
		fmt.Fprintf(out, "ids and secrets drawn from seed %d\n", *cfg.Seed)
	}
	// A user who started it with go run sees only the go command's process: this is
	// the server's own.
	pid := os.Getpid()
	fmt.Fprintf(out, "pid %d: stop with Ctrl-C or kill %d\n", pid, pid)
}

// reachable is the address to give clients: listening on every interface (-addr
// :8080), the sandbox is reached on localhost, which the SDK takes as loopback.
func reachable(addr net.Addr) string {
	if tcp, ok := addr.(*net.TCPAddr); ok && tcp.IP.IsUnspecified() {
		return net.JoinHostPort("localhost", strconv.Itoa(tcp.Port))
	}
	return addr.String()
}
