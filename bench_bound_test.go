package insurance_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkPairedBound prices, on the 200 B product list over loopback HTTP/1.1, what
// the SDK keeps on a bodiless call, by timing a hand-written client that keeps it too
// against the plain one, call by call in turn as BenchmarkPaired does:
//   - bound: the empty body (declared identity) whose GetBody net/http must ask before
//     it sends the request again, which is how the SDK bounds its resends;
//   - trace: an httptrace.ClientTrace whose GotConn counts the sends, in a context
//     value of its own;
//   - both: the two;
//   - sdk: the SDK against the hand-written client that keeps both, that is what the
//     SDK's own code costs on top of them.
//
// It reports each side's mean time a call (variant-ns/op, hand-ns/op; for sdk the
// hand side is "both") and their ratio (variant/hand).
func BenchmarkPairedBound(b *testing.B) {
	srv := productsServer(b, productsBody(200), false)
	plain, keeping := newHandWritten(srv.URL), newHandWritten(srv.URL)
	sdk := benchClient(b, srv.URL)
	call := func(bound, trace bool) func(context.Context) error {
		return func(ctx context.Context) error {
			var p handProducts
			return keeping.doKeeping(ctx, bound, trace, &p)
		}
	}
	for _, v := range []struct {
		name           string
		variant, basis func(context.Context) error
	}{
		{"bound", call(true, false), nil},
		{"trace", call(false, true), nil},
		{"both", call(true, true), nil},
		{"sdk", func(ctx context.Context) error { _, err := sdk.ListProducts(ctx); return err }, call(true, true)},
	} {
		basis := v.basis
		if basis == nil {
			basis = func(ctx context.Context) error {
				var p handProducts
				return plain.do(ctx, http.MethodGet, "/v1/products", nil, &p)
			}
		}
		b.Run(v.name, func(b *testing.B) {
			ctx := context.Background()
			var variant, hand time.Duration
			for i := 0; b.Loop(); i++ {
				for turn := range 2 { // the variant first on even i, second on odd ones
					call, total := basis, &hand
					if (i+turn)%2 == 0 {
						call, total = v.variant, &variant
					}
					start := time.Now()
					if err := call(ctx); err != nil {
						b.Fatal(err)
					}
					*total += time.Since(start)
				}
			}
			b.ReportMetric(float64(variant.Nanoseconds())/float64(b.N), "variant-ns/op")
			b.ReportMetric(float64(hand.Nanoseconds())/float64(b.N), "hand-ns/op")
			b.ReportMetric(float64(variant)/float64(hand), "variant/hand")
		})
	}
}

// doKeeping is do for a bodiless GET, keeping the SDK's resend bound, its connection
// trace, or both. It counts the sends and the resends as the SDK does, so that it pays
// for them; nothing here reads the counts.
func (h *handWritten) doKeeping(ctx context.Context, bound, trace bool, out any) error {
	if trace {
		var sends atomic.Int32
		ctx = context.WithValue(ctx, sendsKey{}, &sends)
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { sends.Add(1) }})
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.base+"/v1/products", nil)
	if err != nil {
		return err
	}
	if bound {
		var resends atomic.Int32
		req.Body, req.TransferEncoding = emptyBody{}, []string{"identity"}
		req.GetBody = func() (io.ReadCloser, error) { resends.Add(1); return emptyBody{}, nil }
	}
	return h.send(req, out)
}

type sendsKey struct{}

// emptyBody is the SDK's body of a bodiless request (internal/pipeline).
type emptyBody struct{}

func (emptyBody) Read([]byte) (int, error)         { return 0, io.EOF }
func (emptyBody) WriteTo(io.Writer) (int64, error) { return 0, nil }
func (emptyBody) Close() error                     { return nil }
