# syntax=docker/dockerfile:1
# Lectern's container image for the cluster shape (charts/lectern, k8s/). One image holds every
# service; each runs its own entry, as the chart's Deployments do (`node services/<name>/src/main.ts`
# in /app). Node 24 runs the TypeScript sources directly (type stripping), so there is no build
# step: the image is the workspace's sources plus its production dependencies.
#
#   docker build -t lectern .                          # the image the chart runs (entry chosen by its command)
#   docker build --target delivery -t lectern-delivery .   # or one image per service, ENTRYPOINT set
#
# Targets: management, delivery, indexer, graphql, recommendations, webhooks, migrate.
# Not built or run in this repository's CI (no container engine there): see docs/kubernetes.md.

ARG NODE_IMAGE=node:24.21.0-slim

# 1. Production dependencies only, from the lockfile (pnpm from the npm registry, pinned).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
RUN npm install --global --no-audit --no-fund pnpm@10.34.8
COPY package.json pnpm-lock.yaml pnpm-workspace.yaml .npmrc ./
COPY patches/ patches/
# Every workspace member's manifest, so the lockfile's importers all resolve.
COPY packages/ /tmp/src/packages/
COPY services/ /tmp/src/services/
COPY test/package.json test/package.json
RUN cd /tmp/src && find packages services -name package.json -not -path '*/node_modules/*' \
      -exec cp --parents {} /app/ \; \
 && cd /app && pnpm install --frozen-lockfile --prod --ignore-scripts --filter '!@lectern/test-engines' \
 && rm -rf /tmp/src /root/.local/share/pnpm /root/.cache

# 2. The runtime: sources without tests, the dependencies, a non-root user, a read-only-friendly
#    layout (only /tmp is written, an emptyDir in the chart).
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
RUN groupadd --system --gid 10001 lectern \
 && useradd --system --uid 10001 --gid lectern --home-dir /app --shell /usr/sbin/nologin lectern
COPY --from=deps /app/ /app/
COPY --chown=root:root package.json tsconfig.base.json ./
COPY --chown=root:root packages/ packages/
COPY --chown=root:root services/ services/
RUN find packages services \( -name '*.test.ts' -o -name 'testing' -o -name 'fuzz' \) -prune -exec rm -rf {} + \
 && rm -rf packages/testing
USER 10001:10001
EXPOSE 4400 4401 4402 4403 4404 4405 4406
ENTRYPOINT ["node"]
CMD ["services/management/src/main.ts"]

# 3. One target per service, each with its entry as ENTRYPOINT.
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
