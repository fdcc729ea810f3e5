# syntax=docker/dockerfile:1
# The IBAX node. Build: docker build -t ibax-node-ts .   Run: see compose.yaml and the README.
# CI cannot run Docker: scripts/check-production-start.sh performs the same build and start without it.

# The Node.js release of development and CI (.nvmrc), in both stages; test/ops/container.e2e.ts keeps them equal.
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

# Build stage: every dependency; the TypeScript checked and bundled into dist/main.js (scripts/bundle.cjs).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json swc.config.json ormconfig.ts ./
COPY scripts/bundle.cjs scripts/prepare-embedded-template.ts ./scripts/
COPY src ./src
RUN npm run build
# The fresh database cluster that a first embedded start copies instead of running PGlite's initdb (16 s in
# the image). `npm ci` above ran before the script was here, so it is made now; an install that made none
# fails the build rather than every first start being slow.
RUN node -r @swc-node/register scripts/prepare-embedded-template.ts \
  && test -f node_modules/.cache/ibax-node/pglite-*/pgdata/PG_VERSION

# Runtime stage: the built node and production dependencies only, run by an unprivileged user.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=7079 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# Where the node looks for the template (beside the installed PGlite, src/database/embedded-init.ts); both
# stages install the same PGlite from the lock file. Read-only for the node: it copies it into /data.
COPY --from=build /app/node_modules/.cache/ibax-node ./node_modules/.cache/ibax-node
# Keys, persisted secrets and (without DATABASE_URL) the embedded database live in the volume.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 7079
# Ready = database reachable and genesis present; a stopping node reports not ready.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||7079)+'/readyz').then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]
# SIGTERM stops the node gracefully (it finishes its block and requests, closes the database, exits 0).
STOPSIGNAL SIGTERM
CMD ["node", "dist/main.js"]
