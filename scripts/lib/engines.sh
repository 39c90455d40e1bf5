# shellcheck shell=bash
# Installs, from Debian's packages, the system software the integration tests need. Idempotent:
# each step checks first and installs only what is missing. The engines themselves are started
# per test run by test/engines/*.ts on 127.0.0.1.

lectern_apt_updated=""
lectern_apt_install() {
  local sudo=""
  [[ "$(id -u)" == "0" ]] || sudo="sudo"
  if [[ -z "$lectern_apt_updated" ]]; then
    lectern_log "apt-get update"
    $sudo apt-get update -qq >&2
    lectern_apt_updated=1
  fi
  lectern_log "apt-get install $*"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >&2
}

lectern_engines() {
  if ! compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null; then
    lectern_apt_install postgresql
  fi
}
