// Command partner is a partner's first program, which scripts/release-check.sh builds
// and runs in a fresh module that requires the core and otel/ at the version being
// released, with no replace: a client against the sandbox, traced by insuranceotel,
// makes one call.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
	insuranceotel "github.com/partnerinsure/insurance-go/otel"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "partner:", err)
		os.Exit(1)
	}
}

func run() error {
	srv := insurancetest.NewServer()
	defer srv.Close()
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))

	client, err := insurance.NewClient(srv.URL,
		insurance.WithCredentials(srv.ClientID, srv.ClientSecret),
		insuranceotel.Instrument(insuranceotel.WithTracerProvider(tp)),
	)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	products, err := client.ListProducts(ctx)
	if err != nil {
		return err
	}
	ended := spans.Ended()
	if len(ended) != 1 {
		return fmt.Errorf("insuranceotel ended %d spans for one call, want 1", len(ended))
	}
	fmt.Printf("insurance-go/%s: %d products from insurancetest; insuranceotel span %q, status %s\n",
		insurance.Version, len(products.Products), ended[0].Name(), ended[0].Status().Code)
	return nil
}
