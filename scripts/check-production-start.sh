#!/usr/bin/env bash
# The container image's build and start, checked without Docker (CI has none): `npm run build`, then in an
# empty directory only what the runtime stage holds — dist/ and package*.json with `npm ci --omit=dev` —
# and `node dist/main.js` must become ready (/readyz 200), serve, and stop with exit 0 on SIGTERM.
# Uses DATABASE_URL when set, the embedded database otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

npm run build

work=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

cp -r dist package.json package-lock.json "$work/"
(cd "$work" && npm ci --omit=dev --no-audit --no-fund)
if [ -d "$work/node_modules/vitest" ] || [ -d "$work/node_modules/eslint" ]; then
  echo "development dependencies were installed" >&2
  exit 1
fi

port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
url="http://127.0.0.1:$port"
(cd "$work" && exec env DATA_DIR="$work/data" HOST=127.0.0.1 PORT="$port" LOG_LEVEL=warn \
  DATABASE_URL="${DATABASE_URL:-}" node dist/main.js) &
pid=$!

ready=""
for _ in $(seq 1 240); do
  if curl -fsS "$url/readyz" >/dev/null 2>&1; then ready=1; break; fi
  kill -0 "$pid" 2>/dev/null || { echo "the node exited while starting" >&2; exit 1; }
  sleep 0.5
done
[ -n "$ready" ] || { echo "the node did not become ready at $url/readyz" >&2; exit 1; }

curl -fsS "$url/api/v2/version" >/dev/null
metrics=$(curl -fsS "$url/metrics")
grep -q '^ibax_chain_height 1$' <<<"$metrics"
openapi=$(curl -fsS "$url/api/v2/openapi.json")
grep -q '"openapi":"3.1.0"' <<<"$openapi"
# The browsable UI's files come from swagger-ui-dist in node_modules, beside the bundle.
curl -fsS "$url/api/docs/swagger-ui-bundle.js" >/dev/null

kill -TERM "$pid"
set +e
wait "$pid"
status=$?
set -e
pid=""
if [ "$status" -ne 0 ]; then
  echo "the node exited with $status on SIGTERM" >&2
  exit 1
fi
echo "production start: built, installed without development dependencies, ready, stopped with exit 0"
