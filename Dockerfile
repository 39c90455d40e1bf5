# syntax=docker/dockerfile:1
# Lectern's container image for the cluster shape (charts/lectern, k8s/). One image holds every
# service; each runs its own entry, as the chart's Deployments do (`node services/<name>/src/main.ts`
# in /app). Node 24 runs the TypeScript sources directly (type stripping), so the services have no
# build step: the image is the workspace's sources plus its production dependencies, and the
# editor app's build (its one build step, in a stage of its own).
#
#   docker build -t lectern .                          # the image the chart runs (entry chosen by its command)
#   docker build --target delivery -t lectern-delivery .   # or one image per service, ENTRYPOINT set
#
# Targets: management, delivery, indexer, graphql, recommendations, webhooks, migrate.
# Not built or run in this repository's CI (no container engine there): see docs/kubernetes.md.

ARG NODE_IMAGE=node:24.21.0-slim

# 1. The workspace's manifests only, so that the dependency layer is rebuilt only when they change.
FROM ${NODE_IMAGE} AS manifests
COPY . /src
RUN sh /src/scripts/image-layout.sh manifests /src /manifests

# 2. Production dependencies only, from the lockfile (pnpm from the npm registry, pinned).
FROM ${NODE_IMAGE} AS deps
RUN npm install --global --no-audit --no-fund pnpm@10.34.8
COPY scripts/image-layout.sh /usr/local/bin/image-layout.sh
COPY --from=manifests /manifests /app
RUN sh /usr/local/bin/image-layout.sh deps /app && rm -rf /root/.local/share/pnpm /root/.cache

# 3. The sources without tests.
FROM ${NODE_IMAGE} AS sources
COPY . /src
RUN sh /src/scripts/image-layout.sh sources /src /sources

# 3b. The editor app (apps/editor), built by Vite from its sources and the lockfile; only its
#     dist/ goes on (Management serves it at /app/).
FROM ${NODE_IMAGE} AS editor
RUN npm install --global --no-audit --no-fund pnpm@10.34.8
COPY . /src
RUN sh /src/scripts/image-layout.sh editor /src /editor && rm -rf /root/.local/share/pnpm /root/.cache

# 4. The runtime: dependencies and sources owned by root, run as uid 10001; only /tmp is written
#    (an emptyDir in the chart), so the root filesystem can be read-only.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
RUN groupadd --system --gid 10001 lectern \
 && useradd --system --uid 10001 --gid lectern --home-dir /app --shell /usr/sbin/nologin lectern
COPY --from=deps /app/ /app/
COPY --from=sources /sources/ /app/
COPY --from=editor /editor/ /app/
USER 10001:10001
EXPOSE 4400 4401 4402 4403 4404 4405 4406
ENTRYPOINT ["node"]
CMD ["services/management/src/main.ts"]

# 5. One target per service, each with its entry as ENTRYPOINT.
FROM runtime AS management
ENTRYPOINT ["node", "services/management/src/main.ts"]
CMD []

FROM runtime AS delivery
ENTRYPOINT ["node", "services/delivery/src/main.ts"]
CMD []

FROM runtime AS indexer
ENTRYPOINT ["node", "services/indexer/src/main.ts"]
CMD []

FROM runtime AS graphql
ENTRYPOINT ["node", "services/graphql/src/main.ts"]
CMD []

FROM runtime AS recommendations
ENTRYPOINT ["node", "services/recommendations/src/main.ts"]
CMD []

FROM runtime AS webhooks
ENTRYPOINT ["node", "services/webhooks/src/main.ts"]
CMD []

FROM runtime AS migrate
ENTRYPOINT ["node", "services/management/src/migrate.ts"]
CMD []

# The default target: the image the chart runs (its Deployments set command and args).
FROM runtime
