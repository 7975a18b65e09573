package insurancetest_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

// BenchmarkSandboxThroughput measures the requests per second the sandbox sustains
// through the SDK with 64 goroutines sharing one client: travel quotes (each stores
// a record) and product lists.
func BenchmarkSandboxThroughput(b *testing.B) {
	srv := insurancetest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	calls := map[string]func() error{
		"quote": func() error {
			_, err := client.QuoteTravel(ctx, &insurance.TravelQuoteRequest{
				Customer: insurance.Customer{EmailAddress: "ada@example.com"},
				PolicyAttributes: insurance.TravelPolicyAttributes{
					TripCost:      1000,
					TripStartDate: insurance.NewDate(2027, time.March, 1),
					TripEndDate:   insurance.NewDate(2027, time.March, 3),
				},
			})
			return err
		},
		"products": func() error { _, err := client.ListProducts(ctx); return err },
	}
	for name, call := range calls {
		b.Run(name, func(b *testing.B) {
			b.SetParallelism(max(1, 64/runtime.GOMAXPROCS(0)))
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := call(); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "req/s")
		})
	}
}
