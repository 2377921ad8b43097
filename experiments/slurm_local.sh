#!/bin/sh
# slurm_local.sh [start|stop|status] [DIR]: a single-node Slurm on this
# machine, so that experiments/sweep_slurm.sh can be checked without a
# cluster.  Every file it writes is under DIR (default: out/slurm_local in
# this repository): the slurm.conf, the munge key, socket, seed and log, the
# controller's state, slurmd's spool, the pid files and the logs.  Nothing
# under /etc, /var or /run is written, the ports are private (SLURM_LOCAL_PORT,
# default 16817, and the next one; refused when taken) and munged, slurmctld
# and slurmd run as the user who calls this script: Slurm then runs that
# user's jobs only, which is all a local sweep needs (root is needed only to
# install Debian's slurm-wlm and munge when they are missing).
#
# Client commands find this Slurm through SLURM_CONF; the script prints the
# line to export, and sweep_slurm.sh sets it itself when DIR is the default.
# `stop` ends the three daemons by the pid files they wrote under DIR.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-start}
dir=${2:-$top/out/slurm_local}
case $dir in /*) ;; *) dir=$(pwd)/$dir ;; esac
port=${SLURM_LOCAL_PORT:-16817}
conf=$dir/etc/slurm.conf
sock=$dir/munge/munge.socket
# a unix socket's path must fit sockaddr_un.sun_path (108 bytes with the NUL)
[ ${#sock} -lt 108 ] || { echo "slurm_local: directory path too long for a socket: '$dir'" >&2; exit 2; }

stop() {
  # by the pid files the daemons wrote, never by name
  for f in "$dir/run/slurmd.pid" "$dir/run/slurmctld.pid" "$dir/munge/munged.pid"; do
    if [ -s "$f" ]; then kill "$(cat "$f")" 2>/dev/null || true; rm -f "$f"; fi
  done
  echo "slurm_local: stopped" >&2
}
alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
case $cmd in
  stop) stop; exit 0 ;;
  status) SLURM_CONF=$conf sinfo; exit $? ;;
  start) ;;
  *) echo "slurm_local: unknown command '$cmd': expected start, stop or status" >&2; exit 2 ;;
esac

need=
command -v slurmctld >/dev/null 2>&1 || need="$need slurm-wlm"
command -v munged >/dev/null 2>&1 || need="$need munge"
if [ -n "$need" ]; then
  if [ "$(id -u)" -eq 0 ]; then sudo=; elif command -v sudo >/dev/null 2>&1; then sudo=sudo; else
    echo "slurm_local: missing packages:$need (install them as root)" >&2; exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  # apt may be locked by another job: retry
  i=0
  # shellcheck disable=SC2086 # $need: one word per package
  until $sudo apt-get install -y -q --no-install-recommends $need >&2; do
    i=$((i + 1)); [ $i -ge 10 ] && exit 1
    sleep 10; $sudo apt-get update -q >&2 || true
  done
fi

user=$(id -un)
host=$(hostname -s)
# munged refuses a socket or key directory that group or others can write
umask 077
mkdir -p "$dir/etc" "$dir/munge" "$dir/state" "$dir/spool" "$dir/log" "$dir/run"
chmod 700 "$dir" "$dir/munge"

# a port is taken when /proc/net/tcp{,6} lists it listening (state 0A)
taken() {
  hex=$(printf '%04X' "$1")
  cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk -v p=":$hex" '$2 ~ p"$" && $4 == "0A" { f = 1 } END { exit !f }'
}
if ! alive "$dir/run/slurmctld.pid"; then
  for p in "$port" $((port + 1)); do
    taken "$p" && { echo "slurm_local: port $p is in use: set SLURM_LOCAL_PORT to a free pair" >&2; exit 1; }
  done
fi

# munge: its own key (munged wants it owned by the daemon's user, mode 0600
# or stricter), socket, pid, seed and log, all under DIR; --force because
# munged as root would otherwise refuse, and as root it is only asked to
# guard this one socket
if [ ! -s "$dir/munge/munge.key" ]; then
  if command -v mungekey >/dev/null 2>&1; then mungekey --create --keyfile="$dir/munge/munge.key" >&2
  else dd if=/dev/urandom of="$dir/munge/munge.key" bs=1 count=1024 2>/dev/null; fi
fi
chmod 600 "$dir/munge/munge.key"
if ! alive "$dir/munge/munged.pid"; then
  munged --force --socket="$sock" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/munged.seed" \
    --log-file="$dir/log/munged.log"
fi
munge --socket="$sock" -n | unmunge --socket="$sock" >/dev/null

cpus=$(nproc)
mem=$(awk '/MemTotal/ { print int($2 / 1024 * 0.9) }' /proc/meminfo)
cat > "$conf" <<CONF
# written by ropelab experiments/slurm_local.sh: one node, this host, every
# file under $dir
ClusterName=local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
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
PlugStackConfig=$dir/etc/plugstack.conf
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
TmpFS=$dir/spool
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# no SPANK plugins (the default file is /etc/slurm/plugstack.conf); no
# cgroup.conf beside slurm.conf, so none is read
: > "$dir/etc/plugstack.conf"
chmod 644 "$conf" "$dir/etc/plugstack.conf"
export SLURM_CONF="$conf"
alive "$dir/run/slurmctld.pid" || slurmctld
alive "$dir/run/slurmd.pid" || slurmd
i=0
until sinfo -h -N -o '%t' 2>/dev/null | grep -Eq '^(idle|mix|alloc)'; do
  i=$((i + 1))
  [ $i -ge 30 ] && { echo "slurm_local: the node did not come up; see $dir/log/" >&2; exit 1; }
  scontrol update nodename="$host" state=resume 2>/dev/null || true
  sleep 1
done
sinfo >&2
echo "slurm_local: Slurm runs on $host ($cpus CPUs) as $user, ports $port-$((port + 1)), files in $dir" >&2
echo "slurm_local: export SLURM_CONF=$conf; 'sh experiments/slurm_local.sh stop' ends it" >&2
