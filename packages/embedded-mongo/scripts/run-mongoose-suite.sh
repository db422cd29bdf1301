#!/usr/bin/env bash
# Manual, on-demand compatibility check (not CI): runs mongoose's own mocha suite against this server.
#
#   bash packages/embedded-mongo/scripts/run-mongoose-suite.sh /path/to/mongoose-checkout [report.json]
#
# The checkout is a mongoose source tree (a release tag) outside this repository, its dev dependencies
# installed beforehand from the npm registry with
#   MONGOMS_DISABLE_POSTINSTALL=1 npm install --ignore-scripts
# (no mongod binary is downloaded: MONGOOSE_TEST_URI makes the suite use our server instead of
# mongodb-memory-server). This script downloads nothing. It starts the server in memory on a free port,
# runs the suite with mocha's JSON reporter into the report file and prints the totals.
set -euo pipefail

suite=${1:?usage: run-mongoose-suite.sh <mongoose-checkout> [report.json]}
report=$(realpath -m "${2:-${TMPDIR:-/tmp}/mongoose-suite-report.json}")
here=$(cd "$(dirname "$0")/.." && pwd)

npm run build --prefix "$here" --silent
uri_file=$(mktemp)
node "$here/dist/cli.js" --port 0 >"$uri_file" &
server_pid=$!
trap 'kill "$server_pid" 2>/dev/null || true; rm -f "$uri_file"' EXIT
for _ in $(seq 1 100); do
  [ -s "$uri_file" ] && break
  sleep 0.1
done
uri=$(head -n 1 "$uri_file")
echo "embedded server at $uri"

cd "$suite"
# Encryption tests need mongocryptd and a replica set; mongoose's own `npm test` leaves them out too.
MONGOOSE_TEST_URI="$uri/mongoose_test" npx mocha --exit --timeout 20000 \
  --ignore 'test/encryption/**/*.test.js' --reporter json --reporter-option "output=$report" \
  './test/**/*.test.js' || true

node -e '
  const s = require(process.argv[1]).stats;
  const executed = s.passes + s.failures;
  console.log(`executed ${executed}, passed ${s.passes}, failed ${s.failures}, pending ${s.pending}, ` +
    `pass rate ${(100 * s.passes / executed).toFixed(2)} %`);
' "$report"
echo "report: $report"
