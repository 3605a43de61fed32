# Builds the web app and serves it with nginx, which forwards API calls to the api service.
FROM node:20-slim AS build
WORKDIR /web
COPY web/package.json web/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web .
RUN npm run build

FROM nginx:1.27-alpine
COPY ops/docker/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /web/dist /usr/share/nginx/html
