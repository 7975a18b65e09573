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

// Apache httpd in the matrix (Debian 12: 2.4 with the event MPM, mod_ssl, mod_http2,
// mod_proxy_http), with its own config (-d, -f) in the foreground; a graceful restart
// is `apache2 -k graceful` with the same config (SIGUSR1 to the parent). The worker
// is given retry=0, so that mod_proxy tries a dead upstream again on every request
// instead of answering 503 for 60 s after one refused connection.
var apacheProxy = proxyKind{name: "apache", start: startApache}

func startApache(t *testing.T, s proxySetup) *proxy {
	bin := lookBin(t, "apache2")
	addr, dir := freeAddr(t), t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o755)) // the children run as www-data
	const mods = "/usr/lib/apache2/modules"
	directives := ""
	if s.keepAlive > 0 {
		directives += fmt.Sprintf("KeepAliveTimeout %dms\n", s.keepAlive.Milliseconds())
	}
	if s.oneRequest {
		directives += "MaxKeepAliveRequests 1\n" // mod_http2 takes it as the streams a connection serves
	}
	if s.oneStream {
		directives += "H2MaxSessionStreams 1\n"
	}
	conf := fmt.Sprintf(`ServerRoot %[1]s
ServerName 127.0.0.1
Listen %[2]s
PidFile %[1]s/httpd.pid
ErrorLog %[1]s/error.log
LogLevel warn
DefaultRuntimeDir %[1]s
Mutex file:%[1]s default
User www-data
Group www-data
LoadModule mpm_event_module %[3]s/mod_mpm_event.so
LoadModule authz_core_module %[3]s/mod_authz_core.so
LoadModule socache_shmcb_module %[3]s/mod_socache_shmcb.so
LoadModule ssl_module %[3]s/mod_ssl.so
LoadModule http2_module %[3]s/mod_http2.so
LoadModule proxy_module %[3]s/mod_proxy.so
LoadModule proxy_http_module %[3]s/mod_proxy_http.so
SSLSessionCache shmcb:%[1]s/ssl_scache(512000)
Protocols h2 http/1.1
%[4]s
<VirtualHost %[2]s>
	SSLEngine on
	SSLCertificateFile %[5]s
	SSLCertificateKeyFile %[6]s
	ProxyPass / http://%[7]s/ retry=0
	ProxyPassReverse / http://%[7]s/
</VirtualHost>
`, dir, addr, mods, directives, s.cert, s.key, s.upstream)
	confFile := filepath.Join(dir, "httpd.conf")
	require.NoError(t, os.WriteFile(confFile, []byte(conf), 0o644))
	cmd := exec.Command(bin, "-d", dir, "-f", confFile, "-DFOREGROUND")
	p := runProxy(t, cmd, addr, syscall.SIGTERM, filepath.Join(dir, "error.log"))
	p.reload = func() error {
		out, err := exec.Command(bin, "-d", dir, "-f", confFile, "-k", "graceful").CombinedOutput()
		if err != nil {
			return fmt.Errorf("apache2 -k graceful: %w: %s", err, out)
		}
		return nil
	}
	return p
}
