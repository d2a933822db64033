#!/usr/bin/env bash
# A single-node Slurm cluster on this machine, for trying scripts/regress --slurm (and for its
# test, scripts/slurm-test.sh): installs Debian's slurm-wlm and munge, writes a minimal
# slurm.conf with this host as controller and only compute node, and starts munged, slurmctld and
# slurmd directly (containers often have no systemd).
# Needs root (or sudo): it installs packages, writes /etc/slurm and starts system daemons.
#
# Usage: scripts/slurm-local.sh start    install if missing, configure, start, wait until idle
#        scripts/slurm-local.sh stop     stop the daemons this script started (by their pid files)
#        scripts/slurm-local.sh status   sinfo
#
# It never overwrites a slurm.conf it did not write: on a machine with a real Slurm
# configuration, use that cluster instead.
set -euo pipefail

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
CONF=/etc/slurm/slurm.conf
MARK="# written by kdopcd scripts/slurm-local.sh"
RUN=/run/kdopcd-slurm  # pid files of the daemons this script started
PACKAGES=(slurm-wlm munge)

install() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "slurm-local: installing ${missing[*]}"
  while fuser /var/lib/dpkg/lock-frontend >/dev/null 2>&1; do sleep 3; done
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

configure() {
  if [ -f "$CONF" ] && ! grep -qF "$MARK" "$CONF"; then
    echo "slurm-local: $CONF exists and was not written by this script; leaving it alone" >&2
    return 0
  fi
  local host cpus mem
  host=$(hostname -s)
  # What slurmd itself detects, so the node registers without a configuration mismatch.
  cpus=$(slurmd -C | sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' | head -1)
  mem=$(slurmd -C | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' | head -1)
  $SUDO mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm "$RUN"
  # proctrack/linuxproc and task/none: no cgroup plugin, which a container may not allow.
  # select/cons_tres with CR_Core: one array task per core at a time.
  $SUDO tee "$CONF" >/dev/null <<EOF
$MARK
ClusterName=kdopcd-local
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$RUN/slurmctld.pid
SlurmdPidFile=$RUN/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  echo "slurm-local: wrote $CONF (node $host, $cpus CPUs, $mem MB)"
}

alive() {  # alive PIDFILE: the process of the pid file runs
  [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

start() {
  install
  configure
  $SUDO mkdir -p "$RUN" /run/munge
  $SUDO chown munge:munge /run/munge
  if ! alive /run/munge/munged.pid; then
    [ -f /etc/munge/munge.key ] || $SUDO runuser -u munge -- mungekey --create
    $SUDO runuser -u munge -- /usr/sbin/munged
    $SUDO cp /run/munge/munged.pid "$RUN/munged.started"
    echo "slurm-local: started munged"
  fi
  if ! alive "$RUN/slurmctld.pid"; then
    $SUDO /usr/sbin/slurmctld
    echo "slurm-local: started slurmctld"
  fi
  if ! alive "$RUN/slurmd.pid"; then
    $SUDO /usr/sbin/slurmd
    echo "slurm-local: started slurmd"
  fi
  for _ in $(seq 60); do
    if sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then
      sinfo
      return 0
    fi
    sleep 1
  done
  echo "slurm-local: the node did not come up; see /var/log/slurm/" >&2
  sinfo >&2 || true
  return 1
}

stop() {
  for f in "$RUN/slurmd.pid" "$RUN/slurmctld.pid"; do
    if alive "$f"; then $SUDO kill "$(cat "$f")"; fi
  done
  # munged only if this script started it (another service may use it).
  if [ -f "$RUN/munged.started" ]; then
    if alive "$RUN/munged.started"; then $SUDO kill "$(cat "$RUN/munged.started")"; fi
    $SUDO rm -f "$RUN/munged.started"
  fi
  echo "slurm-local: stopped"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) sinfo ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
