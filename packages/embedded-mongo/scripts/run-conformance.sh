#!/usr/bin/env bash
# Runs MongoDB's unified spec tests (SPECDIR) with the unified runner (RUNNERDIR) against an in-memory
# embedded server on a free port. Fails on any failed test not listed in conformance-skips.json.
set -euo pipefail

SPEC_DIR="$(cd "${1:?usage: run-conformance.sh SPECDIR RUNNERDIR}" && pwd)"
RUNNER_DIR="$(cd "${2:?usage: run-conformance.sh SPECDIR RUNNERDIR}" && pwd)"
PKG_DIR="$(cd "$(dirname "$0")/.." && pwd)"
REPO_DIR="$(cd "$PKG_DIR/../.." && pwd)"
WORK_DIR="$(mktemp -d "${TMPDIR:-/tmp}/conformance.XXXXXX")"
SERVER_PID=""

cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK_DIR"
}
trap cleanup EXIT

(cd "$REPO_DIR" && npm run build -w @ccb/embedded-mongo --silent)

node "$PKG_DIR/dist/cli.js" --port 0 > "$WORK_DIR/server.out" &
SERVER_PID=$!
for _ in $(seq 1 100); do
  grep -q '^mongodb://' "$WORK_DIR/server.out" 2>/dev/null && break
  sleep 0.1
done
URI="$(head -n 1 "$WORK_DIR/server.out")"
[ -n "$URI" ] || { echo "embedded server did not start" >&2; exit 1; }

# The runner depends only on the mongodb driver, which this repository already has.
NODE_PATH="$REPO_DIR/node_modules" node "$RUNNER_DIR/run.js" --uri "$URI" --dir "$SPEC_DIR" \
  --json "$WORK_DIR/results.json" > "$WORK_DIR/run.log" 2>&1 || true


node "$PKG_DIR/scripts/check-conformance.js" "$WORK_DIR/results.json" "$PKG_DIR/conformance-skips.json" "$WORK_DIR/run.log"
