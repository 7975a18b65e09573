#!/usr/bin/env bash
# The examples against api/openapi.yaml as Prism reads it (issue 21), run by .ci/run
# after `npm ci --ignore-scripts` in .ci/npm:
#
#  1. the sandbox (examples/sandbox) behind `prism proxy --errors`: the quickstart,
#     the command-line examples and the gap-medical checkout's backend (signed in with
#     its form's POST and CSRF token, then its page's two calls made with curl) run
#     through the proxy, and Prism must report no violation
#     of the document, requests or answers, errors (402) included; one injected 503
#     fault must pass too, as the JSON error the document allows. examples/mocking
#     runs its own in-process sandbox, with faults, so it is not run here;
#  2. `prism mock` (static answers made from the document alone): the quickstart must
#     complete against it.
#
# Every process it starts is killed on exit; ports are chosen free on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=.ci/npm/node_modules/.bin
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

# free_port sets port to one on 127.0.0.1 nothing listens on, above the last one.
port=19999
free_port() {
  port=$((port + 1))
  while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do
    port=$((port + 1))
  done
}

# wait_port waits (up to 60 s) until something listens on port $1.
wait_port() {
  for _ in $(seq 600); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
      return 0
    fi
    sleep 0.1
  done
  echo "nothing listens on 127.0.0.1:$1 after 60 s" >&2
  return 1
}

# check_log fails when Prism's log $1 holds a violation or a request it refused.
check_log() {
  if grep -E '✖|⚠|VIOLATIONS|Violation|UNPROCESSABLE|error|warning' "$1"; then
    echo "Prism reported the lines above: see $1" >&2
    return 1
  fi
}

for cmd in sandbox quickstart products travel-quote tuition-purchase onboard-partner events gap-medical-checkout; do
  go build -o "$work/$cmd" "./examples/$cmd"
done

id=ci_prism
secret=cs_prism_$RANDOM$RANDOM
free_port && sandbox_port=$port
free_port && proxy_port=$port
free_port && mock_port=$port

"$work/sandbox" -addr "127.0.0.1:$sandbox_port" -client-id "$id" -client-secret "$secret" >"$work/sandbox.log" 2>&1 &
pids+=($!)
"$bin/prism" proxy api/openapi.yaml "http://127.0.0.1:$sandbox_port" --errors -h 127.0.0.1 -p "$proxy_port" >"$work/proxy.log" 2>&1 &
pids+=($!)
"$bin/prism" mock api/openapi.yaml -h 127.0.0.1 -p "$mock_port" >"$work/mock.log" 2>&1 &
pids+=($!)
wait_port "$sandbox_port"
wait_port "$proxy_port" || { cat "$work/proxy.log"; exit 1; }
wait_port "$mock_port" || { cat "$work/mock.log"; exit 1; }

export INSURANCE_CLIENT_ID=$id INSURANCE_CLIENT_SECRET=$secret
sandbox_url=http://127.0.0.1:$sandbox_port

# tuition_quote makes a tuition quote on the sandbox (a control, not the interface).
tuition_quote() {
  curl -sS --fail-with-body -u "$id:$secret" -H 'Content-Type: application/json' \
    -d '{"customer_email_address": "ada@example.com"}' "$sandbox_url/sandbox/tuition-quotes" |
    sed -n 's/.*"quote_id": *"\([^"]*\)".*/\1/p'
}

echo "-- through prism proxy --errors in front of the sandbox"
export INSURANCE_BASE_URL=http://127.0.0.1:$proxy_port
"$work/quickstart" -tuition-quote "$(tuition_quote)"
"$work/products"
travel=$("$work/travel-quote")
echo "$travel"
quote=$(sed -n 's/^Quote \([^ ]*\) created.*/\1/p' <<<"$travel")
"$work/travel-quote" -quote-id "$quote" -trip-cost 3000
"$work/tuition-purchase" -quote-id "$(tuition_quote)" -card 4000000000000002
"$work/tuition-purchase" -quote-id "$(tuition_quote)"
"$work/onboard-partner" -name "Acme Travel" -email admin@acme.example -country CA -travel-retailer
"$work/events" -name "Partner Summit" -start 2027-06-01 -end 2027-06-03 -city Chicago

echo "-- the gap-medical checkout: its backend, then the page's two calls (as curl), through the proxy"
free_port && checkout_port=$port
"$work/gap-medical-checkout" -addr "127.0.0.1:$checkout_port" -component-url "$sandbox_url/sandbox/gap-medical.js" >"$work/checkout.log" 2>&1 &
pids+=($!)
wait_port "$checkout_port" || { cat "$work/checkout.log"; exit 1; }
# As a browser does: the sign-in page sets the CSRF cookie and puts its token in the
# form; the form's POST returns both, and only then is a customer secret minted.
checkout_url=http://127.0.0.1:$checkout_port
sign_in=$(curl -sS --fail-with-body -c "$work/checkout.cookies" "$checkout_url/")
csrf_token=$(sed -n 's/.*name="csrf_token" value="\([^"]*\)".*/\1/p' <<<"$sign_in")
if [ -z "$csrf_token" ]; then
  echo "the sign-in page holds no CSRF token:" >&2
  echo "$sign_in" >&2
  exit 1
fi
page=$(curl -sS --fail-with-body -b "$work/checkout.cookies" --data-urlencode "email=ada@example.com" \
  --data-urlencode "csrf_token=$csrf_token" "$checkout_url/checkout")
customer_secret=$(sed -n 's/.*secret: "\([^"]*\)".*/\1/p' <<<"$page")
coverage_start=$(sed -n 's/.*coverageStart: "\([^"]*\)".*/\1/p' <<<"$page")
if [ -z "$customer_secret" ] || [ -z "$coverage_start" ]; then
  echo "the checkout page holds no customer secret or coverage start date:" >&2
  echo "$page" >&2
  exit 1
fi
gap_quote=$(curl -sS --fail-with-body -H "x-api-client-id: $id" -H 'Content-Type: application/json' -H 'Accept: application/json' \
  -d '{"customer": {"email_address": "ada@example.com"}, "policy_attributes": {"coverage_start_date": "'"$coverage_start"'"}}' \
  "$INSURANCE_BASE_URL/v1/quote/gap-medical" | sed -n 's/.*"quote_id": *"\([^"]*\)".*/\1/p')
curl -sS --fail-with-body -H "Authorization: Bearer $customer_secret" -H 'Content-Type: application/json' -H 'Accept: application/json' \
  -d '{"quote_id": "'"$gap_quote"'", "payment_method": {"token": "tok_ok"}}' "$INSURANCE_BASE_URL/v1/purchase/gap-medical"
echo

echo "-- a status fault, through the proxy: a JSON error the document allows"
curl -sS --fail-with-body -u "$id:$secret" -H 'Content-Type: application/json' \
  -d '{"route": "GET /v1/products", "times": 1, "status": 503}' "$sandbox_url/sandbox/faults" >/dev/null
status=$(curl -sS -o "$work/fault.json" -w '%{http_code}' -u "$id:$secret" "$INSURANCE_BASE_URL/v1/products")
if [ "$status" != 503 ]; then
  echo "the injected 503 came through the proxy as $status: $(cat "$work/fault.json")" >&2
  exit 1
fi
check_log "$work/proxy.log"
echo "Prism proxy: no violation in $(grep -c 'Request received' "$work/proxy.log") requests"

echo "-- against prism mock (answers made from the document alone)"
export INSURANCE_BASE_URL=http://127.0.0.1:$mock_port
"$work/quickstart"
check_log "$work/mock.log"
echo "Prism mock: the quickstart completed"
