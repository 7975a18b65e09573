// Command products lists the products the partner can sell (GET /v1/products).
//
//	go run ./examples/products
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/partnerinsure/insurance-go/examples/internal/connect"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := run(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "products:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	env, closeEnv, err := connect.Open(out)
	if err != nil {
		return err
	}
	defer closeEnv()

	products, err := env.Backend.ListProducts(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d products (request id %s):\n", len(products.Products), products.RequestID())
	for _, p := range products.Products {
		// The interface does not describe a product's fields: print what came.
		fmt.Fprintf(out, "- %s: %s\n", p.ID, p.Raw)
	}
	return nil
}
