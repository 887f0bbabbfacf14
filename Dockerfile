# syntax=docker/dockerfile:1
# The portal image: the BFF by default; docker-compose.yml runs the reference API from the
# same image with another command. Build: docker build -t portal .
ARG NODE_VERSION=20.20
ARG NPM_VERSION=11.19.1

FROM node:${NODE_VERSION}-bookworm-slim AS base
ARG NPM_VERSION
# The npm the lockfile and package.json's allowScripts are written for.
RUN npm install -g npm@${NPM_VERSION} && npm cache clean --force
WORKDIR /app

# Compilers for better-sqlite3 when no prebuilt binary fits; never part of the runtime image.
FROM base AS toolchain
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./

FROM toolchain AS deps
RUN npm ci

FROM toolchain AS runtime-deps
RUN npm ci --omit=dev && npm cache clean --force

FROM deps AS client
COPY . .
RUN npm run build

FROM base AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    CLIENT_DIST=/app/dist/client
COPY --from=runtime-deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY schemas ./schemas
COPY brands ./brands
COPY server ./server
COPY --from=client /app/dist/client ./dist/client
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "server/main.ts"]
