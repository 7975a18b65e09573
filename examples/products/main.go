// Command products lists the products the partner can sell (GET /v1/products).
//
//	go run ./examples/products
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/partnerinsure/insurance-go/examples/internal/cli"
	"github.com/partnerinsure/insurance-go/examples/internal/connect"
)

// about is the usage's account of the program, as in the package doc.
const about = "products lists the products the partner can sell (GET /v1/products)."

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cli.ExitOnError("products", run(ctx, os.Args[1:], os.Stdout))
}

func run(ctx context.Context, args []string, out io.Writer) error {
	if err := cli.Parse(flag.NewFlagSet("products", flag.ContinueOnError), args, out, about, connect.Help); err != nil {
		return err
	}
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
