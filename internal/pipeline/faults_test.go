package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/internal/wiretest"
)

// The fault matrix: every endpoint against every fault kind, on real loopback
// sockets, counting what the server received. Its table is kept in
// docs/reliability.md; TestFaultMatrix fails when the two differ.

// faultKind is one column of the matrix.
type faultKind struct {
	name     string
	deadline time.Duration      // context deadline for the call; 0: none
	opts     []insurance.Option // client options beyond the matrix's own
	// script is what the server does with each request in turn; after it, success.
	// nil: nothing listens at all (connection refused).
	script []wiretest.Fault
}

const gatewayHTML = "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>"

// hugeBody answers 200 with a 100 MiB body, and records how much the client took.
func hugeBody(written *atomic.Int64) wiretest.Fault {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(100<<20))
		w.WriteHeader(http.StatusOK)
		chunk := make([]byte, 32<<10)
		for range (100 << 20) / len(chunk) {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}
}

func faultKinds(hugeWritten *atomic.Int64) []faultKind {
	return []faultKind{
		{name: "refused"},
		{name: "reset", script: []wiretest.Fault{wiretest.Reset}},
		{name: "hang", deadline: 300 * time.Millisecond, script: []wiretest.Fault{wiretest.Hang}},
		{name: "stall", deadline: 300 * time.Millisecond, script: []wiretest.Fault{wiretest.Stall}},
		{name: "503", script: []wiretest.Fault{wiretest.Status(503)}},
		{name: "429 RA:1", script: []wiretest.Fault{wiretest.Status(429, "Retry-After", "1")}},
		{name: "429 RA:3600", script: []wiretest.Fault{wiretest.Status(429, "Retry-After", "3600")}},
		{name: "429 RA:3600 ctx 500ms", deadline: 500 * time.Millisecond, script: []wiretest.Fault{wiretest.Status(429, "Retry-After", "3600")}},
		{name: "503 RA:1 ctx 300ms", deadline: 300 * time.Millisecond, script: []wiretest.Fault{wiretest.Status(503, "Retry-After", "1")}},
		{name: "hang, attempt 200ms", opts: []insurance.Option{insurance.WithAttemptTimeout(200 * time.Millisecond)}, script: []wiretest.Fault{wiretest.Hang}},
		{name: "502 html", script: []wiretest.Fault{htmlStatus(502)}},
		{name: "504 html", script: []wiretest.Fault{htmlStatus(504)}},
		{name: "cut 201", script: []wiretest.Fault{wiretest.Truncated}},
		{name: "100 MiB", script: []wiretest.Fault{hugeBody(hugeWritten)}},
	}
}

func htmlStatus(code int) wiretest.Fault {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(code)
		_, _ = io.WriteString(w, gatewayHTML)
	}
}

// outcome is one cell: what the call returned and how many requests arrived.
type outcome struct {
	result   string
	received int32
}

func (o outcome) String() string { return fmt.Sprintf("%s (%d)", o.result, o.received) }

// classify names the result as a partner would see it, checking that every error
// has the type the SDK promises.
func classify(t *testing.T, err error) string {
	var apiErr *insurance.APIError
	var reqErr *insurance.RequestError
	suffix := ""
	if errors.Is(err, insurance.ErrOutcomeUnknown) {
		suffix = " unknown"
	}
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, context.DeadlineExceeded):
		require.ErrorAs(t, err, &reqErr)
		return "deadline" + suffix
	case errors.As(err, &apiErr):
		if apiErr.StatusCode != http.StatusTooManyRequests {
			require.ErrorIs(t, err, insurance.ErrServer, "only 429 and 5xx answers end a call in the matrix")
		}
		return strconv.Itoa(apiErr.StatusCode) + suffix
	case errors.Is(err, syscall.ECONNREFUSED):
		require.ErrorAs(t, err, &reqErr)
		return "refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF):
		require.ErrorAs(t, err, &reqErr)
		return "reset" + suffix
	case errors.Is(err, io.ErrUnexpectedEOF):
		require.ErrorAs(t, err, &reqErr)
		return "cut" + suffix
	case errors.Is(err, insurance.ErrResponseTooLarge):
		require.ErrorAs(t, err, &reqErr)
		return "too large" + suffix
	}
	t.Fatalf("unexpected error type %T: %v", err, err)
	return ""
}

func TestFaultMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("the fault matrix waits for Retry-After and deadlines")
	}
	goroutinesBefore := runtime.NumGoroutine()
	var hugeWritten atomic.Int64
	kinds := faultKinds(&hugeWritten)
	eps := wiretest.Endpoints()
	cells := make([][]outcome, len(eps))
	for i := range cells {
		cells[i] = make([]outcome, len(kinds))
	}
	var memMu sync.Mutex

	t.Run("cells", func(t *testing.T) {
		for i, ep := range eps {
			for j, k := range kinds {
				t.Run(ep.Name+"/"+k.name, func(t *testing.T) {
					t.Parallel()
					cells[i][j] = runCell(t, ep, k, &memMu)
				})
			}
		}
	})

	table := matrixTable(eps, kinds, cells)
	t.Logf("fault matrix: result (requests the server received)\n%s", table)

	// Every cell against the rules, beyond the error types classify checked.
	for i, ep := range eps {
		for j, k := range kinds {
			o := cells[i][j]
			cell := ep.Name + "/" + k.name
			if ep.CreatesRecord && !strings.HasPrefix(k.name, "429") {
				assert.LessOrEqual(t, o.received, int32(1), "%s: a record-creating call reached the server twice", cell)
			}
			switch k.name {
			case "refused":
				assert.Equal(t, outcome{"refused", 0}, o, cell)
			case "hang", "stall":
				want := "deadline"
				if ep.CreatesRecord {
					want += " unknown"
				}
				assert.Equal(t, outcome{want, 1}, o, cell)
			case "429 RA:1", "429 RA:3600":
				assert.Equal(t, outcome{"ok", 2}, o, "%s: a 429 is retried for every call", cell)
			case "429 RA:3600 ctx 500ms":
				assert.Equal(t, outcome{"429", 1}, o, "%s: a wait past the deadline is not begun; the 429 is the answer", cell)
			case "503 RA:1 ctx 300ms":
				want := "503"
				if ep.CreatesRecord {
					want += " unknown"
				}
				assert.Equal(t, outcome{want, 1}, o, "%s: a wait past the deadline is not begun; the 503 is the answer", cell)
			case "hang, attempt 200ms":
				if ep.CreatesRecord {
					assert.Equal(t, outcome{"deadline unknown", 1}, o, "%s: a timed-out purchase is not sent again", cell)
				} else {
					assert.Equal(t, outcome{"ok", 2}, o, "%s: a timed-out idempotent attempt is retried", cell)
				}
			case "100 MiB":
				want := "too large"
				if ep.CreatesRecord {
					want += " unknown"
				}
				assert.Equal(t, outcome{want, 1}, o, cell)
			default: // wiretest.Reset, 5xx, cut body: retried only when safe
				if ep.CreatesRecord {
					assert.Equal(t, int32(1), o.received, cell)
					assert.True(t, strings.HasSuffix(o.result, " unknown"), "%s: %s must match ErrOutcomeUnknown", cell, o.result)
				} else {
					assert.Equal(t, outcome{"ok", 2}, o, cell)
				}
			}
		}
	}
	t.Logf("the 100 MiB servers wrote %d bytes in all before the clients hung up", hugeWritten.Load())
	assert.Less(t, hugeWritten.Load(), int64(8<<20)*int64(len(eps)), "100 MiB bodies must be refused, not read")

	assertDocTable(t, "../../docs/reliability.md", table)

	// No goroutine is left behind once clients and servers are closed.
	assert.Eventually(t, func() bool { return runtime.NumGoroutine() <= goroutinesBefore+2 }, 5*time.Second, 50*time.Millisecond,
		"goroutines: %d before, %d after", goroutinesBefore, runtime.NumGoroutine())
}

// runCell runs one endpoint against one fault and closes everything it opened.
func runCell(t *testing.T, ep wiretest.Endpoint, k faultKind, memMu *sync.Mutex) outcome {
	var url string
	var received func() int32
	if k.script == nil {
		// Port 1 is never an ephemeral port: a port freed by closing a listener could
		// be taken by a parallel cell's server before this call dials it.
		url = "http://127.0.0.1:1"
		received = func() int32 { return 0 }
	} else {
		srv := wiretest.NewScriptedServer(t, ep, k.script...)
		url = srv.URL
		received = srv.Received.Load
	}
	c := wiretest.NewLoopbackClient(t, url, append([]insurance.Option{insurance.WithMaxRetryAfter(1500 * time.Millisecond)}, k.opts...)...)
	ctx := context.Background()
	if k.deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, k.deadline)
		defer cancel()
	}

	var before runtime.MemStats
	if k.name == "100 MiB" {
		memMu.Lock() // one at a time, so the heap figure is this call's
		defer memMu.Unlock()
		runtime.GC()
		runtime.ReadMemStats(&before)
	}
	start := time.Now()
	_, err := ep.Call(ctx, c)
	elapsed := time.Since(start)
	if k.name == "100 MiB" {
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "memory stays bounded")
	}
	switch k.name {
	case "429 RA:1":
		assert.GreaterOrEqual(t, elapsed, time.Second, "Retry-After: 1 is honoured")
	case "429 RA:3600":
		assert.Less(t, elapsed, 3*time.Second, "Retry-After: 3600 is capped")
	case "429 RA:3600 ctx 500ms", "503 RA:1 ctx 300ms":
		assert.Less(t, elapsed, 200*time.Millisecond, "the answer is returned at once, not after sleeping into the deadline")
		var apiErr *insurance.APIError
		if errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusTooManyRequests {
			assert.Equal(t, time.Hour, apiErr.RetryAfter, "the Retry-After the server sent, uncapped")
		}
	}
	return outcome{classify(t, err), received()}
}

func matrixTable(eps []wiretest.Endpoint, kinds []faultKind, cells [][]outcome) string {
	var b strings.Builder
	b.WriteString("| endpoint |")
	for _, k := range kinds {
		b.WriteString(" " + k.name + " |")
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---|", len(kinds)))
	b.WriteString("\n")
	for i, ep := range eps {
		b.WriteString("| " + ep.Name + " |")
		for j := range kinds {
			b.WriteString(" " + cells[i][j].String() + " |")
		}
		b.WriteString("\n")
	}
	return b.String()
}
