# shellcheck shell=bash
# The container engine and the base images made here (docs/engines.md, "Containers"). No image
# registry is reachable from our machines, so every image is built from Debian's packages and the
# npm registry:
#   - docker.io and debootstrap from Debian's packages (lectern_apt_install, engines.sh), when missing;
#   - dockerd started in the background when `docker info` fails (there is no systemd); its log is
#     $cache/dockerd.log, its pid $cache/dockerd.pid; it comes up with overlay2 and cgroupfs here;
#   - lectern-base:bookworm: `debootstrap --variant=minbase bookworm` from the Debian mirror apt
#     already uses, imported with `docker import`. The root filesystem tarball stays in
#     $cache/images/, so a restarted (or wiped) daemon re-imports it in seconds;
#   - lectern-node:24.21.0: that image plus the Node binary the toolchain provisions (.tools/, the
#     npm registry's `node` package) as /usr/local/bin/node, and npm from the npm registry
#     (`npm pack`), so `node`, `npm` and `npx` work inside it as in the public node:24-slim.
# Source toolchain.sh and engines.sh first, call lectern_toolchain, then `lectern_containers`.
# Afterwards LECTERN_BASE_IMAGE and LECTERN_NODE_IMAGE name the images. In CI (CI=true) a failure
# fails the run; elsewhere it is reported and the container tests fail naming this script.
# $cache is LECTERN_ENGINES_CACHE (default ~/.cache/lectern-engines).

LECTERN_DEBIAN_SUITE="bookworm"
LECTERN_NPM_VERSION="11.19.1"
LECTERN_BASE_IMAGE="lectern-base:$LECTERN_DEBIAN_SUITE"
LECTERN_NODE_IMAGE="lectern-node:$LECTERN_NODE_VERSION"

lectern_sudo() { if [[ "$(id -u)" == "0" ]]; then "$@"; else sudo "$@"; fi; }

# The first http(s) Debian mirror in apt's sources (deb822 `URIs:` or one-line `deb URL`), or
# deb.debian.org.
lectern_debian_mirror() {
  local mirror
  mirror="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null |
    sed -n -e 's/^URIs: *\(https\?:[^ ]*\/debian\/\?\)$/\1/p' -e 's/^deb \(\[[^]]*\] \)\?\(https\?:[^ ]*\/debian\/\?\) .*/\2/p' | head -1)"
  echo "${mirror:-http://deb.debian.org/debian}"
}

# Starts dockerd when no daemon answers; waits until `docker info` does (60 s at most).
lectern_dockerd() {
  docker info >/dev/null 2>&1 && return 0
  local cache="${LECTERN_ENGINES_CACHE:-$HOME/.cache/lectern-engines}"
  mkdir -p "$cache"
  lectern_log "starting dockerd (log: $cache/dockerd.log)"
  # setsid: the daemon outlives this script and is not in its process group.
  lectern_sudo setsid dockerd >"$cache/dockerd.log" 2>&1 </dev/null &
  echo $! >"$cache/dockerd.pid"
  local waited=0
  until docker info >/dev/null 2>&1; do
    if ((waited >= 60)); then
      lectern_log "dockerd did not answer within 60 s; the end of $cache/dockerd.log:"
      tail -20 "$cache/dockerd.log" >&2
      return 1
    fi
    sleep 1
    waited=$((waited + 1))
  done
  lectern_log "dockerd ready in ${waited} s: $(docker info --format '{{.Driver}}, cgroup driver {{.CgroupDriver}}' 2>/dev/null)"
}

# lectern-base:bookworm from the cached rootfs tarball, made once by debootstrap.
lectern_base_image() {
  docker image inspect "$LECTERN_BASE_IMAGE" >/dev/null 2>&1 && return 0
  local cache="${LECTERN_ENGINES_CACHE:-$HOME/.cache/lectern-engines}/images"
  local tarball="$cache/debian-$LECTERN_DEBIAN_SUITE-minbase.tar"
  mkdir -p "$cache"
  if [[ ! -f "$tarball" ]]; then
    local mirror root began=$SECONDS
    mirror="$(lectern_debian_mirror)"
    root="$(mktemp -d "$cache/rootfs.XXXXXX")"
    lectern_log "debootstrap --variant=minbase $LECTERN_DEBIAN_SUITE from $mirror (once per machine, 1–3 min)"
    if ! lectern_sudo nice -n 19 debootstrap --variant=minbase "$LECTERN_DEBIAN_SUITE" "$root" "$mirror" >"$cache/debootstrap.log" 2>&1; then
      lectern_log "debootstrap FAILED; the end of $cache/debootstrap.log:"
      tail -20 "$cache/debootstrap.log" >&2
      lectern_sudo rm -rf "$root"
      return 1
    fi
    # What an image does not need: apt's downloaded lists and packages, docs, man pages, logs.
    lectern_sudo rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
      "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/* "$root"/var/log/*.log "$root"/var/log/apt/*
    lectern_sudo tar --numeric-owner -C "$root" -cf "$tarball.partial" . && mv "$tarball.partial" "$tarball"
    lectern_sudo rm -rf "$root"
    lectern_log "root filesystem made in $((SECONDS - began)) s: $tarball ($(du -m "$tarball" | cut -f1) MB)"
  fi
  lectern_log "docker import $tarball as $LECTERN_BASE_IMAGE"
  docker import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' "$tarball" "$LECTERN_BASE_IMAGE" >/dev/null
}

# lectern-node:<version>: the base plus Node (from .tools/) and npm (npm registry), as node:*-slim lays them out.
lectern_node_image() {
  docker image inspect "$LECTERN_NODE_IMAGE" >/dev/null 2>&1 && return 0
  local cache="${LECTERN_ENGINES_CACHE:-$HOME/.cache/lectern-engines}/images"
  local node_bin="$LECTERN_ROOT/.tools/node_modules/node/bin/node"
  [[ -x "$node_bin" ]] || node_bin="$(command -v node)"
  if [[ "$("$node_bin" --version)" != "v$LECTERN_NODE_VERSION" ]]; then
    lectern_log "Node $LECTERN_NODE_VERSION is not provisioned ($node_bin is $("$node_bin" --version)); run lectern_toolchain first"
    return 1
  fi
  local npm_tgz="$cache/npm-$LECTERN_NPM_VERSION.tgz"
  if [[ ! -f "$npm_tgz" ]]; then
    lectern_log "fetching npm $LECTERN_NPM_VERSION from the npm registry (npm pack)"
    (cd "$cache" && npm pack --silent "npm@$LECTERN_NPM_VERSION" >/dev/null) || return 1
  fi
  local context
  context="$(mktemp -d)"
  cp "$node_bin" "$context/node"
  # The Node binary ships with debug information (~125 MB); stripped it is a third of that.
  command -v strip >/dev/null && strip --strip-debug "$context/node"
  cp "$npm_tgz" "$context/npm.tgz"
  cat >"$context/Dockerfile" <<EOF
FROM $LECTERN_BASE_IMAGE
COPY node /usr/local/bin/node
ADD npm.tgz /usr/local/lib/node_modules/
RUN mv /usr/local/lib/node_modules/package /usr/local/lib/node_modules/npm \\
 && ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && node --version && npm --version
CMD ["node"]
EOF
  lectern_log "building $LECTERN_NODE_IMAGE ($LECTERN_BASE_IMAGE + Node $LECTERN_NODE_VERSION + npm $LECTERN_NPM_VERSION)"
  local status=0
  DOCKER_BUILDKIT=0 nice -n 19 docker build -q -t "$LECTERN_NODE_IMAGE" "$context" >/dev/null || status=$?
  rm -rf "$context"
  return $status
}

lectern_containers_steps() {
  if ! command -v dockerd >/dev/null || ! command -v docker >/dev/null; then
    lectern_apt_install docker.io || return 1
  fi
  if ! command -v debootstrap >/dev/null && [[ ! -x /usr/sbin/debootstrap ]]; then
    lectern_apt_install debootstrap || return 1
  fi
  export PATH="$PATH:/usr/sbin:/sbin"
  lectern_dockerd && lectern_base_image && lectern_node_image
}

lectern_containers() {
  local began=$SECONDS
  if lectern_containers_steps; then
    lectern_log "containers ready ($((SECONDS - began)) s): $LECTERN_BASE_IMAGE, $LECTERN_NODE_IMAGE"
    return 0
  fi
  if [[ "${CI:-}" == "true" ]]; then
    lectern_log "container set-up FAILED; CI requires it"
    return 1
  fi
  lectern_log "!!! container set-up FAILED (see above); the kube tests will fail"
  return 0
}
