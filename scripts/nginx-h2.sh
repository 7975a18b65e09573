#!/usr/bin/env bash
# Usage: scripts/nginx-h2.sh [runs]
# The HTTP/2 scenarios of docs/reliability.md behind a real proxy: Debian's nginx on
# loopback terminating TLS with HTTP/2 (ALPN h2 and http/1.1) in front of a counting
# upstream (the test's own server), driven by nginx_test.go (build tag nginx):
# keepalive_requests 1; http2_max_concurrent_streams 1; a keepalive_timeout 2s soak
# with calls 1.999-2.001 s apart; an nginx reload in the middle of a burst of 64
# goroutines buying and 64 quoting. Prints one table row per scenario and call kind,
# for each of `runs` runs (default 1). NGINX_H2_SOAK sets the soak's calls per
# goroutine (default 15, about 30 s).
#
# Installs nginx with apt-get if it is missing (Debian 12 gives 1.22.1, which takes
# "listen ... ssl http2"; from 1.25.1 the test writes "http2 on;"). nginx runs as a
# child of the test, on a free loopback port, and is stopped by it.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1}

if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx >/dev/null
fi
PATH=$PATH:/usr/sbin
nginx -v

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
export NGINX_H2_CERT=$dir/cert.pem NGINX_H2_KEY=$dir/key.pem

go test -tags nginx -c -o "$dir/nginx.test" .
status=0
for r in $(seq 1 "$runs"); do
  echo "== run $r of $runs ($(git rev-parse --short HEAD))"
  "$dir/nginx.test" -test.run '^TestNginx$' -test.v > "$dir/out.txt" 2>&1 || status=1
  # the table rows, then the assertions that failed
  sed -n 's/^ *nginx_test.go:[0-9]*: \(|.*\)$/\1/p' "$dir/out.txt"
  grep -E '^\s+(Error:|Messages:)|^--- FAIL|^\s+--- FAIL|^(ok|FAIL|PASS)$' "$dir/out.txt" || true
done
exit $status
