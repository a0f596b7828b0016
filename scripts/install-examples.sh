#!/usr/bin/env bash
# Installs every example in examples/ from its own lockfile, with the package as it is built now (npm run build
# first): each example's .npmrc says install-links, so the package is copied in, not linked.
set -euo pipefail
cd "$(dirname "$0")/.."
for dir in examples/*/; do
  echo "examples: installing $dir"
  # npm ci would keep a copy of the package made from an earlier build: take it out first.
  rm -rf "$dir/node_modules/apollo-link-token-pair"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
done
