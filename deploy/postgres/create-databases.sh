#!/bin/sh
# Creates one database per service (database per service: no service reads another's tables).
# CLIPIT_DATABASES lists them, separated by spaces or commas. Idempotent, so it can also be run by hand
# when a new service is added to an existing volume:
#   docker-compose exec postgres sh /docker-entrypoint-initdb.d/10-create-databases.sh
# The postgres image runs it once, on an empty data directory. k8s/components/infra-single/ keeps an identical
# copy (kustomize cannot load files from outside its folder); the deploy-config test checks they match.
set -eu

databases=$(printf '%s' "${CLIPIT_DATABASES:-}" | tr ',' ' ')
if [ -z "$databases" ]; then
  echo "create-databases: CLIPIT_DATABASES is empty, nothing to create" >&2
  exit 0
fi

for db in $databases; do
  case "$db" in
    *[!a-z0-9_]*) echo "create-databases: refusing unsafe name '$db'" >&2; exit 1 ;;
  esac
  psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname postgres --quiet --tuples-only <<SQL
SELECT 'CREATE DATABASE "$db"' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$db')\gexec
SQL
  echo "create-databases: $db present"
done
