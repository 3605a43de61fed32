# Builds the web app and serves it with nginx (ops/docker/nginx.conf), which forwards API calls to
# the `api` service.
#   docker build -f ops/docker/web.Dockerfile -t metamodel-web .
# NODE_BASE and NGINX_BASE are the public images by default; ops/deploy/build-images.sh passes
# local stand-ins built from Debian's packages where no registry can be reached. Nothing else
# differs between the two.
ARG NODE_BASE=node:20-bookworm-slim
ARG NGINX_BASE=nginx:1.27-alpine

FROM ${NODE_BASE} AS build
WORKDIR /web
COPY web/package.json web/package-lock.json ./
# The secret `ca` (optional): a CA bundle for the npm registry where the build's network needs one
# (`--secret id=ca,src=...`); without it npm uses Node's own, as anywhere else.
RUN --mount=type=secret,id=ca \
    if [ -f /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi; \
    npm ci --no-audit --no-fund --loglevel=error
COPY web .
# nginx serves the precompressed .gz copies (gzip_static); it has no brotli module, so the .br
# copies (which the API's own static serving uses) stay out of this image.
RUN npm run build && find dist -name '*.br' -delete

FROM ${NGINX_BASE}
COPY ops/docker/nginx.conf /etc/nginx/conf.d/default.conf
COPY ops/docker/nginx-start.sh /usr/local/bin/nginx-start
COPY --from=build /web/dist /usr/share/nginx/html
CMD ["/bin/sh", "/usr/local/bin/nginx-start"]
