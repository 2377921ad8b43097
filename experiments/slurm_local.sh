#!/bin/sh
# slurm_local.sh [start|stop]: a single-node Slurm on this machine, so that
# experiments/sweep_slurm.sh can be checked without a cluster.  Installs
# Debian's slurm-wlm and munge when missing, writes /etc/slurm/slurm.conf
# for this host only (one partition 'local' with every CPU; no cgroups, no
# accounting), creates a munge key if there is none, and starts munged,
# slurmctld and slurmd directly (no systemd needed, as in a container).
# Needs root.  `stop` ends the three daemons.  Logs: /var/log/slurm/.
set -eu

[ "$(id -u)" = 0 ] || { echo "slurm_local: run as root" >&2; exit 1; }
host=$(hostname -s)

stop() {
  # by the pid files the daemons wrote, never by name
  for f in /run/slurmd.pid /run/slurmctld.pid /run/munge/munged.pid; do
    if [ -s "$f" ]; then kill "$(cat "$f")" 2>/dev/null || true; fi
  done
  echo "slurm_local: stopped" >&2
}
[ "${1:-start}" = stop ] && { stop; exit 0; }

need=
command -v slurmctld >/dev/null 2>&1 || need="$need slurm-wlm"
command -v munged >/dev/null 2>&1 || need="$need munge"
if [ -n "$need" ]; then
  export DEBIAN_FRONTEND=noninteractive
  # apt may be locked by another job: retry
  i=0
  # shellcheck disable=SC2086 # $need: one word per package
  until apt-get install -y -q --no-install-recommends $need >&2; do
    i=$((i + 1)); [ $i -ge 10 ] && exit 1
    sleep 10; apt-get update -q >&2 || true
  done
fi

# munge: a key, then the daemon (as the munge user the package created)
if [ ! -s /etc/munge/munge.key ]; then
  if command -v mungekey >/dev/null 2>&1; then mungekey --create --force >&2
  else dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null; fi
fi
chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
mkdir -p /run/munge && chown munge:munge /run/munge
pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged
munge -n | unmunge >/dev/null

cpus=$(nproc)
mem=$(awk '/MemTotal/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat > /etc/slurm/slurm.conf <<CONF
# written by ropelab experiments/slurm_local.sh: one node, this host
ClusterName=local
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# Debian's slurmd also reads cgroup.conf when it exists; none is needed
pgrep -x slurmctld >/dev/null || slurmctld
pgrep -x slurmd >/dev/null || slurmd
i=0
until sinfo -h -N -o '%t' 2>/dev/null | grep -Eq '^(idle|mix|alloc)'; do
  i=$((i + 1))
  [ $i -ge 30 ] && { echo "slurm_local: the node did not come up; see /var/log/slurm/" >&2; exit 1; }
  scontrol update nodename="$host" state=resume 2>/dev/null || true
  sleep 1
done
sinfo >&2
echo "slurm_local: Slurm runs on $host ($cpus CPUs); 'sh experiments/slurm_local.sh stop' ends it" >&2
