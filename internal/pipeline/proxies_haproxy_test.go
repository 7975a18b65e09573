//go:build proxies

package pipeline_test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// HAProxy in the matrix (Debian 12: 2.6) in master-worker mode (-W) with a master
// socket (-S): a reload is the master CLI's "reload", which starts new workers and
// soft-stops the old ones (GOAWAY on their HTTP/2 connections, idle HTTP/1.1 ones
// closed). HAProxy wants the certificate and its key in one file.
var haproxyProxy = proxyKind{name: "haproxy", start: startHAProxy}

func startHAProxy(t *testing.T, s proxySetup) *proxy {
	bin := lookBin(t, "haproxy")
	addr, dir := freeAddr(t), t.TempDir()
	pem := filepath.Join(dir, "cert+key.pem")
	cert, err := os.ReadFile(s.cert)
	require.NoError(t, err)
	key, err := os.ReadFile(s.key)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(pem, append(cert, key...), 0o600))

	global, defaults, frontend := "", "", ""
	if s.keepAlive > 0 {
		defaults += fmt.Sprintf("\ttimeout http-keep-alive %dms\n", s.keepAlive.Milliseconds())
	}
	if s.oneRequest {
		frontend += "\toption httpclose\n"
	}
	if s.oneStream {
		global += "\ttune.h2.max-concurrent-streams 1\n"
	}
	conf := fmt.Sprintf(`global
	maxconn 4096
	log stderr format short local0 warning
%[1]s
defaults
	mode http
	log global
	timeout connect 2s
	timeout client 30s
	timeout server 30s
%[2]s
frontend fe
	bind %[3]s ssl crt %[4]s alpn h2,http/1.1
%[5]s	default_backend be

backend be
	server up %[6]s
`, global, defaults, addr, pem, frontend, s.upstream)
	confFile := filepath.Join(dir, "haproxy.cfg")
	require.NoError(t, os.WriteFile(confFile, []byte(conf), 0o600))
	sock := filepath.Join(dir, "master.sock")
	cmd := exec.Command(bin, "-W", "-S", sock, "-f", confFile)
	p := runProxy(t, cmd, addr, syscall.SIGTERM)
	p.reload = func() error { return masterCLI(sock, "reload") }
	return p
}

// masterCLI sends one command to HAProxy's master socket. The master re-executes
// itself on a reload, and its socket refuses connections meanwhile: the dial is tried
// again for up to 2 s.
func masterCLI(sock, command string) error {
	var c net.Conn
	var err error
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if c, err = net.DialTimeout("unix", sock, time.Second); err == nil || time.Now().After(deadline) {
			break
		}
	}
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Write([]byte(command + "\n"))
	return err
}
