# shellcheck shell=bash
# Builds what test/kube/cluster.ts needs for a real single-node Kubernetes, from Go module sources,
# cached per machine in ~/.cache/lectern-engines/kubernetes-v<version>/ (LECTERN_ENGINES_CACHE):
#   - bin/: kube-apiserver, kube-controller-manager, kube-scheduler, kubelet, kube-proxy, kubectl
#     from k8s.io/kubernetes, in ONE `go build` (shared compilation). The module's go.mod replaces
#     its k8s.io/* libraries with ./staging, which the module zip lacks: the copy drops those
#     replaces and requires the libraries' own published modules at v0.<minor>.<patch>.
#   - bin/metrics-server from sigs.k8s.io/metrics-server (run as a host process, registered as an
#     APIService), bin/lectern-ingress (our Ingress controller, test/kube/ingress) and bin/pause
#     (our own static sandbox program, wrapped in an image and imported).
#   - bin/prometheus: Prometheus from its Go module (k8s-tools.sh's lectern_go_tool, the version of
#     promtool), only Kubernetes service discovery compiled in, for the chart test's scrape.
# Uses Debian's etcd, containerd, runc and CNI plugins (installed here if missing, in the foreground).
# On by default; LECTERN_KUBE=0 turns it off. Source toolchain.sh, engines.sh and k8s-tools.sh
# first, then call `lectern_kube` early: when a program is missing, the Go builds run in the
# BACKGROUND at the lowest priority (log: $cache/kube-build.log) while the other installs and the
# rest of the suite run; `lectern_kube_wait` waits for them (with a progress line every 30 s) and
# writes the paths to $cache/kube.json for test/kube/cluster.ts. MinIO (engines.sh) builds first in
# the same background job: `lectern_minio_wait` lets its tests run while the rest builds.
# `lectern_kube_stop` ends a build still running (Go's build cache keeps what was compiled: the
# next run resumes). A failure is loud; in CI (CI=true) it fails the run.

LECTERN_KUBE_VERSION="v1.37.2"
LECTERN_METRICS_SERVER_VERSION="v0.9.0"

lectern_kube_dir() { printf '%s' "${LECTERN_ENGINES_CACHE:-$HOME/.cache/lectern-engines}/kubernetes-$LECTERN_KUBE_VERSION"; }

# Runs "$@" at the lowest priority; prints the time taken.
lectern_kube_timed() {
  local what="$1" began=$SECONDS rc=0
  shift
  lectern_log "building $what"
  nice -n 19 "$@" >&2 || rc=$?
  if ((rc == 0)); then lectern_log "built $what ($((SECONDS - began)) s)"; else lectern_log "building $what FAILED"; fi
  return $rc
}

# The k8s.io/kubernetes module, copied writable into $dir/src with go.mod fixed (see above).
lectern_kube_source() {
  local dir="$1" version="$LECTERN_KUBE_VERSION" lib_version="v0.${LECTERN_KUBE_VERSION#v1.}"
  [[ -f "$dir/src/.lectern-ready" ]] && return 0
  lectern_log "downloading k8s.io/kubernetes@$version from the Go module proxy"
  local mod
  mod="$(GOFLAGS=-mod=mod go mod download -json "k8s.io/kubernetes@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')" || return 1
  [[ -d "$mod" ]] || { lectern_log "go mod download gave no directory for k8s.io/kubernetes@$version"; return 1; }
  rm -rf "$dir/src" && mkdir -p "$dir" && cp -r "$mod" "$dir/src" && chmod -R u+w "$dir/src" || return 1
  local staged edits=()
  staged="$(sed -n 's/^[[:space:]]*\(k8s\.io\/[^ ]*\) => \.\/staging\/.*$/\1/p' "$dir/src/go.mod")"
  for m in $staged; do edits+=("-dropreplace=$m" "-require=$m@$lib_version"); done
  (cd "$dir/src" && go mod edit "${edits[@]}") || return 1
  lectern_log "k8s.io/kubernetes: $(wc -w <<<"$staged") staging replaces dropped, required at $lib_version"
  touch "$dir/src/.lectern-ready"
}

lectern_kube_binaries() {
  local dir="$1" cmds=(kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl)
  local missing="" c
  for c in "${cmds[@]}"; do [[ -x "$dir/bin/$c" ]] || missing=1; done
  [[ -z "$missing" ]] && return 0
  lectern_kube_source "$dir" || return 1
  local minor="${LECTERN_KUBE_VERSION#v1.}"
  minor="${minor%%.*}"
  local ldflags="-s -w -X k8s.io/component-base/version.gitVersion=$LECTERN_KUBE_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$minor -X k8s.io/component-base/version.gitTreeState=clean -X k8s.io/client-go/pkg/version.gitVersion=$LECTERN_KUBE_VERSION -X k8s.io/client-go/pkg/version.gitMajor=1 -X k8s.io/client-go/pkg/version.gitMinor=$minor"
  rm -rf "$dir/bin.partial" && mkdir -p "$dir/bin.partial"
  local pkgs=()
  for c in "${cmds[@]}"; do pkgs+=("./cmd/$c"); done
  (cd "$dir/src" && GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0 lectern_kube_timed "Kubernetes $LECTERN_KUBE_VERSION" \
    go build -v -trimpath -ldflags "$ldflags" -o "$dir/bin.partial/" "${pkgs[@]}") || return 1
  mkdir -p "$dir/bin" && mv "$dir/bin.partial/"* "$dir/bin/" && rmdir "$dir/bin.partial"
}

# Our own programs are rebuilt when their sources change (by content: a fresh clone's files are all new).
lectern_kube_sources_hash() { cat "$@" | sha256sum | cut -d' ' -f1; }
lectern_kube_current() {
  local binary="$1"
  shift
  [[ -x "$binary" && -f "$binary.sources" && "$(cat "$binary.sources")" == "$(lectern_kube_sources_hash "$@")" ]]
}

# The Ingress controller: our own (test/kube/ingress, client-go only). Traefik v3 was the first
# choice; it cannot be built here: the Go module proxy refuses a dozen of its ACME DNS-provider
# dependencies (403 "This module version is not available").
lectern_kube_ingress() {
  local dir="$1" src="$LECTERN_ROOT/test/kube/ingress"
  lectern_kube_current "$dir/bin/lectern-ingress" "$src"/*.go "$src/go.mod" "$src/go.sum" && return 0
  mkdir -p "$dir/bin"
  (cd "$src" && GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0 lectern_kube_timed "the Ingress controller (test/kube/ingress)" \
    go build -trimpath -ldflags "-s -w" -o "$dir/bin/lectern-ingress" .) || return 1
  lectern_kube_sources_hash "$src"/*.go "$src/go.mod" "$src/go.sum" >"$dir/bin/lectern-ingress.sources"
}

# metrics-server: a plain `go install` (its go.mod has no replaces).
lectern_kube_metrics_server() {
  local dir="$1"
  [[ -x "$dir/bin/metrics-server" ]] && return 0
  mkdir -p "$dir/bin"
  GOBIN="$dir/bin.ms" GOWORK=off CGO_ENABLED=0 lectern_kube_timed "metrics-server $LECTERN_METRICS_SERVER_VERSION" \
    go install -trimpath -ldflags "-s -w" "sigs.k8s.io/metrics-server/cmd/metrics-server@$LECTERN_METRICS_SERVER_VERSION" || return 1
  mv "$dir/bin.ms/metrics-server" "$dir/bin/metrics-server" && rmdir "$dir/bin.ms"
}

# The pod sandbox program (test/kube/images/pause), static; cluster.ts wraps it in an image.
lectern_kube_pause() {
  local dir="$1"
  lectern_kube_current "$dir/bin/pause" "$LECTERN_ROOT/test/kube/images/pause/main.go" && return 0
  mkdir -p "$dir/bin"
  (cd "$LECTERN_ROOT/test/kube/images" && GOWORK=off CGO_ENABLED=0 nice -n 19 go build -trimpath -ldflags "-s -w" -o "$dir/bin/pause" ./pause) || return 1
  lectern_kube_sources_hash "$LECTERN_ROOT/test/kube/images/pause/main.go" >"$dir/bin/pause.sources"
}

# Prometheus for the chart test: k8s-tools.sh's lectern_go_tool (cached in its own directory), linked here.
lectern_kube_prometheus() {
  local dir="$1" binary
  [[ -x "$dir/bin/prometheus" ]] && return 0
  binary="$(lectern_go_tool prometheus github.com/prometheus/prometheus/cmd/prometheus "$LECTERN_PROMTOOL_VERSION" \
    -tags remove_all_sd,enable_kubernetes_sd)" || return 1
  mkdir -p "$dir/bin" && ln -sf "$binary" "$dir/bin/prometheus"
}

# Debian's parts of the node: etcd, containerd (with ctr), runc, the CNI plugins, iptables, openssl.
lectern_kube_system() {
  local need=()
  command -v etcd >/dev/null || need+=(etcd-server)
  command -v containerd >/dev/null && command -v ctr >/dev/null || need+=(containerd)
  command -v runc >/dev/null || need+=(runc)
  [[ -x /usr/lib/cni/bridge && -x /usr/lib/cni/portmap && -x /usr/lib/cni/host-local ]] || need+=(containernetworking-plugins)
  command -v iptables >/dev/null || need+=(iptables)
  command -v openssl >/dev/null || need+=(openssl)
  ((${#need[@]} == 0)) || lectern_apt_install "${need[@]}"
}

# Every program the cluster tests need is built and current.
lectern_kube_is_built() {
  local dir="$1" c
  for c in kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl metrics-server prometheus pause lectern-ingress; do
    [[ -x "$dir/bin/$c" ]] || return 1
  done
  local src="$LECTERN_ROOT/test/kube/ingress"
  lectern_kube_current "$dir/bin/pause" "$LECTERN_ROOT/test/kube/images/pause/main.go" &&
    lectern_kube_current "$dir/bin/lectern-ingress" "$src"/*.go "$src/go.mod" "$src/go.sum"
}

# The Go builds, in order (run in the background by lectern_kube).
lectern_kube_build() {
  local dir="$1"
  lectern_kube_pause "$dir" && lectern_kube_binaries "$dir" && lectern_kube_metrics_server "$dir" &&
    lectern_kube_prometheus "$dir" && lectern_kube_ingress "$dir"
}

lectern_kube_record() {
  local dir="$1"
  printf '{"dir": "%s", "version": "%s"}\n' "$dir" "$LECTERN_KUBE_VERSION" >"$(dirname "$dir")/kube.json"
}

# A failed build: fails the run in CI, else says loudly which tests will skip.
# $1: what went wrong; $2, $3: what was being built and which tests need it (default: the Kubernetes parts).
lectern_kube_failed() {
  local what="${2:-the Kubernetes tools or test cluster}" tests="${3:-the chart and cluster tests}"
  if [[ "${CI:-}" == "true" ]]; then
    lectern_log "building $what FAILED ($1); CI requires it"
    return 1
  fi
  lectern_log "!!! building $what FAILED ($1); $tests will be SKIPPED"
  return 0
}

LECTERN_KUBE_BUILD_PID=""

# The Go builds: MinIO for the engine tests (engines.sh, unless built), k8s-tools.sh's tools (helm,
# kubeconform, promtool, kustomize, the schemas) and, unless LECTERN_KUBE=0, the cluster's
# programs. When something is missing they build in the BACKGROUND, MinIO first (installing
# Debian's node parts first, in the foreground); call early, then lectern_minio_wait before the
# tests that need MinIO and lectern_kube_wait before those that need the rest.
lectern_kube() {
  local dir cache log cluster=1 minio=0
  if [[ "${LECTERN_KUBE:-1}" == "0" ]]; then
    cluster=0
    lectern_log "Kubernetes test cluster: off (LECTERN_KUBE=0); the cluster tests will be skipped"
  fi
  dir="$(lectern_kube_dir)"
  cache="$(dirname "$dir")"
  log="$cache/kube-build.log"
  lectern_go || { lectern_kube_failed "Go 1.21+ is missing and could not be fetched"; return; }
  if ((cluster)) && ! lectern_kube_system; then
    # Outside CI the rest (MinIO, the chart's tools) still builds; the cluster is left out, as with
    # LECTERN_KUBE=0 (which the cluster tests read to skip).
    lectern_kube_failed "Debian's etcd, containerd, runc or CNI plugins" "the Kubernetes test cluster" "the cluster tests" || return
    cluster=0
    export LECTERN_KUBE=0
  fi
  mkdir -p "$cache"
  lectern_minio_installed || minio=1
  if ((minio == 0)) && lectern_k8s_tools_cached && { ((cluster == 0)) || lectern_kube_is_built "$dir"; }; then
    lectern_k8s_tools || return 1
    ((cluster == 0)) || lectern_kube_record "$dir"
    ((cluster == 0)) || lectern_log "Kubernetes test cluster programs ready in $dir"
    return 0
  fi
  rm -f "$cache/kube.json" "$log.status" "$log.minio"
  lectern_log "building $( ((minio)) && echo "MinIO, ")helm, kubeconform, promtool, kustomize$( ((cluster)) && echo " and the Kubernetes test cluster's programs") from" \
    "Go module sources in the BACKGROUND (once per machine: 30-45 min on 2 cores beside the suite; log: $log);" \
    "the tests that need them run last"
  # A session of its own (setsid), so that lectern_kube_stop can end the whole process group.
  setsid bash -c 'source "$1/scripts/lib/toolchain.sh" && source "$1/scripts/lib/engines.sh" &&
    source "$1/scripts/lib/k8s-tools.sh" && source "$1/scripts/lib/kube.sh" || exit 1
    export LECTERN_GO_NICE=19
    # The compiler without garbage collection until its heap reaches 4 GiB: a fifth less CPU
    # (metrics-server from a cold cache: 404 -> 297 CPU-seconds), memory still bounded.
    export GOGC=off GOMEMLIMIT=4GiB
    began=$SECONDS rc=0 mrc=0
    if [[ "$5" == 1 ]]; then
      (cd "$1" && nice -n 19 node test/engines/install.ts minio) >"$3" 2>&1 || mrc=$?
    fi
    echo "$mrc $((SECONDS - began))" >"$3.minio"
    { lectern_k8s_tools_install && { [[ "$4" == 0 ]] || lectern_kube_build "$2"; }; } >>"$3" 2>&1 || rc=$?
    echo "$rc $((SECONDS - began))" >"$3.status"' _ "$LECTERN_ROOT" "$dir" "$log" "$cluster" "$minio" </dev/null &
  LECTERN_KUBE_BUILD_PID=$!
  LECTERN_KUBE_CLUSTER=$cluster
}

# Waits while the background job runs and file $1 does not exist, with a line every 30 s about $2.
lectern_kube_await() {
  local file="$1" what="$2" log began=$SECONDS next=30
  log="$(dirname "$(lectern_kube_dir)")/kube-build.log"
  while [[ ! -f "$file" ]] && kill -0 "$LECTERN_KUBE_BUILD_PID" 2>/dev/null; do
    if ((SECONDS - began >= next)); then
      # go build -v names each package as it is compiled: about 2,800 for Kubernetes.
      lectern_log "… waiting for $what ($((SECONDS - began)) s; $(grep -c '^[a-z][^ ]*$' "$log") packages compiled; last: $(grep -v '^\s*$' "$log" | tail -1 | cut -c1-100))"
      next=$((next + 30))
    fi
    sleep 1
  done
}

# Waits until the background job has built MinIO; a no-op when it was built before.
lectern_minio_wait() {
  [[ -n "$LECTERN_KUBE_BUILD_PID" ]] || return 0
  local log began=$SECONDS status
  log="$(dirname "$(lectern_kube_dir)")/kube-build.log"
  lectern_kube_await "$log.minio" "MinIO's build"
  status="$(cat "$log.minio" 2>/dev/null || echo "1 ?")"
  if [[ "${status%% *}" == "0" ]] && lectern_minio_installed; then
    lectern_log "MinIO is built (${status#* } s in the background; waited $((SECONDS - began)) s)"
    return 0
  fi
  tail -20 "$log" >&2
  lectern_kube_failed "see $log" MinIO "the tests that need it"
}

# Waits for the background builds, then records the cluster's programs in kube.json.
lectern_kube_wait() {
  [[ -n "$LECTERN_KUBE_BUILD_PID" ]] || return 0
  local dir cache log began=$SECONDS status
  dir="$(lectern_kube_dir)"
  cache="$(dirname "$dir")"
  log="$cache/kube-build.log"
  # The job writes its status last, then ends.
  lectern_kube_await "$log.status" "the Go builds"
  wait "$LECTERN_KUBE_BUILD_PID" 2>/dev/null || true
  LECTERN_KUBE_BUILD_PID=""
  status="$(cat "$log.status" 2>/dev/null || echo "1 ?")"
  if [[ "${status%% *}" == "0" ]] && { [[ "$LECTERN_KUBE_CLUSTER" == 0 ]] || lectern_kube_is_built "$dir"; }; then
    [[ "$LECTERN_KUBE_CLUSTER" == 0 ]] || lectern_kube_record "$dir"
    lectern_log "the Go builds are done (${status#* } s in the background; waited $((SECONDS - began)) s)"
    return 0
  fi
  tail -20 "$log" >&2
  lectern_kube_failed "see $log"
}

# Ends a background build still running (the suite stopped early, or ran without the cluster tests).
lectern_kube_stop() {
  [[ -n "$LECTERN_KUBE_BUILD_PID" ]] || return 0
  if kill -0 "$LECTERN_KUBE_BUILD_PID" 2>/dev/null; then
    kill -TERM -- "-$LECTERN_KUBE_BUILD_PID" 2>/dev/null
    lectern_log "stopped the Kubernetes build (Go's build cache keeps what was compiled: the next ./scripts/test resumes it)"
  fi
  LECTERN_KUBE_BUILD_PID=""
}
