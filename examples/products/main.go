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
	// The interface does not describe a product's fields: decode every field that came.
	var all []map[string]any
	if err := products.DecodeProducts(&all); err != nil {
		return err
	}
	for i, p := range products.Products {
		fmt.Fprintf(out, "- %s (%s): %v\n", p.ID, p.Name, all[i])
	}
	return nil
}
