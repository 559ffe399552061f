#!/usr/bin/env bash
# Start-and-proxy smoke test of a built gw: starts it (by default `node --no-node-snapshot
# dist/app/main.js`, or the command given, e.g. `npm start`) in the current folder on free ports
# with its data in a temporary folder, checks GET /hello, creates a keyless API through the
# gateway's management API and proxies a request to a local upstream, then sends SIGTERM to the
# started process and expects gw to log its shutdown and exit 0, leaving no process behind.
#   scripts/smoke.sh [command...]      (uses the `node` on PATH)
# GW_GATEWAY_PORT and GW_DASHBOARD_PORT choose the ports (default: free ones); SMOKE_HEALTHCHECK,
# when set, is a command that must succeed while gw runs (the Docker image's health check).
set -euo pipefail
[ $# -gt 0 ] || set -- node --no-node-snapshot dist/app/main.js
tmp=$(mktemp -d)
gw_pid='' upstream_pid=''
cleanup() {
  for pid in $gw_pid $upstream_pid; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "smoke: $*" >&2; echo "--- gw output:" >&2; cat "$tmp/gw.log" >&2 || true; exit 1; }

# The upstream: answers every request with its method and path as JSON.
node -e '
  const server = require("node:http").createServer((req, res) => res.end(JSON.stringify({ upstream: true, method: req.method, url: req.url })));
  server.listen(0, "127.0.0.1", () => console.log(server.address().port));
' >"$tmp/upstream.port" &
upstream_pid=$!

export GW_HOST=127.0.0.1 GW_GATEWAY_PORT=${GW_GATEWAY_PORT:-0} GW_DASHBOARD_PORT=${GW_DASHBOARD_PORT:-0}
GW_DATA_DIR="$tmp/data" GW_APPS_DIR="$tmp/apps" GW_DATABASE_URL="sqlite:$tmp/data/gw.sqlite" \
  "$@" >"$tmp/gw.log" 2>&1 &
gw_pid=$!
for _ in $(seq 1 240); do
  grep -q 'Gateway:' "$tmp/gw.log" 2>/dev/null && [ -s "$tmp/upstream.port" ] && break
  kill -0 "$gw_pid" 2>/dev/null || fail "exited before it printed its URLs"
  sleep 0.5
done
gateway=$(grep -Eo 'Gateway: +http://[^ ]+' "$tmp/gw.log" | grep -Eo 'http://.*') || fail "printed no gateway URL in 120 s"
upstream=http://127.0.0.1:$(cat "$tmp/upstream.port")
secret=$(node -p "require('$tmp/data/secrets.json').secret")

[ "$(curl -s -o /dev/null -w '%{http_code}' "$gateway/hello")" = 200 ] || fail "GET /hello did not answer 200"
curl -sf -X POST "$gateway/gw/apis" -H "x-gw-authorization: $secret" -d '{"name": "smoke", "org_id": "smoke",
  "use_keyless": true, "proxy": {"listen_path": "/smoke/", "target_url": "'"$upstream"'", "strip_listen_path": true}}' >/dev/null \
  || fail "POST /gw/apis failed"
if [ -n "${SMOKE_HEALTHCHECK:-}" ]; then sh -c "$SMOKE_HEALTHCHECK" || fail "the health check ($SMOKE_HEALTHCHECK) failed"; fi
answer=$(curl -s "$gateway/smoke/ping?x=1")
case $answer in *'"upstream":true'*'"url":"/ping?x=1"'*) ;; *) fail "the proxied request got: $answer" ;; esac

kill -TERM "$gw_pid"
status=0
for _ in $(seq 1 60); do kill -0 "$gw_pid" 2>/dev/null || break; sleep 0.5; done
kill -0 "$gw_pid" 2>/dev/null && fail "still running 30 s after SIGTERM"
wait "$gw_pid" || status=$?
gw_pid=''
grep -q 'SIGTERM received' "$tmp/gw.log" || fail "did not log its shutdown on SIGTERM (exit status $status)"
[ "$status" = 0 ] || fail "exited with status $status after SIGTERM"
curl -s -o /dev/null --max-time 2 "$gateway/hello" && fail "something still answers on $gateway after the exit"
echo "smoke: node $(node -v): /hello, a proxied request and SIGTERM shutdown ok ($*)"
