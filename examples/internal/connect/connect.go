// Package connect gives the example programs their clients: the service named by
// INSURANCE_BASE_URL (with INSURANCE_CLIENT_ID and INSURANCE_CLIENT_SECRET), or, when
// it is unset, an in-process sandbox so that every example runs with no configuration.
package connect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// Help says, in a program's usage, what Open connects to and how to point the
// program at a real service.
const Help = `With no configuration it runs against an in-process sandbox. To run it against a
real service, set:
  ` + insurance.EnvBaseURL + `       the service's base URL
  ` + insurance.EnvClientID + `      your partner client id
  ` + insurance.EnvClientSecret + `  your partner client secret`

// Env is what an example talks to.
type Env struct {
	// Backend holds the full partner credentials: it runs on the partner's server.
	Backend *insurance.Client
	// Browser holds only the public client id, as client-side code would.
	Browser *insurance.Client
	// Sandbox is the in-process sandbox, or nil when talking to a real service.
	Sandbox *insurancetest.Server
}

// Open connects, says in one line to what, and returns a function that releases it.
// sandboxOpts configure the sandbox when one is started.
func Open(out io.Writer, sandboxOpts ...insurancetest.Option) (*Env, func(), error) {
	if os.Getenv(insurance.EnvBaseURL) == "" {
		srv := insurancetest.NewServer(sandboxOpts...)
		fmt.Fprintf(out, "Using the in-process sandbox at %s (set %s to use a real service).\n", srv.URL, insurance.EnvBaseURL)
		env := &Env{
			Backend: srv.Client(),
			Browser: srv.Client(insurance.WithClientID(srv.ClientID)),
			Sandbox: srv,
		}
		return env, srv.Close, nil
	}
	backend, err := insurance.NewClientFromEnv()
	if err != nil {
		return nil, nil, err
	}
	browser, err := insurance.NewClient(backend.BaseURL(), insurance.WithClientID(os.Getenv(insurance.EnvClientID)))
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(out, "Using %s.\n", backend.BaseURL())
	return &Env{Backend: backend, Browser: browser}, func() {}, nil
}

// Serve serves srv on ln until ctx ends or the process is interrupted, then shuts it
// down gracefully.
func Serve(ctx context.Context, srv *http.Server, ln net.Listener) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Loopback reports whether addr, where a program listens, is reachable from this
// machine only (127.0.0.0/8 or ::1). Every interface (":8080") is not: other
// machines, and pages a browser opens, may reach it.
func Loopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
