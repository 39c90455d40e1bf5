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
# Uses Debian's etcd, containerd, runc and CNI plugins (installed here if missing).
# Only with LECTERN_KUBE=1 (the build does not fit the default suite's hour on a fresh machine).
# Source toolchain.sh and engines.sh first, then call `lectern_kube`. It writes the paths to
# $cache/kube.json for test/kube/cluster.ts. A failure is loud; in CI (CI=true) it fails the run.

LECTERN_KUBE_VERSION="v1.37.2"
LECTERN_METRICS_SERVER_VERSION="v0.9.0"

lectern_kube_dir() { printf '%s' "${LECTERN_ENGINES_CACHE:-$HOME/.cache/lectern-engines}/kubernetes-$LECTERN_KUBE_VERSION"; }

# Runs "$@" at the lowest priority with a heartbeat line every 30 s; prints the time taken.
lectern_kube_timed() {
  local what="$1" began=$SECONDS heartbeat rc=0
  shift
  (while sleep 30; do lectern_log "… still building $what ($((SECONDS - began)) s)"; done) >&2 &
  heartbeat=$!
  nice -n 19 "$@" >&2 || rc=$?
  kill "$heartbeat" 2>/dev/null
  wait "$heartbeat" 2>/dev/null
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
  lectern_log "building Kubernetes $LECTERN_KUBE_VERSION (${cmds[*]}) in one go build (once per machine; ~8-15 min on 2 cores)"
  rm -rf "$dir/bin.partial" && mkdir -p "$dir/bin.partial"
  local pkgs=()
  for c in "${cmds[@]}"; do pkgs+=("./cmd/$c"); done
  (cd "$dir/src" && GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0 lectern_kube_timed "Kubernetes $LECTERN_KUBE_VERSION" \
    go build -trimpath -ldflags "$ldflags" -o "$dir/bin.partial/" "${pkgs[@]}") || return 1
  mkdir -p "$dir/bin" && mv "$dir/bin.partial/"* "$dir/bin/" && rmdir "$dir/bin.partial"
}

# The Ingress controller: our own (test/kube/ingress, client-go only). Traefik v3 was the first
# choice; it cannot be built here: the Go module proxy refuses a dozen of its ACME DNS-provider
# dependencies (403 "This module version is not available").
lectern_kube_ingress() {
  local dir="$1" src="$LECTERN_ROOT/test/kube/ingress"
  local newest
  newest="$(ls -t "$src"/*.go "$src/go.mod" "$src/go.sum" | head -1)"
  [[ -x "$dir/bin/lectern-ingress" && "$dir/bin/lectern-ingress" -nt "$newest" ]] && return 0
  mkdir -p "$dir/bin"
  (cd "$src" && GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0 lectern_kube_timed "the Ingress controller (test/kube/ingress)" \
    go build -trimpath -ldflags "-s -w" -o "$dir/bin/lectern-ingress" .) || return 1
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
  [[ -x "$dir/bin/pause" && "$dir/bin/pause" -nt "$LECTERN_ROOT/test/kube/images/pause/main.go" ]] && return 0
  mkdir -p "$dir/bin"
  (cd "$LECTERN_ROOT/test/kube/images" && GOWORK=off CGO_ENABLED=0 nice -n 19 go build -trimpath -ldflags "-s -w" -o "$dir/bin/pause" ./pause) || return 1
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

lectern_kube() {
  local began=$SECONDS dir
  if [[ "${LECTERN_KUBE:-}" != "1" ]]; then
    lectern_log "Kubernetes test cluster: off (LECTERN_KUBE=1 ./scripts/test --project kube builds it from source, 15-75 min once per machine)"
    return 0
  fi
  dir="$(lectern_kube_dir)"
  if ! command -v go >/dev/null && [[ -x /usr/local/go/bin/go ]]; then export PATH="/usr/local/go/bin:$PATH"; fi
  if lectern_kube_system && lectern_kube_pause "$dir" && lectern_kube_binaries "$dir" &&
    lectern_kube_metrics_server "$dir" && lectern_kube_ingress "$dir"; then
    printf '{"dir": "%s", "version": "%s"}\n' "$dir" "$LECTERN_KUBE_VERSION" >"$(dirname "$dir")/kube.json"
    lectern_log "Kubernetes test cluster programs ready in $dir ($((SECONDS - began)) s)"
    return 0
  fi
  if [[ "${CI:-}" == "true" ]]; then
    lectern_log "building the Kubernetes test cluster FAILED; CI requires it"
    return 1
  fi
  lectern_log "!!! building the Kubernetes test cluster FAILED (see above); the kube tests will be SKIPPED"
  return 0
}
