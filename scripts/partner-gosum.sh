#!/usr/bin/env bash
# A partner's go.sum stays lean (api.md, Fifth wave, "Versions"): what the SDK adds to
# the go.sum of a module that imports insurance and insurancetest, counted as a partner
# would see it.
#
# A temporary module with a main.go that uses both requires the SDK, with a replace to
# this checkout, and is tidied. The check fails when its go.sum has more than 26 lines,
# or when any line belongs to the OpenAPI validator's graph, which only the contract/
# module may need (the offending lines are named). The count is printed either way.
#
# Exits non-zero with a line starting "partner-gosum: FAIL" on any failure.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
core=github.com/partnerinsure/insurance-go
limit=26

# The modules the validator (github.com/getkin/kin-openapi) brings that the SDK does
# not need: as long as root tests imported it, a partner's go.sum had 14 lines of them (7 modules).
validator='^(github\.com/getkin/|github\.com/gorilla/mux |github\.com/oasdiff/|github\.com/santhosh-tekuri/|github\.com/go-openapi/|github\.com/mailru/easyjson |github\.com/josharian/intern |github\.com/perimeterx/marshmallow |github\.com/mohae/deepcopy |github\.com/woodsbury/decimal128 |github\.com/invopop/yaml |github\.com/ugorji/go)'

fail() {
  echo "partner-gosum: FAIL: $*" >&2
  exit 1
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cat >"$work/go.mod" <<EOF
module example.com/partner

go 1.26

require $core v0.0.0

replace $core => $root
EOF
cat >"$work/main.go" <<'EOF'
// Command partner uses the SDK and its sandbox, as a partner's own tests would.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/partnerinsure/insurance-go"
	"github.com/partnerinsure/insurance-go/insurancetest"
)

func main() {
	srv := insurancetest.NewServer()
	defer srv.Close()
	var c *insurance.Client = srv.Client()
	products, err := c.ListProducts(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, "partner:", err)
		os.Exit(1)
	}
	fmt.Println(len(products.Products), "products")
}
EOF

(cd "$work" && GOWORK=off GOFLAGS=-mod=mod go mod tidy) || fail "go mod tidy fails in a partner module that requires $core"
(cd "$work" && GOWORK=off go vet .) || fail "the partner module does not build"

count="$(wc -l <"$work/go.sum")"
echo "partner-gosum: a partner module importing insurance and insurancetest has $count go.sum lines (at most $limit)"
status=0
if offending="$(grep -E "$validator" "$work/go.sum")"; then
  echo "partner-gosum: FAIL: lines of the OpenAPI validator's graph, which belongs in contract/:" >&2
  echo "$offending" >&2
  status=1
fi
if [ "$count" -gt "$limit" ]; then
  echo "partner-gosum: FAIL: $count go.sum lines, more than $limit:" >&2
  cat "$work/go.sum" >&2
  status=1
fi
exit "$status"
