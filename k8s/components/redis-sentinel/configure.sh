#!/bin/sh
# Writes this pod's redis.conf and sentinel.conf into /conf before its two servers start. The master is
# asked of the other pods' sentinels first: after a failover it is another pod, and a restarted redis-0
# must come back as that pod's replica, never as a second master. Only when no sentinel answers (a fresh
# install, or every pod starting at once) is redis-0 the master.
set -eu

# Names as every pod and KEDA's operator (in its own namespace) resolve them: pod IPs change on restart.
fqdn() { printf '%s.redis.%s.svc' "$1" "$POD_NAMESPACE"; }
self=$(fqdn "$POD_NAME")

master=""
for i in 0 1 2; do
  [ "redis-$i" = "$POD_NAME" ] && continue
  answer=$(timeout 3 redis-cli -h "$(fqdn "redis-$i")" -p 26379 --raw sentinel get-master-addr-by-name clipit 2>/dev/null || true)
  host=$(printf '%s\n' "$answer" | sed -n 1p)
  case "$host" in
    redis-[0-9]*.redis.*) master=$host; break ;;
  esac
done
if [ -z "$master" ]; then
  master=$(fqdn redis-0)
  echo "configure: no sentinel knows a master; starting with $master as the master"
else
  echo "configure: the sentinels name $master as the master"
fi

# No password inside the cluster's network, as with the one-replica Redis: said here, so the image's
# entrypoint adds nothing of its own.
{
  echo 'port 6379'
  echo 'protected-mode no'
  echo 'dir /data'
  # BullMQ needs noeviction; append-only persistence keeps queued jobs across restarts.
  echo 'appendonly yes'
  echo 'maxmemory-policy noeviction'
  echo "replica-announce-ip $self"
  [ "$master" = "$self" ] || echo "replicaof $master 6379"
} > /conf/redis.conf

{
  echo 'port 26379'
  echo 'protected-mode no'
  echo 'sentinel resolve-hostnames yes'
  echo 'sentinel announce-hostnames yes'
  echo "sentinel announce-ip $self"
  echo "sentinel monitor clipit $master 6379 2"
  echo 'sentinel down-after-milliseconds clipit 5000'
  echo 'sentinel failover-timeout clipit 60000'
  echo 'sentinel parallel-syncs clipit 1'
} > /conf/sentinel.conf
