#!/usr/bin/env bash
# setup-cluster.sh - the cluster tier's test cluster: one-machine SLURM reachable over SSH
# on loopback (127.0.0.1:$SSH_PORT). Not for production use: it trusts every local user.
# Debian 12, run as root. Idempotent: re-running skips what is installed/running.
# Installs munge + slurmctld/slurmd + openssh-server (+ Quantum ESPRESSO unless
# INSTALL_QE=0), starts them by hand (no systemd), creates $TEST_USER with an
# ed25519 key. Daemons: munged, slurmctld, slurmd, sshd. Stop: stop-cluster.sh.
set -euo pipefail

BASE=${CLUSTER_DIR:-/tmp/dreams-test-cluster}
SSH_PORT=${SSH_PORT:-2222}
TEST_USER=${TEST_USER:-testuser}
CLUSTER=${CLUSTER_NAME:-localcluster}
INSTALL_QE=${INSTALL_QE:-1}
SL=$BASE/slurm
SS=$BASE/ssh
export DEBIAN_FRONTEND=noninteractive

log() { printf '[setup %6.1fs] %s\n' "$(( $(date +%s%N) / 1000000 - T0 ))e-3" "$*"; }
T0=$(( $(date +%s%N) / 1000000 ))
# $1 = pid file; a zombie (exited, not yet reaped by PID 1) counts as not running
running() { local p; [ -s "$1" ] && p=$(cat "$1") && kill -0 "$p" 2>/dev/null \
            && [ "$(cut -d' ' -f3 "/proc/$p/stat" 2>/dev/null)" != Z ]; }

# ---------- 1. packages ----------
PKGS=(munge slurmctld slurmd slurm-client libpmix-dev openssh-server openssh-client)
[ "$INSTALL_QE" = 1 ] && PKGS+=(quantum-espresso quantum-espresso-data)
if [ "$(id -u)" != 0 ]; then
  echo "setup-cluster.sh starts system daemons (munged, slurmctld, slurmd, sshd) and must run as root: sudo $0" >&2; exit 1
fi
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  apt-get update -qq
  # policy-rc.d (exit 101) on these images keeps postinst scripts from starting services
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
log "packages ok"

# ---------- 2. munge ----------
if [ ! -s /etc/munge/munge.key ]; then          # postinst normally creates it
  mungekey --create --keyfile=/etc/munge/munge.key 2>/dev/null \
    || dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 status=none
fi
chown munge:munge /etc/munge/munge.key; chmod 0400 /etc/munge/munge.key
install -d -o munge -g munge -m 0755 /run/munge
install -d -o munge -g munge -m 0700 /var/lib/munge /var/log/munge
if ! running /run/munge/munged.pid; then
  runuser -u munge -- /usr/sbin/munged
fi
for _ in $(seq 50); do munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.1; done
munge -n </dev/null | unmunge >/dev/null
log "munged up (pid $(cat /run/munge/munged.pid))"

# ---------- 3. slurm ----------
install -d -m 0755 "$SL" "$SL/state" "$SL/spool"
cat > "$SL/slurm.conf" <<EOF
ClusterName=$CLUSTER
SlurmctldHost=localhost
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=pmix
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$SL/jobcomp.txt
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=300
StateSaveLocation=$SL/state
SlurmdSpoolDir=$SL/spool
SlurmctldPidFile=$SL/slurmctld.pid
SlurmdPidFile=$SL/slurmd.pid
SlurmctldLogFile=$SL/slurmctld.log
SlurmdLogFile=$SL/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=2000 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
# a partition whose 5-minute limit no DREAMS job fits: tests of jobs SLURM will never start
PartitionName=short Nodes=localhost MaxTime=5 State=UP
EOF
install -d -m 0755 /etc/slurm
reconfigure=""
if ! cmp -s "$SL/slurm.conf" /etc/slurm/slurm.conf; then cp "$SL/slurm.conf" /etc/slurm/slurm.conf; reconfigure=1; fi

# slurmctld refuses to start ("CLUSTER NAME MISMATCH") if the saved state is from another ClusterName
if [ -s "$SL/state/clustername" ] && [ "$(cat "$SL/state/clustername")" != "$CLUSTER" ]; then
  rm -rf "${SL:?}/state/"* "${SL:?}/spool/"*
fi
if ! running "$SL/slurmctld.pid"; then
  /usr/sbin/slurmctld || { tail -n 5 "$SL/slurmctld.log" >&2; exit 1; }
elif [ -n "$reconfigure" ]; then
  scontrol reconfigure   # a running controller started from an older slurm.conf
fi
# hostname is not "localhost": -N tells slurmd which NodeName it is
if ! running "$SL/slurmd.pid"; then
  /usr/sbin/slurmd -N localhost || { tail -n 5 "$SL/slurmd.log" >&2; exit 1; }
fi
state=""
for _ in $(seq 100); do
  state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
  case "$state" in idle|mixed|allocated) break;; esac
  sleep 0.1
done
case "$state" in
  idle|mixed|allocated) ;;
  *) scontrol update NodeName=localhost State=RESUME 2>/dev/null || true; sleep 1
     state=$(sinfo -h -n localhost -o %T) ;;
esac
# sacct -c opens JobCompLoc O_WRONLY|O_APPEND even to read it, so non-root users need write
# access; slurmctld resets the file to 0644 at every start and 'scontrol reconfigure'.
touch "$SL/jobcomp.txt"; chmod 0666 "$SL/jobcomp.txt"
log "slurm up: node localhost is '$state'"

# ---------- 4. test user + sshd on 127.0.0.1:$SSH_PORT ----------
id "$TEST_USER" >/dev/null 2>&1 || useradd -m -s /bin/bash "$TEST_USER"
usermod -p '*' "$TEST_USER"   # useradd leaves '!' (locked): sshd with UsePAM no refuses locked accounts
install -d -m 0755 "$SS"
[ -s "$SS/ssh_host_ed25519_key" ] || ssh-keygen -q -t ed25519 -N '' -C cluster-host -f "$SS/ssh_host_ed25519_key"
[ -s "$SS/id_ed25519" ] || ssh-keygen -q -t ed25519 -N '' -C "$TEST_USER@cluster" -f "$SS/id_ed25519"
H=$(getent passwd "$TEST_USER" | cut -d: -f6)
install -d -m 0700 -o "$TEST_USER" -g "$TEST_USER" "$H/.ssh"
install -m 0600 -o "$TEST_USER" -g "$TEST_USER" "$SS/id_ed25519.pub" "$H/.ssh/authorized_keys"
chmod 0600 "$SS/id_ed25519"   # OpenSSH ignores a private key readable by others ("UNPROTECTED PRIVATE KEY FILE")
cat > "$SS/sshd_config" <<EOF
Port $SSH_PORT
ListenAddress 127.0.0.1
HostKey $SS/ssh_host_ed25519_key
PidFile $SS/sshd.pid
AuthorizedKeysFile .ssh/authorized_keys
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin no
AllowUsers $TEST_USER
UsePAM no
# the job runner's ProxyJump chains forward through this sshd (the default, stated so it stays)
AllowTcpForwarding yes
Subsystem sftp internal-sftp
EOF
install -d -m 0755 /run/sshd          # privilege-separation dir, wiped with /run
/usr/sbin/sshd -t -f "$SS/sshd_config"
if ! running "$SS/sshd.pid"; then /usr/sbin/sshd -f "$SS/sshd_config" -E "$SS/sshd.log"; fi
printf '[127.0.0.1]:%s %s\n' "$SSH_PORT" "$(cut -d' ' -f1,2 "$SS/ssh_host_ed25519_key.pub")" > "$SS/known_hosts"
cat > "$SS/ssh_config" <<EOF
Host cluster
  HostName 127.0.0.1
  Port $SSH_PORT
  User $TEST_USER
  IdentityFile $SS/id_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $SS/known_hosts
  StrictHostKeyChecking yes
  BatchMode yes
EOF
for _ in $(seq 50); do
  ssh -F "$SS/ssh_config" cluster true </dev/null 2>/dev/null && break; sleep 0.1
done
ssh -F "$SS/ssh_config" cluster 'sinfo -h -o "%P %a %D %T"' </dev/null
log "sshd up on 127.0.0.1:$SSH_PORT (pid $(cat "$SS/sshd.pid")); try: ssh -F $SS/ssh_config cluster sinfo"
