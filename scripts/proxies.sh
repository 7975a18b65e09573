#!/usr/bin/env bash
# Usage: scripts/proxies.sh [runs] [proxy...]
# The proxy matrix of docs/reliability.md: the SDK behind nginx, HAProxy, Apache httpd
# and Caddy as Debian 12 ships them, each terminating TLS with h2 and http/1.1 offered
# (ALPN) in front of a counting upstream (the test's own server), driven by
# internal/pipeline/proxies_test.go (build tag proxies). Scenarios per proxy: a steady burst; a reload
# (graceful restart) mid-burst, and three; keep-alive expiry at 2 s with calls 1.999-2.001 s
# apart; one request per connection; one stream per connection; the upstream answering
# 502/503/504, dead, and dead then back (with three reloads). Prints one markdown row
# per scenario and call kind for each of `runs` runs (default 1), then what failed.
# proxy: nginx, haproxy, apache, caddy (default: all four). PROXIES_RUN narrows the
# scenarios with a -run pattern of its own (e.g. PROXIES_RUN='reload'); PROXIES_SOAK
# sets the keep-alive scenario's calls per goroutine (default 5, about 10 s).
#
# Installs what is missing with apt-get (Debian 12: nginx 1.22, haproxy 2.6, apache2
# 2.4 with mod_http2 and mod_proxy_http, caddy 2.6). Each proxy runs as a child of the
# test, on free loopback ports, and is stopped by it.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1}
shift || true
proxies=("$@")
[ ${#proxies[@]} -gt 0 ] || proxies=(nginx haproxy apache caddy)

PATH=$PATH:/usr/sbin
missing=()
for p in "${proxies[@]}"; do
  case $p in
    nginx) command -v nginx >/dev/null || missing+=(nginx) ;;
    haproxy) command -v haproxy >/dev/null || missing+=(haproxy) ;;
    apache) command -v apache2 >/dev/null || missing+=(apache2) ;;
    caddy) command -v caddy >/dev/null || missing+=(caddy) ;;
    *) echo "unknown proxy $p (nginx, haproxy, apache, caddy)" >&2; exit 2 ;;
  esac
done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
for p in "${proxies[@]}"; do
  case $p in
    nginx) nginx -v 2>&1 ;;
    haproxy) haproxy -v | sed -n 1p ;;
    apache) apache2 -v | sed -n 1p ;;
    caddy) echo "caddy $(caddy version)" ;;
  esac
done
go version

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir" # Apache's children (www-data) read nothing here, but may traverse
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
  -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
export PROXIES_CERT=$dir/cert.pem PROXIES_KEY=$dir/key.pem

go test -tags proxies -c -o "$dir/proxies.test" ./internal/pipeline
pattern="^TestProxies\$/^($(IFS='|'; echo "${proxies[*]}"))\$"
[ -z "${PROXIES_RUN:-}" ] || pattern="$pattern/$PROXIES_RUN"
status=0
for r in $(seq 1 "$runs"); do
  echo "== run $r of $runs ($(git rev-parse --short HEAD)), -run '$pattern'"
  start=$(date +%s)
  (cd "$dir" && ./proxies.test -test.run "$pattern" -test.v -test.timeout 30m) > "$dir/out.txt" 2>&1 || status=1
  # the table rows (the header once), then the assertions that failed
  sed -n 's/^ *proxies_[a-z]*_\{0,1\}[a-z]*test.go:[0-9]*: \(|.*\)$/\1/p' "$dir/out.txt" | awk '!/^\| proxy \|/ || !seen++' | awk '!/^\|---/ || !s2++'
  grep -E '^\s+(Error:|Messages:)|^\s+--- FAIL|^(ok|FAIL|PASS)$' "$dir/out.txt" || true
  echo "(run took $(( $(date +%s) - start )) s)"
  [ -z "${PROXIES_KEEP:-}" ] || cp "$dir/out.txt" "$PROXIES_KEEP.$r"
done
exit $status
