//go:build proxies

package pipeline_test

import (
	"crypto/x509"
	"encoding/pem"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The proxy matrix (issue 27): the SDK behind the proxies partners' traffic crosses —
// nginx, HAProxy, Apache httpd and Caddy as Debian 12 ships them — each terminating
// TLS and offering h2 and http/1.1 through ALPN, in front of a counting upstream (the
// test's own server, proxies_upstream_test.go), through the scenarios of
// proxies_scenarios_test.go. scripts/proxies.sh installs the proxies, makes a
// certificate and runs this test:
//
//	go test -tags proxies -run 'TestProxies/caddy/reload' -v ./internal/pipeline
//
// Subtests are TestProxies/<proxy>/<scenario>. Each proxy runs as a child of the
// test on free loopback ports and is stopped by it. Each scenario prints one
// markdown row per call kind (proxies_table_test.go) and fails on what the table's
// doc lists.

// proxySetup is what a scenario asks of a proxy.
type proxySetup struct {
	upstream   string        // host:port of the counting upstream
	cert, key  string        // PEM files for 127.0.0.1
	keepAlive  time.Duration // idle keep-alive timeout; 0: the proxy's default
	oneRequest bool          // one request per connection (a GOAWAY after every HTTP/2 stream)
	oneStream  bool          // one concurrent stream per HTTP/2 connection
}

// proxy is one proxy process the test started.
type proxy struct {
	URL    string
	reload func() error // a reload or graceful restart
}

// proxyKind starts one kind of proxy; start skips the test for what the proxy lacks.
type proxyKind struct {
	name  string
	start func(t *testing.T, s proxySetup) *proxy
}

var proxyKinds = []proxyKind{nginxProxy, haproxyProxy, apacheProxy, caddyProxy}

// TestProxies runs every scenario behind every proxy.
func TestProxies(t *testing.T) {
	cert, key, pool := proxyCert(t)
	for _, line := range tableHeader {
		t.Logf("%s", line)
	}
	for _, pk := range proxyKinds {
		t.Run(pk.name, func(t *testing.T) {
			for _, sc := range scenarios() {
				t.Run(sc.name, func(t *testing.T) { runScenario(t, pk, sc, cert, key, pool) })
			}
		})
	}
}

// lookBin finds a proxy's binary on PATH or in /usr/sbin.
func lookBin(t *testing.T, name string) string {
	t.Helper()
	if bin, err := exec.LookPath(name); err == nil {
		return bin
	}
	bin := filepath.Join("/usr/sbin", name)
	_, err := os.Stat(bin)
	require.NoError(t, err, "%s is not installed: run scripts/proxies.sh", name)
	return bin
}

// freeAddr is a loopback address nothing listens on just now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// runProxy starts cmd, waits until addr accepts connections, and stops it with stop
// (then SIGKILL after 10 s) when the test ends. Its output and logs are shown when
// the test failed, or when PROXIES_LOGS is set.
func runProxy(t *testing.T, cmd *exec.Cmd, addr string, stop syscall.Signal, logs ...string) *proxy {
	t.Helper()
	out := filepath.Join(t.TempDir(), "output.log")
	f, err := os.Create(out)
	require.NoError(t, err)
	cmd.Stdout, cmd.Stderr = f, f
	require.NoError(t, cmd.Start(), "%s", cmd)
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); _ = f.Close(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(stop)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() || os.Getenv("PROXIES_LOGS") != "" {
			for _, log := range append([]string{out}, logs...) {
				if b, _ := os.ReadFile(log); len(b) > 0 {
					t.Logf("%s:\n%s", filepath.Base(log), tail(string(b), 60))
				}
			}
		}
	})
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			_ = c.Close()
			return &proxy{URL: "https://" + addr}
		}
		select {
		case <-exited:
			b, _ := os.ReadFile(out)
			t.Fatalf("%s exited: %s", cmd, b)
		default:
		}
		require.Less(t, time.Since(start), 10*time.Second, "%s did not start", cmd)
	}
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// proxyCert returns the certificate and key the proxies serve: the script's (from
// PROXIES_CERT and PROXIES_KEY), else httptest's written to files; and a pool that
// trusts it.
func proxyCert(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	certFile, keyFile = os.Getenv("PROXIES_CERT"), os.Getenv("PROXIES_KEY")
	if certFile == "" {
		cert, _ := testCert(t)
		dir := t.TempDir()
		require.NoError(t, os.Chmod(dir, 0o755))
		certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
		der, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]}), 0o644))
		require.NoError(t, os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o644))
	}
	b, err := os.ReadFile(certFile)
	require.NoError(t, err)
	pool = x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(b))
	return certFile, keyFile, pool
}
