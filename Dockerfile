# Lectern's container image for the cluster shape (charts/lectern, k8s/). One image holds every
# service; each runs its own entry, as the chart's Deployments do (`node services/<name>/src/main.ts`
# in /app). Node 24 runs the TypeScript sources directly (type stripping), so the services have no
# build step: the image is the workspace's sources plus its production dependencies, the editor
# app's build and the recommendations' embedding model.
#
# What needs a package registry is laid out on the host first, in .image-context/ (docs/kubernetes.md,
# "The image"), so the build itself needs no network; scripts/image.sh does both:
#
#   scripts/image.sh build -t lectern                  # the image the chart runs (entry chosen by its command)
#   scripts/image.sh build -t lectern --base lectern-node:24.21.0   # on the base made here (no registry)
#   scripts/image.sh prepare && docker build --target delivery -t lectern-delivery .   # one image per service
#
# Targets: management, delivery, indexer, graphql, recommendations, webhooks, migrate.
# No `# syntax` line: BuildKit would pull its frontend from a registry; the classic builder and
# BuildKit both build this file.

ARG NODE_IMAGE=node:24.21.0-slim

# 1. Production dependencies only (pnpm install --prod --ignore-scripts from the lockfile, no test
#    helpers), laid out on the host by scripts/image-layout.sh manifests + deps.
FROM ${NODE_IMAGE} AS deps
ADD .image-context/deps.tar /app/

# 2. The sources without tests (only the folders they come from are copied in).
FROM ${NODE_IMAGE} AS sources
COPY scripts/image-layout.sh /src/scripts/image-layout.sh
COPY package.json tsconfig.base.json /src/
COPY packages /src/packages
COPY services /src/services
RUN sh /src/scripts/image-layout.sh sources /src /sources

# 3. The editor app's build (apps/editor/dist, which Management serves at /app/), built on the host
#    by scripts/image-layout.sh editor from the app's sources and the lockfile.
FROM ${NODE_IMAGE} AS editor
ADD .image-context/editor.tar /editor/

# 4. The runtime: dependencies and sources owned by root, run as uid 10001; only /tmp is written
#    (an emptyDir in the chart), so the root filesystem can be read-only.
FROM ${NODE_IMAGE} AS runtime
# The model is all-MiniLM-L6-v2 int8 (scripts/lib/models.sh), used when LECTERN_RECS_EMBEDDING=onnx.
ENV NODE_ENV=production LECTERN_RECS_MODEL_DIR=/app/models/all-MiniLM-L6-v2-int8
WORKDIR /app
RUN groupadd --system --gid 10001 lectern \
 && useradd --system --uid 10001 --gid lectern --home-dir /app --shell /usr/sbin/nologin lectern
COPY --from=deps /app/ /app/
COPY --from=sources /sources/ /app/
COPY --from=editor /editor/ /app/
COPY .image-context/model/ /app/models/all-MiniLM-L6-v2-int8/
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
