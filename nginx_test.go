//go:build nginx

package insurance_test

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/partnerinsure/insurance-go"
)

// The scenarios of issue 19 behind a real proxy: Debian's nginx terminating TLS with
// HTTP/2 (ALPN h2 and http/1.1) in front of a counting upstream. scripts/nginx-h2.sh
// installs nginx, makes a certificate and runs this test:
//
//	go test -tags nginx -run TestNginx -v .
//
// Each scenario prints table rows: calls, succeeded, outcome unknown, false unknown
// (nginx never forwarded the call), duplicates, requests the upstream received.

// upstream counts the requests it receives by quote_id and answers 201.
type upstream struct {
	*httptest.Server
	mu   sync.Mutex
	seen map[string]int
}

func newUpstream(t *testing.T) *upstream {
	u := &upstream{seen: map[string]int{}}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			QuoteID string `json:"quote_id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		u.mu.Lock()
		u.seen[body.QuoteID]++
		u.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"quote_id":%q,"policy_id":"pol_%s"}`, body.QuoteID, body.QuoteID)
	}))
	t.Cleanup(u.Close)
	return u
}

func (u *upstream) count(key string) int { u.mu.Lock(); defer u.mu.Unlock(); return u.seen[key] }

// nginx is one nginx master process this test started.
type nginx struct {
	cmd *exec.Cmd
	URL string
}

// startNginx runs nginx on a free loopback port with directives in its server
// block, proxying to up; it stops with the test.
func startNginx(t *testing.T, up *upstream, certFile, keyFile, directives string) *nginx {
	t.Helper()
	bin, err := exec.LookPath("nginx")
	if err != nil {
		bin = "/usr/sbin/nginx"
	}
	out, err := exec.Command(bin, "-v").CombinedOutput()
	require.NoError(t, err, "nginx is not installed: run scripts/nginx-h2.sh")
	// nginx 1.25.1 and later: "http2 on;"; before: "listen ... http2".
	listenH2, h2On := " http2", ""
	if m := regexp.MustCompile(`nginx/(\d+)\.(\d+)\.(\d+)`).FindStringSubmatch(string(out)); m != nil {
		major, _ := strconv.Atoi(m[1])
		minor, _ := strconv.Atoi(m[2])
		patch, _ := strconv.Atoi(m[3])
		if major > 1 || minor > 25 || (minor == 25 && patch >= 1) {
			listenH2, h2On = "", "http2 on;"
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())

	dir := t.TempDir()
	conf := fmt.Sprintf(`worker_processes 1;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log warn;
events { worker_connections 4096; }
http {
	access_log off;
	client_body_temp_path %[1]s/body;
	proxy_temp_path %[1]s/proxy;
	fastcgi_temp_path %[1]s/fastcgi;
	uwsgi_temp_path %[1]s/uwsgi;
	scgi_temp_path %[1]s/scgi;
	upstream app { server %[2]s; keepalive 32; }
	server {
		listen %[3]s ssl%[4]s;
		%[5]s
		ssl_certificate %[6]s;
		ssl_certificate_key %[7]s;
		%[8]s
		location / {
			proxy_pass http://app;
			proxy_http_version 1.1;
			proxy_set_header Connection "";
		}
	}
}
`, dir, up.Listener.Addr().String(), addr, listenH2, h2On, certFile, keyFile, directives)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o600))
	cmd := exec.Command(bin, "-p", dir, "-e", filepath.Join(dir, "error.log"), "-c", filepath.Join(dir, "nginx.conf"), "-g", "daemon off;")
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	n := &nginx{cmd: cmd, URL: "https://" + addr}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGQUIT) // graceful shutdown of the master we started
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "error.log")); len(b) > 0 {
			t.Logf("nginx error.log:\n%s", b)
		}
	})
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			_ = c.Close()
			return n
		}
		require.Less(t, time.Since(start), 5*time.Second, "nginx did not start")
	}
}

// reload asks the nginx master to reload: old workers finish what they hold and
// send GOAWAY on their HTTP/2 connections.
func (n *nginx) reload() error { return n.cmd.Process.Signal(syscall.SIGHUP) }

// certFiles returns the certificate and key nginx serves: the script's (from
// NGINX_H2_CERT and NGINX_H2_KEY), else httptest's written to files.
func certFiles(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	certFile, keyFile = os.Getenv("NGINX_H2_CERT"), os.Getenv("NGINX_H2_KEY")
	if certFile == "" {
		cert, _ := testCert(t)
		dir := t.TempDir()
		certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
		der, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]}), 0o600))
		require.NoError(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600))
	}
	b, err := os.ReadFile(certFile)
	require.NoError(t, err)
	pool = x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(b))
	return certFile, keyFile, pool
}

// TestNginx runs goroutines buying and as many quoting through nginx in each
// scenario and checks that every call succeeded, that no purchase was doubled or
// falsely called outcome unknown, and that no call ran into its deadline.
func TestNginx(t *testing.T) {
	certFile, keyFile, pool := certFiles(t)
	soakEach := 15
	if v, err := strconv.Atoi(os.Getenv("NGINX_H2_SOAK")); err == nil {
		soakEach = v
	}
	t.Logf("| scenario | kind | calls | succeeded | outcome unknown | false unknown | duplicates | requests sent | requests upstream |")
	t.Logf("|---|---|---|---|---|---|---|---|---|")
	for _, sc := range []struct {
		name, directives string
		goroutines, each int
		deadline, gap    time.Duration      // gap: before each call
		reloads          int                // nginx reloads, 300 ms apart, the first 300 ms into the burst
		opts             []insurance.Option // of the client
	}{
		{name: "keepalive_requests 1", directives: "keepalive_requests 1;", goroutines: 64, each: 2, deadline: 3 * time.Second},
		{name: "http2_max_concurrent_streams 1", directives: "http2_max_concurrent_streams 1;", goroutines: 64, each: 5, deadline: 10 * time.Second},
		{name: "keepalive_timeout 2s, calls 1.999-2.001 s apart", directives: "keepalive_timeout 2s;", goroutines: 16, each: soakEach,
			deadline: 10 * time.Second, gap: 2 * time.Second},
		{name: "reload mid-burst", goroutines: 64, each: 20, deadline: 10 * time.Second, reloads: 1},
		{name: "three reloads mid-burst", goroutines: 64, each: 40, deadline: 10 * time.Second, reloads: 3},
		{name: "reload mid-burst, record keep-alive off", goroutines: 64, each: 20, deadline: 10 * time.Second, reloads: 1,
			opts: []insurance.Option{insurance.WithRecordIdleTimeout(insurance.RecordKeepAliveOff)}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			up := newUpstream(t)
			ng := startNginx(t, up, certFile, keyFile, sc.directives)
			sent := &sentCounter{byRoute: map[string]int{}}
			c := tlsClient(t, ng.URL, pool, append(sc.opts, insurance.WithObserver(sent))...)
			spaced := func(call func(context.Context, string) error) func(context.Context, string) error {
				return func(ctx context.Context, id string) error {
					if sc.gap > 0 {
						time.Sleep(sc.gap - time.Millisecond + rand.N(2*time.Millisecond+1))
					}
					return call(ctx, id)
				}
			}
			deadline := sc.deadline + sc.gap
			var buys, quotes tally
			var wg sync.WaitGroup
			wg.Go(func() {
				buys = callBurst(sc.goroutines, sc.each, deadline, "buy", spaced(func(ctx context.Context, id string) error { return buyTuition(ctx, c, id) }), up.count, up.count)
			})
			wg.Go(func() {
				quotes = callBurst(sc.goroutines, sc.each, deadline, "quote", spaced(func(ctx context.Context, id string) error { return quoteTravel(ctx, c, id) }), up.count, up.count)
			})
			for range sc.reloads {
				time.Sleep(300 * time.Millisecond)
				require.NoError(t, ng.reload())
			}
			wg.Wait()
			for _, r := range []struct {
				kind, route string
				t           tally
			}{{"purchases", "/v1/purchase/tuition", buys}, {"quotes", "/v1/quote/travel", quotes}} {
				t.Logf("| %s | %s | %d | %d | %d | %d | %d | %d | %d |", sc.name, r.kind, r.t.calls, r.t.succeeded, r.t.outcomeUnknown, r.t.falseUnknown, r.t.duplicates, sent.of(r.route), r.t.requests)
			}
			t.Logf("purchases: %v; quotes: %v", buys, quotes)
			assert.Equal(t, buys.calls, buys.succeeded, "every purchase succeeded")
			assert.Zero(t, buys.falseUnknown, "no purchase nginx never forwarded is outcome unknown")
			assert.Zero(t, buys.duplicates, "no purchase processed twice")
			assert.Zero(t, buys.pastDeadline+quotes.pastDeadline, "no call ran into its deadline")
			assert.Equal(t, quotes.calls, quotes.succeeded, "every quote succeeded")
		})
	}
}

// sentCounter is an Observer that counts the requests a client sent, per route: more
// purchases sent than nginx forwarded are purchases tried again after a connection
// closed before their body went out.
type sentCounter struct {
	mu      sync.Mutex
	byRoute map[string]int
}

func (s *sentCounter) StartCall(ctx context.Context, _ insurance.CallInfo) context.Context {
	return ctx
}

func (s *sentCounter) StartAttempt(context.Context, int, func(key, value string)) {}

func (s *sentCounter) EndCall(_ context.Context, call insurance.CallInfo, result insurance.CallResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byRoute[call.Route] += result.Attempts
}

func (s *sentCounter) of(route string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byRoute[route]
}
