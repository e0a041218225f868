# The portal as one container: built with the dev tools, run on plain Node
# with production dependencies only, as the unprivileged `node` user.
# Node 24 LTS: the line CI runs the whole suite on. Nothing is compiled (SQLite is Node's own
# node:sqlite; sharp and esbuild come prebuilt in their npm packages), so no toolchain is installed.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
# MALLOC_ARENA_MAX: as npm start sets it (README, "Memory").
ENV NODE_ENV=production PORT=8080 DATA_DIR=/data MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json /app/.npmrc ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist/web ./dist/web
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/brands ./brands
COPY --from=build /app/schemas ./schemas
COPY --from=build /app/src/cli/npm-start.mjs /app/src/cli/supported-node.mjs ./src/cli/
RUN mkdir -m 700 /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server/start.js"]
