#!/bin/sh
# `npm start`. A development install (TypeScript present) builds first; a production install
# (`npm ci --omit=dev` next to a built dist/) runs what is there. Then node replaces this shell
# (`exec`, and `exec` in package.json's start script too), so the SIGINT and SIGTERM npm
# forwards to its child reach gw itself and start its graceful shutdown.
set -e
cd "$(dirname "$0")/.."
# The native database module crashes on older lines, and the OpenTelemetry SDK wants 22.15: say so in one line instead.
major=$(node -p 'process.versions.node.split(".")[0]')
minor=$(node -p 'process.versions.node.split(".")[1]')
if [ "$major" -lt 22 ] || { [ "$major" -eq 22 ] && [ "$minor" -lt 15 ]; }; then
  echo "gw: Node.js $(node -v) is not supported: use Node.js 22.15 or later, 24 or 26 (see docs/deploying.md#nodejs-versions)" >&2
  exit 1
fi
if [ -f node_modules/typescript/package.json ]; then
  npm run --silent build
elif [ ! -f dist/app/main.js ]; then
  echo "gw: dist/ is not built, and this install has no build tools (npm ci --omit=dev)." >&2
  echo "gw: build with a full install (npm ci && npm run build), then start again." >&2
  exit 1
fi
# isolated-vm, which runs virtual endpoints, needs node's own startup snapshot off.
exec node --no-node-snapshot dist/app/main.js "$@"
