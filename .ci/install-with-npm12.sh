#!/usr/bin/env bash
# Issue 19: the README's first command must work with the npm that is current (12), which runs a
# dependency's install script only when package.json's `allowScripts` names it. Installs a fresh copy of
# the working tree with npm 12, checks that the pinned Node 24 arrived with no warning about unreviewed
# install scripts, starts the gateway with `npm start` and asks /healthz. Then checks that the npm scripts
# refuse the shell's older Node with one sentence instead of a stack trace.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
# The gateway runs in its own process group (setsid) so that npm, its shell and Node all stop together.
stop_gateway() { if [ "${gateway_pid:-0}" -gt 0 ]; then kill -- "-$gateway_pid" 2>/dev/null || true; wait "$gateway_pid" 2>/dev/null || true; gateway_pid=0; fi; }
trap 'stop_gateway; rm -rf "$work"' EXIT

# The tracked files only, as a fresh clone has them.
git -C "$here" ls-files -z | (cd "$here" && xargs -0 cp --parents -t "$work")
cd "$work"

npx -y npm@12 --version
npx -y npm@12 ci --no-audit --no-fund >install.log 2>&1 || { cat install.log; exit 1; }
cat install.log
if grep -q 'not yet covered by allowScripts\|blocked because they are not covered' install.log; then
  echo "npm 12 reported install scripts not covered by allowScripts" >&2
  exit 1
fi
test -x node_modules/.bin/node || { echo "npm 12 did not install the pinned Node (node_modules/.bin/node missing)" >&2; exit 1; }
version="$(node_modules/.bin/node --version)"
case "$version" in v24.*) ;; *) echo "pinned Node is $version, not 24" >&2; exit 1 ;; esac
# Claude Code (a test client, test/agents) works only once its allowed postinstall has linked the native
# binary over the package's stub; Gemini CLI is plain JavaScript.
node_modules/.bin/claude --version | grep -q 'Claude Code' || { echo "claude does not run after an npm 12 install (allowScripts?)" >&2; exit 1; }
node_modules/.bin/node node_modules/.bin/gemini --version

port=$((20000 + RANDOM % 20000))
PORT=$port HOST=127.0.0.1 DATA_DIR="$work/data" DATABASE_URL="sqlite:$work/data/gateway.db" LOG_LEVEL=warn \
  setsid npx -y npm@12 start >gateway.log 2>&1 &
gateway_pid=$!
for _ in $(seq 1 100); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >health.json 2>/dev/null; then break; fi
  sleep 0.2
done
[ -s health.json ] || { cat gateway.log; echo "the gateway did not answer /healthz" >&2; exit 1; }
cat health.json
echo
stop_gateway

# The wrong Node gets one sentence: run the scripts as if the pinned Node had not been installed.
system_node="$(command -v node)"
if [ "$("$system_node" -p 'process.versions.node.split(".")[0]')" != 24 ]; then
  mv node_modules/.bin/node node_modules/.bin/node.pinned
  set +e
  npm start >wrong-node.log 2>&1
  status=$?
  set -e
  cat wrong-node.log
  [ "$status" -ne 0 ] || { echo "npm start ran on the wrong Node" >&2; exit 1; }
  grep -q 'This project needs Node.js 24 but found Node.js' wrong-node.log || { echo "no clear sentence about the Node version" >&2; exit 1; }
  ! grep -q 'ERR_UNKNOWN_FILE_EXTENSION' wrong-node.log || { echo "a stack trace instead of the sentence" >&2; exit 1; }
fi
echo "npm 12 install check: ok"
