#!/usr/bin/env bash
# Starts PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) when they are not answering, with
# the machine's own commands, and installs redis-server when a test needs a private one and it is
# missing, and Debian's Chromium for the browser tests. Fails loudly when a service still does not answer: the suites that need it must run.
set -euo pipefail

wait_for() { # name, check command
  for _ in $(seq 1 30); do
    if eval "$2" >/dev/null 2>&1; then echo "== $1 is up"; return 0; fi
    sleep 1
  done
  echo "== $1 did not come up" >&2
  return 1
}

if ! command -v redis-server >/dev/null || ! command -v pg_isready >/dev/null; then
  apt-get update -qq && apt-get install -y -qq redis-server postgresql-client >/dev/null
fi

if ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  echo "== starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql)" main start || true
fi
wait_for PostgreSQL "pg_isready -h 127.0.0.1 -p 5432 -q && psql -h 127.0.0.1 -U postgres -d postgres -Atc 'select 1'"

if ! redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; then
  echo "== starting Redis"
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
wait_for Redis "redis-cli -h 127.0.0.1 -p 6379 ping | grep -q PONG"

# The browser tests (test/browser) drive Debian's Chromium and never skip: install it when missing.
if [ ! -x /usr/bin/chromium ]; then
  echo "== installing Chromium"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
# The binary itself, not Debian's /usr/bin/chromium launcher: the launcher sources
# /etc/chromium.d/dev-shm, whose `[ $shm_avail -lt … ]` breaks ("[: … unexpected operator") when
# findmnt lists /dev/shm twice, as it does in a container with /dev/shm mounted over.
/usr/lib/chromium/chromium --version
