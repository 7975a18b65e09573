package insurance_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// BenchmarkPaired times the SDK and the hand-written client call by call in turn, in
// one loop, so that whatever else runs on the machine weighs on both alike. It
// reports each client's mean time per call (sdk-ns/op, hand-ns/op) and their ratio
// (sdk/hand); ns/op is the pair. "parallel": 64 goroutines sharing the two clients,
// each alternating; there sdk-ns/op and hand-ns/op are mean latencies under that load.
func BenchmarkPaired(b *testing.B) {
	srv := benchServer(b)
	c := benchClient(b, srv.URL)
	h := newHandWritten(srv.URL)
	quote, purchase := wiretest.FullTravelQuote(), wiretest.FullTuitionPurchase()
	calls := []struct {
		name      string
		sdk, hand func(ctx context.Context) error
	}{
		{"QuoteTravel",
			func(ctx context.Context) error { _, err := c.QuoteTravel(ctx, quote); return err },
			func(ctx context.Context) error {
				var q handQuote
				return h.do(ctx, http.MethodPost, "/v1/quote/travel", quote, &q)
			}},
		{"PurchaseTuition",
			func(ctx context.Context) error { _, err := c.PurchaseTuition(ctx, purchase); return err },
			func(ctx context.Context) error {
				var p handPolicy
				return h.do(ctx, http.MethodPost, "/v1/purchase/tuition", purchase, &p)
			}},
	}
	for _, size := range []struct {
		name  string
		bytes int
	}{{"200B", 200}, {"10KB", 10 << 10}, {"1MB", 1 << 20}} {
		for _, framing := range []string{"length", "chunked"} {
			srv := productsServer(b, productsBody(size.bytes), framing == "chunked")
			c, h := benchClient(b, srv.URL), newHandWritten(srv.URL)
			calls = append(calls, struct {
				name      string
				sdk, hand func(ctx context.Context) error
			}{"ListProducts/" + size.name + "/" + framing,
				func(ctx context.Context) error { _, err := c.ListProducts(ctx); return err },
				func(ctx context.Context) error {
					var p handProducts
					return h.do(ctx, http.MethodGet, "/v1/products", nil, &p)
				}})
		}
	}
	timed := func(ctx context.Context, call func(context.Context) error, total *time.Duration) error {
		start := time.Now()
		err := call(ctx)
		*total += time.Since(start)
		return err
	}
	// pair makes iteration i's two calls, the SDK's first on even i and second on odd
	// ones, adding each one's time to its total.
	pair := func(ctx context.Context, i int, sdkCall, handCall func(context.Context) error, sdk, hand *time.Duration) error {
		first, second, firstTotal, secondTotal := sdkCall, handCall, sdk, hand
		if i%2 == 1 {
			first, second, firstTotal, secondTotal = handCall, sdkCall, hand, sdk
		}
		if err := timed(ctx, first, firstTotal); err != nil {
			return err
		}
		return timed(ctx, second, secondTotal)
	}
	report := func(b *testing.B, sdk, hand time.Duration) {
		b.ReportMetric(float64(sdk.Nanoseconds())/float64(b.N), "sdk-ns/op")
		b.ReportMetric(float64(hand.Nanoseconds())/float64(b.N), "hand-ns/op")
		b.ReportMetric(float64(sdk)/float64(hand), "sdk/hand")
	}
	// warm fills both clients' pools with the connections 64 goroutines use, untimed.
	// Otherwise a client comes in with the pool an earlier sub-benchmark filled, while
	// the other (the SDK's purchases ride a pool of their own) fills its own on the
	// clock.
	warm := func(b *testing.B, calls ...func(context.Context) error) {
		var wg sync.WaitGroup
		for range 64 {
			wg.Go(func() {
				for _, call := range calls {
					if err := call(context.Background()); err != nil {
						b.Error(err)
					}
				}
			})
		}
		wg.Wait()
	}
	for _, call := range calls {
		b.Run(call.name+"/serial", func(b *testing.B) {
			ctx := context.Background()
			var sdk, hand time.Duration
			for i := 0; b.Loop(); i++ {
				if err := pair(ctx, i, call.sdk, call.hand, &sdk, &hand); err != nil {
					b.Fatal(err)
				}
			}
			report(b, sdk, hand)
		})
		if strings.HasPrefix(call.name, "ListProducts") {
			continue
		}
		b.Run(call.name+"/parallel", func(b *testing.B) {
			warm(b, call.sdk, call.hand)
			var sdk, hand atomic.Int64
			b.SetParallelism(64 / max(1, runtimeGOMAXPROCS()))
			b.RunParallel(func(pb *testing.PB) {
				ctx := context.Background()
				var mySDK, myHand time.Duration
				for i := 0; pb.Next(); i++ {
					if err := pair(ctx, i, call.sdk, call.hand, &mySDK, &myHand); err != nil {
						b.Error(err)
						return
					}
				}
				sdk.Add(int64(mySDK))
				hand.Add(int64(myHand))
			})
			report(b, time.Duration(sdk.Load()), time.Duration(hand.Load()))
		})
	}
}

// productsServer answers every request with body, with a Content-Length or chunked.
func productsServer(b *testing.B, body []byte, chunked bool) *httptest.Server {
	b.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if !chunked {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		_, _ = w.Write(body)
		if chunked {
			w.(http.Flusher).Flush() // before the handler returns: no Content-Length
		}
	}))
	b.Cleanup(srv.Close)
	return srv
}
