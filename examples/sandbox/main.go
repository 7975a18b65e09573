// Command sandbox serves the insurance sandbox on a port, so code in any language can
// point at it:
//
//	go run ./examples/sandbox -addr 127.0.0.1:8080
//
// It prints the base URL and the partner credentials, and serves until interrupted.
// Behaviour and test values are documented in package insurancetest.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/partnerinsure/insurance-go/examples/internal/connect"
	"github.com/partnerinsure/insurance-go/internal/sandbox"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sandbox:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, out io.Writer) error {
	flags := flag.NewFlagSet("sandbox", flag.ContinueOnError)
	addr := flags.String("addr", "127.0.0.1:8080", "address to listen on")
	clientID := flags.String("client-id", "", "partner client id to accept (default: random)")
	clientSecret := flags.String("client-secret", "", "partner client secret to accept (default: random)")
	secretTTL := flags.Duration("secret-ttl", sandbox.DefaultSecretTTL, "lifetime of customer secrets")
	if err := flags.Parse(args); err != nil {
		return err
	}

	sb := sandbox.New(sandbox.Config{ClientID: *clientID, ClientSecret: *clientSecret, SecretTTL: *secretTTL})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: sb, ReadHeaderTimeout: 10 * time.Second}

	fmt.Fprintf(out, "insurance sandbox listening\n")
	fmt.Fprintf(out, "INSURANCE_BASE_URL=http://%s\n", ln.Addr())
	fmt.Fprintf(out, "INSURANCE_CLIENT_ID=%s\n", sb.ClientID())
	fmt.Fprintf(out, "INSURANCE_CLIENT_SECRET=%s\n", sb.ClientSecret())
	fmt.Fprintf(out, "test cards: %s ok, %s declined; tokens: %s ok, %s declined\n",
		sandbox.CardOK, sandbox.CardDeclined, sandbox.TokenOK, sandbox.TokenDeclined)

	return connect.Serve(ctx, srv, ln)
}
