FROM node:20-bookworm-slim
ENV COREPACK_ENABLE_DOWNLOAD_PROMPT=0 CI=true
RUN corepack enable
WORKDIR /app
COPY . .
RUN pnpm install --frozen-lockfile
EXPOSE 5001 3000
CMD ["pnpm", "--filter", "@atelier/api", "start"]
