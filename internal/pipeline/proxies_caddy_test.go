//go:build proxies

package pipeline_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// Caddy in the matrix (Debian 12: 2.6), from a Caddyfile with the certificate given
// (no ACME, no port 80), h1 and h2 only; a reload is `caddy reload` through the admin
// endpoint, which swaps the config and shuts the old servers down gracefully (Go's
// http.Server.Shutdown: GOAWAY, idle connections closed). One request per connection
// is `header Connection close`: Go's HTTP/2 server takes that header as "GOAWAY after
// this stream" and its HTTP/1.1 server closes the connection. Caddy 2.6 has no knob
// for HTTP/2's concurrent streams.
var caddyProxy = proxyKind{name: "caddy", start: startCaddy}

func startCaddy(t *testing.T, s proxySetup) *proxy {
	bin := lookBin(t, "caddy")
	if s.oneStream {
		t.Skip("Caddy 2.6 cannot limit the streams of an HTTP/2 connection")
	}
	addr, admin, dir := freeAddr(t), freeAddr(t), t.TempDir()
	timeouts, site := "", ""
	if s.keepAlive > 0 {
		timeouts = fmt.Sprintf("timeouts {\n\t\t\tidle %dms\n\t\t}", s.keepAlive.Milliseconds())
	}
	if s.oneRequest {
		site += "\theader Connection close\n"
	}
	conf := fmt.Sprintf(`{
	admin %[1]s
	auto_https disable_redirects
	storage file_system %[2]s/data
	servers {
		protocols h1 h2
		%[3]s
	}
}

https://%[4]s {
	tls %[5]s %[6]s
%[7]s	reverse_proxy %[8]s
}
`, admin, dir, timeouts, addr, s.cert, s.key, site, s.upstream)
	confFile := filepath.Join(dir, "Caddyfile")
	require.NoError(t, os.WriteFile(confFile, []byte(conf), 0o600))
	env := append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	cmd := exec.Command(bin, "run", "--config", confFile, "--adapter", "caddyfile")
	cmd.Env = env
	p := runProxy(t, cmd, addr, syscall.SIGTERM)
	p.reload = func() error {
		// --force: the Caddyfile is unchanged, and caddy skips an unchanged config
		c := exec.Command(bin, "reload", "--config", confFile, "--adapter", "caddyfile", "--address", admin, "--force")
		c.Env = env
		if out, err := c.CombinedOutput(); err != nil {
			return fmt.Errorf("caddy reload: %w: %s", err, out)
		}
		return nil
	}
	return p
}
