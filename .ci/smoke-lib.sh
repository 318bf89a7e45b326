# Shared by .ci/smoke-package and .ci/smoke-bundle: start a server as another user in an
# empty folder with HOME in a temporary folder, wait for it, check it, stop it.
# Sourced, not run. Needs curl.

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

# wait_for URL LOGFILE PID: until the URL answers, the process dies, or 120 s pass.
wait_for() {
  local deadline=$((SECONDS + 120))
  until curl -fsS -o /dev/null "$1" 2>/dev/null; do
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
