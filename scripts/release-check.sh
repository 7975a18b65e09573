#!/usr/bin/env bash
# Release check (RELEASING.md): can a partner go get both modules at insurance.Version?
#
# 1. scripts/releasecheck cuts the core and otel/ at Version into a file-based module
#    proxy with golang.org/x/mod/zip, as proxy.golang.org will serve the tags, and
#    fails on a zip without LICENSE, a nested module's file in a zip, no CHANGELOG
#    heading for Version, or otel/go.mod requiring the core at another version.
# 2. A fresh partner module in a temporary directory requires both at that version,
#    with no replace and no workspace, and is vetted, built and run through that proxy
#    (then the GOPROXY in effect, for the dependencies) with a module cache of its own,
#    so no earlier cut of the same version can stand in for this one.
#
# Exits non-zero with a line starting "release-check: FAIL" on any failure.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
core=github.com/partnerinsure/insurance-go

fail() {
  echo "release-check: FAIL: $*" >&2
  exit 1
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT # the module cache below is made with -modcacherw: removable

version="$(go run -C "$root/scripts/releasecheck" . -root "$root" -proxy "$work/proxy")" ||
  fail "the modules could not be cut at Version (see releasecheck's FAIL lines above)"

partner="$work/partner"
mkdir -p "$partner"
cp "$root/scripts/releasecheck/testdata/partner/main.go" "$partner/"
cat >"$partner/go.mod" <<EOF
module example.com/partner

go 1.26

require (
	$core $version
	$core/otel $version
)
EOF
# The hashes of the dependencies, as this repository already verified them; the two
# modules cut above are not in the checksum database yet (GONOSUMDB below).
cat "$root/go.sum" "$root/otel/go.sum" | sort -u >"$partner/go.sum"

# Read before the environment changes: the proxy and flags in effect, and the local
# module cache, which serves as a proxy of its own for what it already holds.
upstream="$(go env GOPROXY)"
flags="$(go env GOFLAGS)"
downloads="$(go env GOMODCACHE)/cache/download"

echo "release-check: building a partner module that requires $core and $core/otel at $version, no replace"
(
  cd "$partner"
  export GOWORK=off GOPRIVATE= GONOPROXY= GONOSUMDB="$core" GOMODCACHE="$work/modcache"
  export GOPROXY="file://$work/proxy,file://$downloads,$upstream"
  export GOFLAGS="$flags -mod=mod -modcacherw"
  go build -o "$work/partner.bin" . || fail "the partner module does not build against the modules cut at $version"
  go vet . || fail "go vet fails in the partner module"
  resolved="$(go list -m -f '{{.Path}} {{.Version}} {{.Dir}}' "$core" "$core/otel")" ||
    fail "go list -m cannot resolve the cut modules"
  echo "$resolved" | sed "s|$work|\$tmp|; s|^|release-check:   |"
  while read -r path ver dir; do
    [ "$ver" = "$version" ] || fail "$path resolved to $ver, want $version"
    case "$dir" in
    "$work/modcache/"*) ;;
    *) fail "$path was built from $dir, not from the module cut at $version" ;;
    esac
  done <<<"$resolved"
)

out="$("$work/partner.bin" 2>&1)" || fail "the partner program failed: $out"
echo "release-check:   $out"
case "$out" in
"insurance-go/${version#v}:"*) ;;
*) fail "the partner program does not report insurance-go/${version#v}" ;;
esac
echo "release-check: ok: a partner can go get $core@$version and $core/otel@$version"
