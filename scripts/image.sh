#!/usr/bin/env bash
# Builds Lectern's container image (Dockerfile). The inputs that need a package registry are laid
# out here on the host first, in .image-context/ (git-ignored, part of the build context), so that
# `docker build` itself needs no network: a build container may not reach the npm registry (no
# route, or a TLS-intercepting proxy whose CA only the host trusts).
#   .image-context/deps.tar    production dependencies (scripts/image-layout.sh manifests + deps,
#                              from the host's pnpm store when it holds them, else the registry)
#   .image-context/editor.tar  the editor app's build (scripts/image-layout.sh editor)
#   .image-context/model/      all-MiniLM-L6-v2 int8 ONNX (scripts/lib/models.sh's cache)
#
#   scripts/image.sh prepare                         lay out .image-context/ only
#   scripts/image.sh build [-t TAG] [--base IMAGE] [--target T] [-- docker build args…]
#       prepare, then docker build (TAG default lectern:dev; IMAGE default the Dockerfile's
#       node:24.21.0-slim; lectern-node:24.21.0 is the base made by scripts/lib/containers.sh)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=lib/toolchain.sh
source "$root/scripts/lib/toolchain.sh"
# shellcheck source=lib/models.sh
source "$root/scripts/lib/models.sh"

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; }
log() { printf '[lectern image] %s\n' "$*" >&2; }

prepare() {
  local ctx="$root/.image-context" began=$SECONDS
  local work
  work="$(mktemp -d)"
  mkdir -p "$ctx"
  log "production dependencies (pnpm install --prod, offline when the store has them)"
  sh "$root/scripts/image-layout.sh" manifests "$root" "$work/deps"
  if ! sh "$root/scripts/image-layout.sh" deps "$work/deps" --offline --reporter=silent >/dev/null 2>&1; then
    log "… not all in the local store: from the npm registry"
    sh "$root/scripts/image-layout.sh" deps "$work/deps" --reporter=silent >&2
  fi
  tar --sort=name --mtime=@0 --numeric-owner --owner=0 --group=0 -C "$work/deps" -cf "$ctx/deps.tar.partial" . && mv "$ctx/deps.tar.partial" "$ctx/deps.tar"
  log "the editor app (vite build)"
  if ! sh "$root/scripts/image-layout.sh" editor "$root" "$work/editor" --offline --reporter=silent >&2; then
    log "… not all in the local store: from the npm registry"
    rm -rf "$work/editor"
    sh "$root/scripts/image-layout.sh" editor "$root" "$work/editor" --reporter=silent >&2
  fi
  tar --sort=name --mtime=@0 --numeric-owner --owner=0 --group=0 -C "$work/editor" -cf "$ctx/editor.tar.partial" . && mv "$ctx/editor.tar.partial" "$ctx/editor.tar"
  log "the embedding model"
  lectern_models >&2
  rm -rf "$ctx/model" && cp -R "$(lectern_model_dir)" "$ctx/model"
  rm -rf "$work"
  log "build context ready in $((SECONDS - began)) s: $(du -sh "$ctx" | cut -f1) in .image-context/"
}

build() {
  local tag="lectern:dev" args=()
  while (($#)); do
    case "$1" in
      -t | --tag) tag="$2"; shift 2 ;;
      --base) args+=(--build-arg "NODE_IMAGE=$2"); shift 2 ;;
      --target) args+=(--target "$2"); shift 2 ;;
      --) shift; args+=("$@"); break ;;
      *) usage >&2; exit 2 ;;
    esac
  done
  prepare
  log "docker build -t $tag ${args[*]}"
  local began=$SECONDS
  # The classic builder: Debian's docker.io has no buildx, and BuildKit's `# syntax` frontend
  # would be pulled from a registry.
  DOCKER_BUILDKIT=0 nice -n 19 docker build -t "$tag" "${args[@]}" "$root" >&2
  log "built $tag in $((SECONDS - began)) s"
}

lectern_toolchain >/dev/null
case "${1:-}" in
  prepare) prepare ;;
  build) shift; build "$@" ;;
  -h | --help) usage ;;
  *) usage >&2; exit 2 ;;
esac
