#!/usr/bin/env bash
# Starts and stops the real servers the integration tests use: PostgreSQL and Redis, on
# 127.0.0.1, on free ports, with throwaway data and no durability (fsync off, no Redis
# persistence). As root on Debian it installs what is missing with apt-get; a developer
# without root needs `postgresql` and `redis-server` installed. `start` also makes sure
# Debian's `chromium` is there for the studio's browser tests (e2e/src/studio), which drive it
# through playwright-core: nothing downloads a browser at test time.
#
#   scripts/services.sh start    start both (a no-op for one already running)
#   scripts/services.sh stop     stop both and delete their data
#   scripts/services.sh status   print the URLs, exit 1 when a server is down
#
# The URLs go to `.services/env.json` at the repository root ({ FRAMEWORK_TEST_POSTGRES_URL,
# FRAMEWORK_TEST_REDIS_URL }), which the tests read when those variables are not set, and to
# `.services/env` as shell `export` lines.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
state="${FRAMEWORK_SERVICES_DIR:-$root/.services}"
mkdir -p "$state"

log() { printf 'services: %s\n' "$*" >&2; }
is_root() { [ "$(id -u)" = 0 ]; }

free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

apt_install() {
  if ! is_root; then
    log "$1 is not installed and this is not root: install the Debian package '$2' (apt-get install -y $2)"
    exit 1
  fi
  log "installing $2 with apt-get"
  if [ ! -f "$state/.apt-updated" ]; then
    apt-get update -qq >/dev/null
    touch "$state/.apt-updated"
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >/dev/null
}

# Debian keeps the server programs under /usr/lib/postgresql/<version>/bin, off PATH.
pg_bin() {
  if command -v initdb >/dev/null 2>&1; then dirname "$(command -v initdb)"; return; fi
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  [ -n "$dir" ] && echo "$dir"
}

# PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user.
as_pg() {
  if is_root; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_running() {
  [ -f "$state/postgres.dir" ] || return 1
  local data
  data="$(cat "$state/postgres.dir")/data"
  [ -d "$data" ] && as_pg "$(pg_bin)/pg_ctl" -D "$data" status >/dev/null 2>&1
}

start_postgres() {
  if pg_running; then log "postgres already running"; return; fi
  [ -n "$(pg_bin)" ] || apt_install "PostgreSQL" postgresql
  local bin dir port
  bin=$(pg_bin)
  dir=$(mktemp -d /tmp/framework-postgres.XXXXXX)
  is_root && chown postgres:postgres "$dir"
  chmod 700 "$dir"
  port=$(free_port)
  as_pg "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-locale --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; exit 1; }
  as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -o \
    "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
  echo "$dir" >"$state/postgres.dir"
  echo "postgres://postgres@127.0.0.1:$port/postgres" >"$state/postgres.url"
  log "postgres on 127.0.0.1:$port"
}

stop_postgres() {
  [ -f "$state/postgres.dir" ] || return 0
  local dir
  dir=$(cat "$state/postgres.dir")
  if [ -d "$dir/data" ]; then
    as_pg "$(pg_bin)/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir" "$state/postgres.dir" "$state/postgres.url"
  log "postgres stopped"
}

redis_running() {
  [ -f "$state/redis.pid" ] && kill -0 "$(cat "$state/redis.pid")" 2>/dev/null
}

start_redis() {
  if redis_running; then log "redis already running"; return; fi
  command -v redis-server >/dev/null 2>&1 || apt_install "Redis" redis-server
  local port
  port=$(free_port)
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --pidfile "$state/redis.pid" --logfile "$state/redis.log" --dir "$state" >/dev/null
  for _ in $(seq 1 100); do
    redis-cli -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1
  done
  redis-cli -p "$port" ping >/dev/null || { cat "$state/redis.log" >&2; exit 1; }
  echo "redis://127.0.0.1:$port" >"$state/redis.url"
  log "redis on 127.0.0.1:$port"
}

stop_redis() {
  if redis_running; then
    local pid
    pid=$(cat "$state/redis.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    log "redis stopped"
  fi
  rm -f "$state/redis.pid" "$state/redis.url" "$state/redis.log"
}

write_env() {
  local pg="" redis=""
  [ -f "$state/postgres.url" ] && pg=$(cat "$state/postgres.url")
  [ -f "$state/redis.url" ] && redis=$(cat "$state/redis.url")
  printf '{ "FRAMEWORK_TEST_POSTGRES_URL": "%s", "FRAMEWORK_TEST_REDIS_URL": "%s" }\n' "$pg" "$redis" >"$state/env.json"
  printf 'export FRAMEWORK_TEST_POSTGRES_URL=%s\nexport FRAMEWORK_TEST_REDIS_URL=%s\n' "$pg" "$redis" >"$state/env"
}

ensure_chromium() {
  if command -v chromium >/dev/null 2>&1; then return; fi
  if ! is_root; then
    log "chromium is not installed: the studio's browser tests skip (and fail under CI=true) until the Debian package 'chromium' is (apt-get install -y chromium)"
    return
  fi
  apt_install "Chromium" chromium
}

case "${1:-}" in
  start)
    ensure_chromium
    start_postgres
    start_redis
    write_env
    cat "$state/env"
    ;;
  stop)
    stop_postgres
    stop_redis
    rm -f "$state/env.json" "$state/env"
    ;;
  status)
    code=0
    if pg_running; then echo "postgres: $(cat "$state/postgres.url")"; else echo "postgres: stopped"; code=1; fi
    if redis_running; then echo "redis: $(cat "$state/redis.url")"; else echo "redis: stopped"; code=1; fi
    exit $code
    ;;
  *)
    echo "usage: scripts/services.sh start|stop|status" >&2
    exit 2
    ;;
esac
