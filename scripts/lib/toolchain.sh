# shellcheck shell=bash
# Provisions the project's toolchain: Node 24 LTS and pnpm, both from the npm registry, into
# .tools/ (the npm registry's `node` package ships the Node binary). Then installs the workspace's
# dependencies from the lockfile when they are missing or the lockfile changed.
# Source it, then call `lectern_toolchain`; afterwards `node` and `pnpm` on PATH are the project's.

LECTERN_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
LECTERN_NODE_VERSION="24.21.0"
LECTERN_PNPM_VERSION="10.34.8"

lectern_log() { printf '[lectern setup] %s\n' "$*" >&2; }

lectern_toolchain() {
  local tools="$LECTERN_ROOT/.tools"
  local node_bin
  node_bin="$(command -v node || true)"
  if [[ -z "$node_bin" ]] || [[ "$("$node_bin" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "24" ]]; then
    if [[ ! -x "$tools/node_modules/.bin/node" ]] || [[ "$("$tools/node_modules/.bin/node" --version)" != "v$LECTERN_NODE_VERSION" ]]; then
      command -v npm >/dev/null || { lectern_log "npm is needed to fetch Node $LECTERN_NODE_VERSION: install Node.js and npm (any version), then run this again."; return 1; }
      lectern_log "installing Node $LECTERN_NODE_VERSION and pnpm $LECTERN_PNPM_VERSION into .tools/ (once)"
      mkdir -p "$tools"
      (cd "$tools" && npm install --prefix "$tools" --no-save --no-audit --no-fund --loglevel=error \
        "node@$LECTERN_NODE_VERSION" "pnpm@$LECTERN_PNPM_VERSION" >&2) || { lectern_log "could not install Node from the npm registry; check that the registry is reachable"; return 1; }
    fi
    export PATH="$tools/node_modules/.bin:$PATH"
  fi
  if ! command -v pnpm >/dev/null || [[ "$(pnpm --version 2>/dev/null)" != "$LECTERN_PNPM_VERSION" ]]; then
    if [[ ! -x "$tools/node_modules/.bin/pnpm" ]] || [[ "$("$tools/node_modules/.bin/pnpm" --version)" != "$LECTERN_PNPM_VERSION" ]]; then
      lectern_log "installing pnpm $LECTERN_PNPM_VERSION into .tools/ (once)"
      mkdir -p "$tools"
      (cd "$tools" && npm install --prefix "$tools" --no-save --no-audit --no-fund --loglevel=error "pnpm@$LECTERN_PNPM_VERSION" >&2) || return 1
    fi
    export PATH="$tools/node_modules/.bin:$PATH"
  fi
  # Dependencies: install when node_modules is absent or older than the lockfile.
  local stamp="$LECTERN_ROOT/node_modules/.lectern-installed"
  if [[ ! -f "$stamp" ]] || [[ "$LECTERN_ROOT/pnpm-lock.yaml" -nt "$stamp" ]] || [[ "$LECTERN_ROOT/package.json" -nt "$stamp" ]]; then
    lectern_log "installing dependencies (pnpm install --frozen-lockfile)"
    (cd "$LECTERN_ROOT" && pnpm install --frozen-lockfile --reporter=append-only >&2) || { lectern_log "pnpm install failed; see the messages above"; return 1; }
    touch "$stamp"
  fi
}
