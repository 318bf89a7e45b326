# Shared by .ci/smoke-package and .ci/smoke-bundle: start a server as another user in an
# empty folder with HOME in a temporary folder, wait for it, check it, stop it.
# Sourced, not run. Needs curl.
#
# The server runs in a process group of its own (start_server), so that stop_server ends
# all of it: the shell that runs setpriv, the server's main process and its workers. Each
# script calls stop_server from its EXIT trap, so a failed check stops it too.

# A port nothing listens on.
free_port() {
  "$(command -v python3 || command -v python)" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# As root the install's missing write bits stop nobody; the server then runs as "nobody",
# who can write only to its HOME and the current folder.
as_user() {
  if [ "$(id -u)" = 0 ]; then
    setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
  else
    "$@"
  fi
}

# start_server LOGFILE COMMAND...: COMMAND as_user in the background, in a new process
# group whose id is the background job's PID (job control), left in $server.
start_server() {
  local log=$1; shift
  set -m
  as_user "$@" >"$log" 2>&1 &
  server=$!
  set +m
}

# port_free PORT: whether nothing listens on 127.0.0.1:PORT any more. A probe without
# SO_REUSEPORT, which granian's socket would let a second server share.
port_free() {
  "$(command -v python3 || command -v python)" -c '
import socket, sys
probe = socket.socket()
probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    probe.bind(("0.0.0.0", int(sys.argv[1])))
except OSError:
    sys.exit(1)' "$1"
}

# group_alive PGID: whether a process of the group is still running (not a zombie waiting
# for its parent). Where ps cannot list groups (Git Bash on Windows), the group's leader.
group_alive() {
  if ps -eo pgid=,stat= >/dev/null 2>&1; then
    ps -eo pgid=,stat= | awk -v group="$1" '$1 == group && $2 !~ /^Z/ { found = 1 } END { exit !found }'
  else
    kill -0 "$1" 2>/dev/null
  fi
}

# stop_server PORT: end the server's whole process group (graceful, then killed after
# 30 s), wait for it, and fail if anything still listens on PORT. Nothing to do when no
# server was started.
stop_server() {
  local port=$1 deadline=$((SECONDS + 30))
  [ -n "${server:-}" ] || return 0
  kill -TERM -- "-$server" 2>/dev/null || kill -TERM "$server" 2>/dev/null || true
  while group_alive "$server" && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  if group_alive "$server"; then
    echo "The server did not stop within 30 s: killed"
    kill -KILL -- "-$server" 2>/dev/null || true
  fi
  wait "$server" 2>/dev/null || true
  server=""
  [ -z "$port" ] && return 0
  deadline=$((SECONDS + 10))
  until port_free "$port"; do
    if [ $SECONDS -ge $deadline ]; then echo "Port $port still in use after the stop"; return 1; fi
    sleep 0.2
  done
  echo "ok: stopped, port $port free"
}

# wait_for URL LOGFILE PID: until the URL answers and the banner is printed (it comes once
# /healthz answers), the process dies, or 120 s pass.
wait_for() {
  local deadline=$((SECONDS + 120))
  until curl -fsS -o /dev/null "$1" 2>/dev/null && grep -q "Five Tricks is running" "$2"; do
    if ! kill -0 "$3" 2>/dev/null; then
      echo "The server stopped:"; cat "$2"; return 1
    fi
    if [ $SECONDS -ge $deadline ]; then
      echo "The server did not answer within 120 s:"; cat "$2"; return 1
    fi
    sleep 0.3
  done
}

# check_static BASE: the home page names a hashed static file, served with a long cache.
check_static() {
  local page asset headers
  page=$(curl -fsS "$1/")
  asset=$(grep -oE '/static/[^"]+\.[0-9a-f]{12}\.(css|js|svg)' <<<"$page" | head -1)
  if [ -z "$asset" ]; then
    echo "No static file with a hashed name on the home page"; return 1
  fi
  headers=$(curl -fsS -D - -o /dev/null "$1$asset")
  if ! grep -qiE '^cache-control:.*max-age=315360000.*immutable' <<<"$headers"; then
    echo "$asset has no long cache:"; echo "$headers"; return 1
  fi
  echo "ok: $asset with a long cache"
}

# check_phone BASE: the sign-in page, and a table page's poll of the rehearsal event.
check_phone() {
  local table
  curl -fsS -o /dev/null "$1/console/sign-in/" && echo "ok: the sign-in page"
  table=$(grep -E "^/t/" | tail -1)
  if [ -z "$table" ]; then echo "No table link of the rehearsal event"; return 1; fi
  curl -fsS -o /dev/null "$1$table" && echo "ok: a table's phone page $table"
  curl -fsS -o /dev/null -H 'HX-Request: true' "$1${table}live/" && echo "ok: its poll (${table}live/)"
}
