# shellcheck shell=bash
# Installs the browser the console's end-to-end tests drive (test/console, through
# playwright-core): Debian's `chromium` package. Idempotent: installs only when no Chromium is on
# PATH. Needs engines.sh sourced first (lectern_apt_install). In CI (CI=true) a failure here fails
# the run; elsewhere it is reported and the browser tests skip themselves, loudly.

lectern_browser() {
  if command -v chromium >/dev/null || command -v chromium-browser >/dev/null; then
    return 0
  fi
  if ! lectern_apt_install chromium; then
    lectern_log "could not install chromium: the console's browser tests will skip"
    [[ "${CI:-}" == "true" ]] && return 1
  fi
  return 0
}
