# syntax=docker/dockerfile:1
# countersign's image: compiled JavaScript on the current Node LTS, production dependencies only,
# a non-root user, and no writes outside /var/lib/countersign and /tmp (runs with a read-only root
# filesystem). Build: docker build -t countersign .
# The base image, by tag and by the digest of the tag's multi-platform index: a tag can be
# re-pointed to another image, a digest cannot, so every build of every stage gets the same bytes.
# The tag is kept for whoever reads it. scripts/update-base-image.sh asks the registry for the
# tag's current index digest (crane digest, or docker buildx imagetools inspect) and rewrites this
# line; run it to take the Debian fixes of a rebuilt tag or a new Node patch release.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim@sha256:d6aa754f16b3197301076f047b5def2f02ea1dbbc2ca920407d46d7ec7f87b20
# Filled by the release build (docker build --build-arg VERSION=... --build-arg REVISION=$(git rev-parse HEAD)).
ARG VERSION=0.1.0
ARG REVISION=unknown

# 1. Compile src/ and migrations/ to dist/ (needs the dev dependencies: typescript).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
COPY scripts/build.mjs ./scripts/build.mjs
RUN npm run build

# 2. The runtime dependencies alone (no tsx, no typescript, no test tools).
FROM ${NODE_IMAGE} AS dependencies
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts && npm cache clean --force

# 3. The runtime: no src/, so bin/countersign.js runs dist/ and compiles nothing at start.
FROM ${NODE_IMAGE} AS runtime
ARG NODE_IMAGE
ARG VERSION
ARG REVISION
LABEL org.opencontainers.image.title="countersign" \
      org.opencontainers.image.description="Policy-decision service for a custody platform's co-signer" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.base.name="${NODE_IMAGE}"
ENV NODE_ENV=production \
    COUNTERSIGN_HOST=0.0.0.0 \
    COUNTERSIGN_PORT=8080 \
    COUNTERSIGN_POLICIES=/app/policies \
    COUNTERSIGN_DATA_DIR=/var/lib/countersign
WORKDIR /app
COPY --from=dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
# No policy bundle: a deployment mounts its own at COUNTERSIGN_POLICIES (/app/policies), and without
# one `serve` refuses to start. The example bundle is not a default to sign by: its limits are an
# example's, and its dollar window needs prices only a custody API (or example pins) can give.
# The `node` user of the base image (uid 1000) owns only the data directory: the embedded PGlite
# database lives there when DATABASE_URL is unset. Everything else stays root-owned and read-only.
# No package manager at run time: the dependencies come installed from the dependencies stage,
# and npm, npx, corepack and yarn would only be tools for whoever gets a shell in the container.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack /opt/yarn-v* \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg \
 && chmod 0755 bin/countersign.js \
 && ln -s /app/bin/countersign.js /usr/local/bin/countersign \
 && mkdir -p /var/lib/countersign \
 && chown 1000:1000 /var/lib/countersign
VOLUME ["/var/lib/countersign"]
USER 1000:1000
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.COUNTERSIGN_PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# OpenTelemetry: with any OTEL_* variable set, bin/countersign.js loads the instrumentation entry
# (dist/src/telemetry/instrument.js) before the service, as `node --import` would.
ENTRYPOINT ["countersign"]
CMD ["serve"]
