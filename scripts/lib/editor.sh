# shellcheck shell=bash
# Builds the editor app (apps/editor → apps/editor/dist, which the Management service serves at
# /app/) when its build is missing or older than any of its sources, configs or the lockfile.
# Up to date, it costs one `find`. Needs toolchain.sh sourced and `lectern_toolchain` run first.
# Source it, then call `lectern_editor`; a failed build returns non-zero with Vite's messages.

lectern_editor() {
  local app="$LECTERN_ROOT/apps/editor"
  local built="$app/dist/index.html"
  [[ -d "$app" ]] || return 0
  if [[ -f "$built" ]] && [[ ! "$LECTERN_ROOT/pnpm-lock.yaml" -nt "$built" ]] &&
    [[ -z "$(find "$app" -newer "$built" -type f \
      -not -path "$app/node_modules/*" -not -path "$app/dist/*" -not -path "$app/.tsbuild/*" \
      -not -path "$app/test/*" -not -name '*.test.ts' -not -name '*.test.tsx' -not -name '*.tsbuildinfo' \
      -print -quit)" ]]; then
    return 0
  fi
  lectern_log "building the editor app (apps/editor → apps/editor/dist)"
  # NODE_ENV as the caller has it (vitest sets `test`) would pick React's development build.
  (cd "$app" && NODE_ENV=production pnpm exec vite build --logLevel warn >&2) || {
    lectern_log "the editor app did not build; see the messages above"
    return 1
  }
}
