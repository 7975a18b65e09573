// Command gap-medical-checkout is a small partner web app that runs the interface's
// client-side purchase flow in a real browser. The partner backend (this program)
// mints a customer client secret with its Basic credentials for the signed-in
// customer's email, and renders a checkout page carrying only the client id, that
// email, a coverage start date and the short-lived secret: never the partner's client
// secret. In the browser, the client-side component quotes with the x-api-client-id
// header and turns the card into a payment token, and the page buys with
// "Authorization: Bearer <customer secret>".
//
// The customer secret is minted only when the sign-in form is posted with the CSRF
// token the form was served with (csrf.go): never on a GET, which a link or an image
// on any site can send. Every page is sent with a Content-Security-Policy that runs
// scripts only from the component's origin and the page's own script (by a nonce
// drawn per answer), and forbids framing the pages (guard.go).
//
// Run it, then open the printed URL:
//
//	go run ./examples/gap-medical-checkout
//
// With no configuration it uses the in-process sandbox and its stand-in component.
// It listens on 127.0.0.1: anyone who reaches it can sign in with any email and have
// a secret minted with the partner's credentials, so on any other address (-addr
// :8090) it prints a line starting "warning:" to standard error. A real app puts its
// own sign-in, and TLS, in front.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/examples/internal/cli"
	"github.com/partnerinsure/insurance-go/examples/internal/connect"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// about is the usage's account of the program, as in the package doc.
const about = `gap-medical-checkout is a small partner web app that runs the interface's
client-side purchase flow in a real browser: open the URL it prints. The page gets
a short-lived customer secret, never the partner's client secret.`

func main() {
	cli.ExitOnError("gap-medical-checkout", run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

// run serves the checkout until ctx ends; what to open goes to out, warnings to errOut.
func run(ctx context.Context, args []string, out, errOut io.Writer) error {
	flags := flag.NewFlagSet("gap-medical-checkout", flag.ContinueOnError)
	addr := flags.String("addr", "127.0.0.1:8090", "address to serve the checkout on")
	secretTTL := flags.Duration("secret-ttl", 15*time.Minute, "sandbox only: lifetime of customer secrets")
	componentURL := flags.String("component-url", "", "address of the insurer's client-side component (default: the sandbox stand-in)")
	if err := cli.Parse(flags, args, out, about, connect.Help); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close() // on the early returns; Serve closes it too
	if !connect.Loopback(ln.Addr()) {
		fmt.Fprintf(errOut, "warning: the checkout listens on %s, which other machines can reach: whoever reaches it "+
			"can sign in with any email and have a customer secret minted with your partner credentials "+
			"(put your own sign-in and TLS in front, or listen on 127.0.0.1)\n", ln.Addr())
	}
	origin := "http://" + ln.Addr().String()

	env, closeEnv, err := connect.Open(out, insurancetest.WithAllowedOrigins(origin), insurancetest.WithSecretTTL(*secretTTL))
	if err != nil {
		return err
	}
	defer closeEnv()
	app := &checkout{backend: env.Backend, apiBase: env.Backend.BaseURL(), componentURL: *componentURL}
	if env.Sandbox != nil {
		app.clientID = env.Sandbox.ClientID
		app.componentURL = env.Sandbox.ComponentURL()
	} else {
		app.clientID = os.Getenv(insurance.EnvClientID)
		if app.componentURL == "" {
			return errors.New("pass -component-url: the address of the insurer's client-side component")
		}
	}

	srv := &http.Server{Handler: app.routes(), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(out, "Checkout on %s/ (open it in your browser; Ctrl-C to stop)\n", origin)
	return connect.Serve(ctx, srv, ln)
}
