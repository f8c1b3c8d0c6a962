#!/usr/bin/env bash
# Start this machine's PostgreSQL and make sure the test role and database exist.
#
# Run as root (Debian/Ubuntu). Safe to run again: it installs, starts and creates
# only what is missing. Messages go to stderr; the one line on stdout is the URL:
#
#   export TEST_DATABASE_URL=$(sudo scripts/postgres-test-db.sh)
#   make test
set -euo pipefail

ROLE=${PG_TEST_ROLE:-scorekeeper}
PASSWORD=${PG_TEST_PASSWORD:-scorekeeper}
DATABASE=${PG_TEST_DATABASE:-scorekeeper_test}

say() { printf 'postgres-test-db: %s\n' "$*" >&2; }

if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null; then
        exec sudo -- "$0" "$@"
    fi
    say "run me as root"
    exit 1
fi

if ! command -v pg_ctlcluster >/dev/null; then
    say "installing postgresql"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
fi

# The cluster: 15/main when there is one, else the newest one listed.
cluster_line() {
    pg_lsclusters --no-header | awk '$1 == "15" && $2 == "main"' | head -n 1 | grep . ||
        pg_lsclusters --no-header | sort -k1,1 -V -r | head -n 1
}
line=$(cluster_line || true)
if [[ -z $line ]]; then
    version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
    say "creating cluster $version/main"
    pg_createcluster "$version" main >&2
    line=$(cluster_line)
fi
read -r version cluster port status _ <<<"$line"

if [[ $status != online* ]]; then
    say "starting cluster $version/$cluster on port $port"
    pg_ctlcluster "$version" "$cluster" start >&2
fi

for _ in $(seq 1 60); do
    pg_isready -q -h 127.0.0.1 -p "$port" && break
    sleep 0.5
done
if ! pg_isready -q -h 127.0.0.1 -p "$port"; then
    say "PostgreSQL $version/$cluster is not answering on 127.0.0.1:$port"
    exit 1
fi

# Peer login as the postgres superuser, from a directory it can read.
as_postgres() { (cd / && runuser -u postgres -- "$@"); }
psql_admin() { as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$port" -d postgres "$@"; }

if [[ -z $(psql_admin -tA -c "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'") ]]; then
    say "creating role $ROLE"
    psql_admin -c "CREATE ROLE \"$ROLE\" LOGIN CREATEDB PASSWORD '$PASSWORD'"
else
    psql_admin -c "ALTER ROLE \"$ROLE\" LOGIN CREATEDB PASSWORD '$PASSWORD'"
fi

if [[ -z $(psql_admin -tA -c "SELECT 1 FROM pg_database WHERE datname = '$DATABASE'") ]]; then
    say "creating database $DATABASE"
    as_postgres createdb -p "$port" -O "$ROLE" "$DATABASE"
fi

say "ready: PostgreSQL $version/$cluster on 127.0.0.1:$port"
echo "postgresql+psycopg://$ROLE:$PASSWORD@127.0.0.1:$port/$DATABASE"
