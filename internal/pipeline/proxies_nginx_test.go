//go:build proxies

package pipeline_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// nginx in the matrix: Debian 12's 1.22.1 takes "listen ... ssl http2"; from 1.25.1
// the config says "http2 on;". A reload is SIGHUP to the master: old workers finish
// what they hold and send GOAWAY on their HTTP/2 connections.
var nginxProxy = proxyKind{name: "nginx", start: startNginx}

func startNginx(t *testing.T, s proxySetup) *proxy {
	bin := lookBin(t, "nginx")
	out, err := exec.Command(bin, "-v").CombinedOutput()
	require.NoError(t, err, "%s", out)
	listenH2, h2On := " http2", ""
	if m := regexp.MustCompile(`nginx/(\d+)\.(\d+)\.(\d+)`).FindStringSubmatch(string(out)); m != nil {
		major, _ := strconv.Atoi(m[1])
		minor, _ := strconv.Atoi(m[2])
		patch, _ := strconv.Atoi(m[3])
		if major > 1 || minor > 25 || (minor == 25 && patch >= 1) {
			listenH2, h2On = "", "http2 on;"
		}
	}
	directives := ""
	if s.keepAlive > 0 {
		directives += fmt.Sprintf("keepalive_timeout %dms;\n", s.keepAlive.Milliseconds())
	}
	if s.oneRequest {
		directives += "keepalive_requests 1;\n" // HTTP/1.1 and, since 1.19.7, HTTP/2 streams
	}
	if s.oneStream {
		directives += "http2_max_concurrent_streams 1;\n"
	}
	addr, dir := freeAddr(t), t.TempDir()
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
`, dir, s.upstream, addr, listenH2, h2On, s.cert, s.key, directives)
	confFile := filepath.Join(dir, "nginx.conf")
	require.NoError(t, os.WriteFile(confFile, []byte(conf), 0o600))
	cmd := exec.Command(bin, "-p", dir, "-e", filepath.Join(dir, "error.log"), "-c", confFile, "-g", "daemon off;")
	p := runProxy(t, cmd, addr, syscall.SIGQUIT, filepath.Join(dir, "error.log"))
	p.reload = func() error { return cmd.Process.Signal(syscall.SIGHUP) }
	return p
}
