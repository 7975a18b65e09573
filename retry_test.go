package insurance_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

// fault is what a scripted server does with one request.
type fault func(w http.ResponseWriter, r *http.Request)

func status(code int, header ...string) fault {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		_, _ = io.WriteString(w, `{"message":"scripted"}`)
	}
}

// reset reads the whole request, then drops the connection before any response byte.
func reset(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		_ = tcp.SetLinger(0) // RST, not FIN
	}
	_ = conn.Close()
}

// hang never answers; it returns when the client gives up.
func hang(_ http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

// truncated promises a body and sends only part of it.
func truncated(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Length", "200")
	w.WriteHeader(http.StatusCreated)
	_, _ = io.WriteString(w, `{"quote_id":"q_`)
	w.(http.Flusher).Flush()
	conn, _, err := w.(http.Hijacker).Hijack()
	if err != nil {
		panic(err)
	}
	_ = conn.Close() // FIN: the client reads an early end of body
}

// scriptedServer plays faults in order, then answers every further request with the
// endpoint's success fixture. It counts the requests that reached it.
type scriptedServer struct {
	*httptest.Server
	mu       sync.Mutex
	script   []fault
	received atomic.Int32
}

func newScriptedServer(t *testing.T, ep endpoint, script ...fault) *scriptedServer {
	t.Helper()
	ok := fixture(t, ep.response)
	s := &scriptedServer{script: script}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		s.received.Add(1)
		s.mu.Lock()
		var next fault
		if len(s.script) > 0 {
			next, s.script = s.script[0], s.script[1:]
		}
		s.mu.Unlock()
		if next != nil {
			next(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(ep.status)
		_, _ = io.WriteString(w, ok)
	}))
	t.Cleanup(s.Close)
	return s
}

func newLoopbackClient(t *testing.T, url string, opts ...insurance.Option) *insurance.Client {
	t.Helper()
	c, err := insurance.NewClient(url, append([]insurance.Option{insurance.WithCredentials(testClientID, testClientSecret), fastRetries}, opts...)...)
	require.NoError(t, err)
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// TestRetryTable runs every endpoint against every failure kind, followed by success,
// and counts what the server received. Idempotent calls (products, quotes, customer
// secret) are retried; record-creating calls (purchases, onboarding, events) are
// retried only on 429, and otherwise fail with ErrOutcomeUnknown after one request.
func TestRetryTable(t *testing.T) {
	kinds := []struct {
		name  string
		fault fault
		// for record-creating calls: is the failure retried, and what does it match
		recordRetried bool
		recordErr     error
	}{
		{"429 Retry-After 0", status(429, "Retry-After", "0"), true, nil},
		{"502", status(502), false, insurance.ErrServer},
		{"503", status(503), false, insurance.ErrServer},
		{"504", status(504), false, insurance.ErrServer},
		{"reset after the request was read", reset, false, syscall.ECONNRESET},
		{"client timeout after send", hang, false, nil},
		{"truncated 2xx body", truncated, false, io.ErrUnexpectedEOF},
	}
	for _, ep := range endpoints() {
		for _, k := range kinds {
			t.Run(ep.name+"/"+k.name, func(t *testing.T) {
				t.Parallel()
				srv := newScriptedServer(t, ep, k.fault)
				c := newLoopbackClient(t, srv.URL, insurance.WithHTTPClient(&http.Client{Timeout: 300 * time.Millisecond}))

				result, err := ep.call(context.Background(), c)

				if !ep.createsRecord || k.recordRetried {
					require.NoError(t, err)
					assert.NotNil(t, result)
					assert.EqualValues(t, 2, srv.received.Load(), "one failure, one retry")
					return
				}
				require.Error(t, err)
				assert.EqualValues(t, 1, srv.received.Load(), "a record-creating call is never sent twice")
				assert.ErrorIs(t, err, insurance.ErrOutcomeUnknown)
				if k.recordErr != nil {
					assert.ErrorIs(t, err, k.recordErr)
				}
			})
		}
	}
}

// TestDefiniteAnswersAreNotRetried: 4xx answers and 500 are never retried.
func TestDefiniteAnswersAreNotRetried(t *testing.T) {
	for _, ep := range endpoints() {
		for _, code := range []int{400, 401, 402, 404, 422, 500} {
			t.Run(ep.name+"/"+strconv.Itoa(code), func(t *testing.T) {
				t.Parallel()
				srv := newScriptedServer(t, ep, status(code))
				c := newLoopbackClient(t, srv.URL)

				_, err := ep.call(context.Background(), c)
				var apiErr *insurance.APIError
				require.ErrorAs(t, err, &apiErr)
				assert.Equal(t, code, apiErr.StatusCode)
				assert.EqualValues(t, 1, srv.received.Load())
			})
		}
	}
}

// TestDialFailureIsRetriedForEveryCall: nothing was sent, so even a purchase is safe
// to try again; the error says how many attempts were made.
func TestDialFailureIsRetriedForEveryCall(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "http://" + ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now

	for _, ep := range endpoints() {
		t.Run(ep.name, func(t *testing.T) {
			c := newLoopbackClient(t, url)
			_, err := ep.call(context.Background(), c)

			var reqErr *insurance.RequestError
			require.ErrorAs(t, err, &reqErr)
			assert.Equal(t, 3, reqErr.Attempts, "1 attempt + 2 retries")
			assert.ErrorIs(t, err, syscall.ECONNREFUSED)
			assert.NotErrorIs(t, err, insurance.ErrOutcomeUnknown, "nothing reached the server")
			assert.Contains(t, err.Error(), "3 attempts")
		})
	}
}

func TestLastStatusIsKeptAfterTheLastAttempt(t *testing.T) {
	ep := endpoints()[0] // ListProducts
	srv := newScriptedServer(t, ep, status(503), status(503), status(503), status(503))
	c := newLoopbackClient(t, srv.URL)

	_, err := c.ListProducts(context.Background())
	var apiErr *insurance.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, 503, apiErr.StatusCode)
	assert.Equal(t, 3, apiErr.Attempts)
	assert.Contains(t, err.Error(), "after 3 attempts")
	assert.ErrorIs(t, err, insurance.ErrServer)
	assert.EqualValues(t, 3, srv.received.Load())
}

func TestMaxRetriesZeroSendsOnce(t *testing.T) {
	ep := endpoints()[0]
	srv := newScriptedServer(t, ep, status(503), status(429))
	c := newLoopbackClient(t, srv.URL, insurance.WithMaxRetries(0))

	_, err := c.ListProducts(context.Background())
	assert.ErrorIs(t, err, insurance.ErrServer)
	assert.EqualValues(t, 1, srv.received.Load())
}

func TestRetryAfterIsCapped(t *testing.T) {
	ep := endpoints()[1] // QuoteTravel
	srv := newScriptedServer(t, ep, status(429, "Retry-After", "3600"))
	c := newLoopbackClient(t, srv.URL, insurance.WithMaxRetryAfter(50*time.Millisecond))

	start := time.Now()
	_, err := c.QuoteTravel(context.Background(), fullTravelQuote())
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 2*time.Second, "Retry-After: 3600 must not wait an hour")
	assert.GreaterOrEqual(t, time.Since(start), 50*time.Millisecond, "the capped Retry-After is still honoured")
	assert.EqualValues(t, 2, srv.received.Load())
}

func TestContextDeadlineWhileWaitingForHeaders(t *testing.T) {
	for _, ep := range endpoints() {
		t.Run(ep.name, func(t *testing.T) {
			t.Parallel()
			srv := newScriptedServer(t, ep, hang, hang, hang)
			c := newLoopbackClient(t, srv.URL)
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()

			_, err := ep.call(ctx, c)
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			assert.EqualValues(t, 1, srv.received.Load(), "a context that ended is not retried")
			assert.Equal(t, ep.createsRecord, errors.Is(err, insurance.ErrOutcomeUnknown))
		})
	}
}

func TestOversizedSuccessBodyIsRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(100<<20))
		w.WriteHeader(200)
		chunk := make([]byte, 64<<10)
		for i := 0; i < (100<<20)/len(chunk); i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	c := newLoopbackClient(t, srv.URL)

	_, err := c.ListProducts(context.Background())
	assert.ErrorIs(t, err, insurance.ErrResponseTooLarge)
}

func TestOversizedChunkedBodyIsCutAtTheCap(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(200) // no Content-Length: chunked
		chunk := make([]byte, 64<<10)
		for i := 0; i < (32<<20)/len(chunk); i++ {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	c := newLoopbackClient(t, srv.URL)

	_, err := c.ListProducts(context.Background())
	var reqErr *insurance.RequestError
	require.ErrorAs(t, err, &reqErr)
	assert.ErrorIs(t, err, insurance.ErrResponseTooLarge)
	assert.Len(t, reqErr.Body, 16<<20)
}

// TestSharedClientReusesConnections: 64 goroutines sharing one client hold at most
// 64 connections: every connection opened beyond 64 replaced one that closed. A
// connection may close during the run: net/http does not reuse one whose write
// goroutine has not reported within 50 ms of the answer (maxWriteWaitBeforeConnReuse),
// which happens on a starved machine (seen under -race with two CPU hogs: 1 or 2 of
// 64 in 15 runs).
func TestSharedClientReusesConnections(t *testing.T) {
	srv, opened, closed := countingServer(t, func(w http.ResponseWriter) {
		w.WriteHeader(201)
		_, _ = io.WriteString(w, `{"quote_id":"q_1"}`)
	})
	c := newLoopbackClient(t, srv.URL)

	var wg sync.WaitGroup
	var failed atomic.Int32
	for range 64 {
		wg.Go(func() {
			for range 100 {
				if _, err := c.QuoteTravel(context.Background(), fullTravelQuote()); err != nil {
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	t.Logf("64 goroutines x 100 quotes: %d connections opened, %d closed during the run", opened.Load(), closed.Load())
	assert.Zero(t, failed.Load())
	assert.LessOrEqual(t, opened.Load(), 64+closed.Load(), "no more than 64 connections at once")
	assert.LessOrEqual(t, closed.Load(), int32(4), "connections are kept for reuse")
}

// TestAFailedCallKeepsTheIdlePool: retryablehttp closes every idle connection after a
// call that ends in failure; the SDK keeps that from reaching its pool, so the calls
// that follow reuse the connections already open.
func TestAFailedCallKeepsTheIdlePool(t *testing.T) {
	var fail atomic.Bool
	var arrived sync.WaitGroup
	srv, opened, _ := countingServer(t, func(w http.ResponseWriter) {
		if fail.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		arrived.Done()
		arrived.Wait() // hold every answer until all 8 calls are in: 8 connections
		w.WriteHeader(201)
		_, _ = io.WriteString(w, `{"quote_id":"q_1"}`)
	})
	c := newLoopbackClient(t, srv.URL, insurance.WithMaxRetries(0))
	eightAtOnce := func() {
		arrived.Add(8)
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				_, err := c.QuoteTravel(context.Background(), fullTravelQuote())
				assert.NoError(t, err)
			})
		}
		wg.Wait()
	}

	eightAtOnce()
	require.EqualValues(t, 8, opened.Load())
	fail.Store(true)
	_, err := c.QuoteTravel(context.Background(), fullTravelQuote())
	require.ErrorIs(t, err, insurance.ErrServer, "a call that ends in failure")
	fail.Store(false)
	eightAtOnce()

	assert.LessOrEqual(t, opened.Load(), int32(9), "the 8 idle connections are reused (one may be replaced: see above)")
}

// countingServer answers every request with answer and counts the connections opened
// and closed while the test runs.
func countingServer(t *testing.T, answer func(http.ResponseWriter)) (srv *httptest.Server, opened, closed *atomic.Int32) {
	t.Helper()
	opened, closed = new(atomic.Int32), new(atomic.Int32)
	srv = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		answer(w)
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		switch s {
		case http.StateNew:
			opened.Add(1)
		case http.StateClosed, http.StateHijacked:
			closed.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, opened, closed
}

// TestMockedTransportErrors is what the README promises httpmock users: a transport
// error that says nothing was sent (a dial error) is retried even for a purchase; any
// other is outcome unknown, and never sent twice.
func TestMockedTransportErrors(t *testing.T) {
	for _, tc := range []struct {
		name           string
		err            error
		calls          int
		outcomeUnknown bool
	}{
		{"dial error", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, 3, false},
		{"any other error", errors.New("connection reset by mock"), 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := newMockClient(t)
			mt.RegisterResponder("POST", testBaseURL+"/v1/purchase/tuition", httpmock.NewErrorResponder(tc.err))

			_, err := c.PurchaseTuition(context.Background(), fullTuitionPurchase())
			require.Error(t, err)
			assert.Equal(t, tc.outcomeUnknown, errors.Is(err, insurance.ErrOutcomeUnknown))
			assert.Equal(t, tc.calls, mt.GetTotalCallCount())
		})
	}
}
