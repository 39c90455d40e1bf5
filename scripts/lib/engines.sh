# shellcheck shell=bash
# Installs what the integration tests' engines need. Idempotent: each step checks first and
# installs only what is missing. The engines themselves are started per test run by
# test/engines/*.ts on 127.0.0.1 (docs/engines.md, "Test engines").
#   - From Debian's packages: PostgreSQL, a Java 17 JDK (Kafka, OpenSearch; the JDK because
#     OpenSearch's launcher is a single-file Java program), Maven (resolves the engines' jars).
#   - lectern_go: Go 1.21 or newer, the machine's own (e.g. /usr/local/go), else Go itself from the
#     Go module proxy; it fetches the toolchain a module asks for (MinIO: 1.24) the same way.
#   - Then test/engines/install.ts: Kafka and OpenSearch jars from Maven Central (~/.m2), cached
#     per machine in ~/.cache/lectern-engines. MinIO, built by `go install` (5 to 15 min on a fresh
#     2-core machine), builds in kube.sh's background job instead, beside the first tests.
# In CI (CI=true) a failure here fails the run; elsewhere it is reported and the tests that need
# the missing engine skip themselves, loudly.

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

# Major version of the `java` on PATH, or 0.
lectern_java_major() {
  command -v java >/dev/null || { echo 0; return; }
  java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -1
}

# Go from the Go module proxy (the golang.org/toolchain module, the same archive `GOTOOLCHAIN`
# downloads), for machines without Go 1.21+. Cached per machine.
LECTERN_GO_VERSION="1.24.13"
lectern_go_from_proxy() {
  local dir="${LECTERN_ENGINES_CACHE:-$HOME/.cache/lectern-engines}/go-$LECTERN_GO_VERSION"
  if [[ ! -x "$dir/bin/go" ]]; then
    local module="golang.org/toolchain@v0.0.1-go$LECTERN_GO_VERSION.linux-amd64" tmp
    tmp="$(mktemp -d)"
    lectern_log "fetching Go $LECTERN_GO_VERSION from the Go module proxy ($module)"
    curl -fsSL --retry 3 "https://proxy.golang.org/golang.org/toolchain/@v/v0.0.1-go$LECTERN_GO_VERSION.linux-amd64.zip" -o "$tmp/go.zip" &&
      python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$tmp/go.zip" "$tmp/x" &&
      mkdir -p "$(dirname "$dir")" && mv "$tmp/x/$module" "$dir" &&
      chmod -R u+x "$dir/bin" "$dir/pkg/tool" || { rm -rf "$tmp"; return 1; }
    rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
}

# Go 1.21+ on PATH: the machine's (also /usr/local/go), else Go from the Go module proxy.
lectern_go() {
  if ! command -v go >/dev/null && [[ -x /usr/local/go/bin/go ]]; then export PATH="/usr/local/go/bin:$PATH"; fi
  command -v go >/dev/null && go version | grep -Eq 'go1\.(2[1-9]|[3-9][0-9])' && return 0
  lectern_go_from_proxy || { lectern_log "Go 1.21+ is missing and could not be fetched"; return 1; }
}

lectern_engines_system() {
  if ! compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null; then
    lectern_apt_install postgresql || return 1
  fi
  if ! command -v javac >/dev/null || (($(lectern_java_major) < 17)); then
    lectern_apt_install openjdk-17-jdk-headless || return 1
  fi
  if ! command -v mvn >/dev/null; then
    lectern_apt_install maven || return 1
  fi
}

# MinIO is built and cached (test/engines/engine-install.ts knows its version and place).
lectern_minio_installed() {
  (cd "$LECTERN_ROOT" && node --input-type=module -e \
    "import { installedMinio } from './test/engines/engine-install.ts'; process.exit(installedMinio() ? 0 : 1);" 2>/dev/null)
}

lectern_engines() {
  local began=$SECONDS
  if lectern_engines_system && (cd "$LECTERN_ROOT" && node test/engines/install.ts kafka opensearch); then
    lectern_log "engines installed ($((SECONDS - began)) s)"
    return 0
  fi
  if [[ "${CI:-}" == "true" ]]; then
    lectern_log "engine installation FAILED; CI requires every engine"
    return 1
  fi
  lectern_log "!!! engine installation FAILED (see above); tests that need a missing engine will be SKIPPED"
  return 0
}
