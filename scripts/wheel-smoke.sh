#!/usr/bin/env bash
# Build the wheel, install it (not editable) into a fresh venv, upgrade a fresh
# SQLite database from it outside the checkout, serve it with gunicorn and fetch
# the front page and its stylesheet. Catches templates, static files or
# migrations missing from the wheel.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PYTHON=${PYTHON:-python3}

work=$(mktemp -d "${TMPDIR:-/tmp}/scorekeeper-wheel.XXXXXX")
server_pid=
cleanup() {
    if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

say() { printf 'wheel-smoke: %s\n' "$*"; }
fail() {
    printf 'wheel-smoke: FAILED: %s\n' "$*" >&2
    if [[ -f $work/server.log ]]; then
        echo "--- server log ---" >&2
        tail -n 50 "$work/server.log" >&2
    fi
    exit 1
}

say "building the wheel"
"$PYTHON" -m pip wheel --quiet --no-deps -w "$work/dist" "$repo"
wheel=$(ls "$work"/dist/scorekeeper-*.whl)
say "built $(basename "$wheel")"

say "installing it into a fresh venv"
"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "$wheel"

# Everything from here runs outside the checkout, so nothing can come from it.
mkdir "$work/elsewhere"
cd "$work/elsewhere"
export DATABASE_URL="sqlite:///$work/fresh.sqlite3"
export SECRET_KEY=${SECRET_KEY:-wheel-smoke-not-secret}
unset TEST_DATABASE_URL FLASK_APP PYTHONPATH || true

location=$("$work/venv/bin/python" -c 'import scorekeeper; print(scorekeeper.__file__)')
[[ $location == "$work/venv/"* ]] || fail "scorekeeper was imported from $location, not the venv"

say "upgrading a fresh database: $DATABASE_URL"
"$work/venv/bin/flask" --app scorekeeper db upgrade
tables=$("$work/venv/bin/python" - "$work/fresh.sqlite3" <<'PY'
import sqlite3, sys
with sqlite3.connect(sys.argv[1]) as connection:
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
print(" ".join(sorted(name for (name,) in rows)))
PY
)
[[ " $tables " == *" alembic_version "* ]] || fail "db upgrade created no schema (tables: $tables)"
say "tables: $tables"

port=$("$work/venv/bin/python" -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])')
base="http://127.0.0.1:$port"

say "serving with gunicorn on $base"
# Its own HOME, so its control socket (~/.gunicorn) can't disturb another gunicorn.
mkdir "$work/home"
HOME="$work/home" "$work/venv/bin/gunicorn" --bind "127.0.0.1:$port" --workers 1 \
    --config python:scorekeeper.serving "scorekeeper:create_app()" >"$work/server.log" 2>&1 &
server_pid=$!

for _ in $(seq 1 60); do
    kill -0 "$server_pid" 2>/dev/null || fail "gunicorn exited"
    curl -s -o /dev/null --max-time 2 "$base/" && break
    sleep 0.5
done

fetch() { # fetch PATH: fail unless it answers 200
    local code
    code=$(curl -sS -o "$work/body" -w '%{http_code}' --max-time 10 "$base$1") ||
        fail "GET $1: no answer"
    [[ $code == 200 ]] || fail "GET $1 answered $code: $(head -c 300 "$work/body")"
    say "GET $1: 200, $(wc -c <"$work/body") bytes"
}

fetch /
grep -qi '<html' "$work/body" || fail "GET / is not an HTML page"
grep -q '<style>' "$work/body" || fail "GET / carries no stylesheet"
fetch /static/style.css
fetch /static/pages.css
fetch /styles/grid.css
fetch /api/sessions
fetch /api/openapi.json
grep -q '"openapi": *"3.1.0"' "$work/body" || fail "GET /api/openapi.json is not the OpenAPI document"

kill "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=
say "passed"
