# Atelier's images, from one build:
#   target `app` (default): the API (`node --conditions=atelier-dist apps/api/dist/server.js`) and the
#     flow worker (`... apps/worker/dist/index.js`): built JavaScript run by Node directly under tini,
#     no pnpm or tsx at run time, so SIGTERM reaches Node and the shutdown is clean.
#   target `web`: the web app's static files served by nginx on port 3000.

FROM node:20-bookworm-slim AS build
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0 CI=true
RUN corepack enable
WORKDIR /app
COPY . .
RUN pnpm install --frozen-lockfile
# Where the web app finds the API (default: the page's host on port 5001).
ARG VITE_API_URL=
ENV VITE_API_URL=${VITE_API_URL}
# The API, the worker and the workspace packages they use, bundled to dist/ (esbuild); the web app and
# the embeddable chat the API serves at /embed/{token} (EMBED_DIST_DIR).
RUN pnpm exec turbo run build --filter=@atelier/api --filter=@atelier/worker --filter=@atelier/web

FROM node:20-bookworm-slim AS app
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY --from=build /app /app
# Uploaded documents (and the embedded database when DATABASE_URL is not set) live in DATA_DIR.
RUN mkdir -p /data && chown node:node /data
ENV NODE_ENV=production DATA_DIR=/data
USER node
EXPOSE 5001
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--conditions=atelier-dist", "apps/api/dist/server.js"]

FROM nginx:1.27-alpine AS web
COPY docker/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/apps/web/dist /usr/share/nginx/html
EXPOSE 3000
