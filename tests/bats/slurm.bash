# SPDX-License-Identifier: GPL-2.0-or-later
# A single-node Slurm of its own for slurm.bats: munged, slurmctld and
# slurmd started as root from a generated configuration in a temporary
# directory (their keys, sockets, state, pid and log files all there, on
# free ports), waited for with a bounded loop, and stopped by the PIDs this
# file started.  slurm_start says why it could not start in SLURM_WHY.

# free_ports N: N TCP ports nobody listens on now
free_ports() {
	python3 -c 'import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))' "$1"
}

# slurm_daemon NAME COMMAND...: started in the background, its PID kept
slurm_daemon() {
	local name=$1
	shift
	"$@" </dev/null >"$SLURM_DIR/$name.out" 2>&1 3>&- &
	echo $! >"$SLURM_DIR/$name.started"
}

# slurm_wait_idle: until sinfo shows the node idle (60 s at most)
slurm_wait_idle() {
	for _ in $(seq 1 600); do
		[ "$(sinfo -h -o %t 2>/dev/null)" = idle ] && return 0
		sleep 0.1
	done
	return 1
}

slurm_write_conf() {
	local host=$1 ctld_port=$2 slurmd_port=$3
	cat >"$SLURM_DIR/slurm.conf" <<EOC
ClusterName=pfmontest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SLURM_DIR/munge/munge.socket
StateSaveLocation=$SLURM_DIR/state
SlurmdSpoolDir=$SLURM_DIR/spool
SlurmctldPidFile=$SLURM_DIR/slurmctld.pid
SlurmdPidFile=$SLURM_DIR/slurmd.pid
SlurmctldLogFile=$SLURM_DIR/slurmctld.log
SlurmdLogFile=$SLURM_DIR/slurmd.log
PlugStackConfig=$SLURM_DIR/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc --all) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
EOC
	: >"$SLURM_DIR/plugstack.conf"
}

# slurm_start: 0 with SLURM_CONF exported, or 1 with SLURM_WHY
slurm_start() {
	local p
	SLURM_WHY=
	for p in munged slurmctld slurmd srun sbatch salloc sinfo python3; do
		command -v "$p" >/dev/null || PATH=$PATH:/usr/sbin command -v "$p" >/dev/null ||
			{ SLURM_WHY="$p is not installed (contrib/install-deps.sh installs Slurm and munge)"; return 1; }
	done
	export PATH=$PATH:/usr/sbin
	[ "$(id -u)" -eq 0 ] || { SLURM_WHY="Slurm's daemons run as root here, this is uid $(id -u)"; return 1; }
	SLURM_DIR=$(mktemp -d "${TMPDIR:-/tmp}/pfmon-slurm.XXXXXX")
	export SLURM_DIR
	chmod 755 "$SLURM_DIR"
	mkdir -m 700 "$SLURM_DIR/munge"
	mkdir "$SLURM_DIR/state" "$SLURM_DIR/spool"
	dd if=/dev/urandom of="$SLURM_DIR/munge/munge.key" bs=1024 count=1 2>/dev/null
	chmod 400 "$SLURM_DIR/munge/munge.key"
	# shellcheck disable=SC2046
	set -- $(free_ports 2)
	slurm_write_conf "$(hostname -s)" "$1" "$2"
	export SLURM_CONF=$SLURM_DIR/slurm.conf
	slurm_daemon munged munged -F --force --key-file="$SLURM_DIR/munge/munge.key" \
		--socket="$SLURM_DIR/munge/munge.socket" --pid-file="$SLURM_DIR/munge/munged.pid" \
		--log-file="$SLURM_DIR/munge/munged.log" --seed-file="$SLURM_DIR/munge/seed"
	for _ in $(seq 1 100); do
		[ -S "$SLURM_DIR/munge/munge.socket" ] && break
		sleep 0.1
	done
	[ -S "$SLURM_DIR/munge/munge.socket" ] ||
		{ SLURM_WHY="munged did not start: $(tail -1 "$SLURM_DIR/munged.out")"; return 1; }
	slurm_daemon slurmctld slurmctld -D -i -f "$SLURM_CONF"
	slurm_daemon slurmd slurmd -D -f "$SLURM_CONF"
	slurm_wait_idle || {
		SLURM_WHY="the node did not become idle in 60 s: $(tail -1 "$SLURM_DIR/slurmctld.log" 2>/dev/null) $(tail -1 "$SLURM_DIR/slurmd.log" 2>/dev/null)"
		return 1
	}
}

# daemon_alive PID: PID is still a daemon of this Slurm (its command line
# names SLURM_DIR: not a PID reused since), not a zombie
daemon_alive() {
	tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null | grep -qF "$SLURM_DIR/" &&
		[ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ]
}

# slurm_stop: the jobs a failed test left cancelled, then the daemons this
# file started, by their PIDs, each waited for (10 s, then killed)
slurm_stop() {
	local f pid
	[ -n "${SLURM_DIR:-}" ] && [ -d "$SLURM_DIR" ] || return 0
	if [ -f "$SLURM_DIR/slurmctld.started" ]; then
		timeout 10 scancel --user="$(id -un)" 2>/dev/null || true
		for _ in $(seq 1 100); do
			[ -z "$(timeout 5 squeue -h 2>/dev/null)" ] && break
			sleep 0.1
		done
	fi
	for f in slurmd slurmctld munged; do
		[ -f "$SLURM_DIR/$f.started" ] || continue
		pid=$(cat "$SLURM_DIR/$f.started")
		daemon_alive "$pid" || continue
		kill "$pid"
		for _ in $(seq 1 100); do
			daemon_alive "$pid" || break
			sleep 0.1
		done
		! daemon_alive "$pid" || kill -9 "$pid"
	done
	rm -rf "$SLURM_DIR"
}
