#!/bin/sh
# Starts nginx with the container's own DNS server as its resolver (written from
# /etc/resolv.conf: Docker's 127.0.0.11, or podman's network gateway). nginx.conf names the API by
# a variable, so nginx looks `api` up when a request needs it, not once at start: nginx starts
# before the api container exists, and follows a restarted or recreated api container to its new
# address instead of failing with "host not found in upstream" or sending to a dead address.
set -eu
# Only the first: nginx asks its resolvers in turn, and podman lists the host's own DNS server
# after its network's (which knows the service names), so another could answer "no such host".
server=$(awk '$1 == "nameserver" { a = $2; if (a ~ /:/) a = "[" a "]"; print a; exit }' /etc/resolv.conf)
[ -n "$server" ] || { echo "nginx-start: no nameserver in /etc/resolv.conf" >&2; exit 1; }
echo "resolver $server valid=5s;" > /etc/nginx/conf.d/00-resolver.conf
exec nginx -g 'daemon off;'
