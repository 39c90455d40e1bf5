#!/bin/sh
# The steps of the container image that lay out /app, in one place: scripts/image.sh runs manifests,
# deps and editor on the host (into .image-context/), the Dockerfile runs sources, and a test
# (test/k8s/image-layout.k8s.test.ts) runs them all without a container engine.
#   image-layout.sh manifests SRC DEST   the workspace's manifests only: lockfile, workspace file,
#                                        .npmrc, patches, every member's package.json
#   image-layout.sh deps DIR [ARGS…]     production dependencies from the lockfile into DIR
#                                        (pnpm on PATH; ARGS go to pnpm install, e.g. --offline)
#   image-layout.sh sources SRC DEST     the services' and packages' sources without tests or test helpers
#   image-layout.sh editor SRC DEST [ARGS…]  the editor app built (apps/editor/dist) from SRC's
#                                        sources and lockfile in a scratch folder, into DEST
#                                        (pnpm on PATH; ARGS go to pnpm install, e.g. --offline)
set -eu

step="$1"
shift
case "$step" in
  manifests)
    src="$1" dest="$2"
    mkdir -p "$dest"
    cp "$src/package.json" "$src/pnpm-lock.yaml" "$src/pnpm-workspace.yaml" "$src/.npmrc" "$dest/"
    cp -R "$src/patches" "$dest/patches"
    (cd "$src" && find packages services test -name package.json -not -path '*/node_modules/*') |
      while read -r manifest; do
        mkdir -p "$dest/$(dirname "$manifest")"
        cp "$src/$manifest" "$dest/$manifest"
      done
    ;;
  deps)
    dir="$1"
    shift
    # Every workspace member but the test helpers; no devDependencies, no install scripts.
    (cd "$dir" && pnpm install --frozen-lockfile --prod --ignore-scripts \
      --filter '!@lectern/test-engines' --filter '!@lectern/testing' "$@")
    ;;
  sources)
    src="$1" dest="$2"
    mkdir -p "$dest"
    cp "$src/package.json" "$src/tsconfig.base.json" "$dest/"
    for top in packages services; do
      # Test code stays out: test files, any testing/ folder (test helpers beside the tests of
      # a package or service), packages/testing; so do builds (dist/, tsc's declarations only).
      (cd "$src" && find "$top" -type f -not -path '*/node_modules/*' -not -path '*/dist/*' \
        -not -name '*.test.ts' -not -name '*.test-fixture.ts' -not -path '*/testing/*' -not -path 'packages/testing/*' \
        -not -name '*.tsbuildinfo' -not -name 'tsconfig*.json' -not -name '*.md') |
        while read -r file; do
          mkdir -p "$dest/$(dirname "$file")"
          cp "$src/$file" "$dest/$file"
        done
    done
    ;;
  editor)
    src="$1" dest="$2"
    shift 2
    build="$(mktemp -d)"
    sh "$0" manifests "$src" "$build"
    # Vite's transform reads the app's tsconfig and those it references.
    (cd "$src" && find . -name 'tsconfig*.json' -not -path '*/node_modules/*' -not -path './.tools/*') |
      while read -r file; do
        mkdir -p "$build/$(dirname "$file")"
        cp "$src/$file" "$build/$file"
      done
    mkdir -p "$build/apps"
    (cd "$src" && find apps/editor -type f -not -path '*/node_modules/*' -not -path '*/dist/*') |
      while read -r file; do
        mkdir -p "$build/$(dirname "$file")"
        cp "$src/$file" "$build/$file"
      done
    # The editor and its build tools only (its workspace imports are types, erased by the build).
    (cd "$build" && pnpm install --frozen-lockfile --ignore-scripts --filter @lectern/editor "$@" &&
      NODE_ENV=production pnpm --filter @lectern/editor exec vite build --logLevel warn)
    mkdir -p "$dest/apps/editor"
    cp -R "$build/apps/editor/dist" "$dest/apps/editor/dist"
    rm -rf "$build"
    ;;
  *)
    echo "usage: image-layout.sh manifests|deps|sources|editor …" >&2
    exit 2
    ;;
esac
