#!/usr/bin/env bash
# End-to-end test of slurm/ (submit.sh, shard.sbatch, merge.sbatch) on a one-node Slurm
# cluster that this script starts and stops itself. Runs as root on Debian 12, without
# systemd; it builds nothing: MAFIA_BIN (default target/release/mafia) must exist.
#
#   bash .ci/slurm-test.sh
#
# 1. installs slurm-wlm and munge if missing (the one allowed skip: their installation fails);
# 2. starts munged (its own key and socket), slurmctld and slurmd on free ports with a
#    slurm.conf, state, spool, logs and pid files in a temporary folder;
# 3. runs slurm/submit.sh with 4 shards and compares the merged tables byte for byte with
#    the same command run in one process: `run` (then submitted again into the same folder,
#    which must continue it), and `experiment` (with --no-precision: the file's stopping
#    rule needs every game in one place, so mafia refuses to shard it);
# 4. interrupts one shard as the time limit would (USR1 to the batch shell): mafia must
#    checkpoint, the task requeue itself and resume, and the merge still match;
# 5. stops the daemons by their pid files (also on failure) and removes the folder.
#
# Environment: MAFIA_BIN; SLURM_TEST_AUTH=munge|none (default munge, falling back to none);
# SLURM_TEST_REQUEUE=0 skips step 4; SLURM_TEST_REQUEUE_GAMES (default 4000000: each of its
# 2 shards must still be running a couple of seconds after it starts); SLURM_TEST_KEEP=1
# keeps the temporary folder.
#
# Authentication: auth/munge with a private munged (as the munge user, --socket/--pid-file/
# --key-file in the temporary folder; slurm.conf's AuthInfo=socket=… points at it), as on a
# real cluster, and without touching a system munged or /etc/munge. Only if that munged
# cannot be started is auth/none used (a note is printed), so the test still exercises Slurm.
# Selection: select/cons_tres with CR_Core, so several 1-CPU array tasks share the node as
# on a real cluster (select/linear would run one task per node at a time).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"
export MAFIA_BIN=${MAFIA_BIN:-$repo/target/release/mafia}
t0=$SECONDS

say() { echo "slurm test: $*"; }
die() { echo "slurm test: FAILED: $*" >&2; exit 1; }

[[ $(id -u) == 0 ]] || die "run as root (it installs packages and starts slurmd, which launches jobs)"
[[ -x $MAFIA_BIN ]] || die "no mafia binary at $MAFIA_BIN (cargo build --release first, or set MAFIA_BIN)"

tmp=$(mktemp -d /tmp/slurm-test.XXXXXX)
chmod 755 "$tmp" # the munge user reaches its socket folder through it
policy_rc=''
jobs_submitted=()

stop_pid_file() { # NAME PIDFILE: TERM, wait up to 15 s, then KILL
  local name=$1 file=$2 pid i
  [[ -s $file ]] || return 0
  pid=$(cat "$file")
  [[ $pid =~ ^[0-9]+$ ]] || return 0
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 150; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "slurm test: $name ($pid) did not stop in 15 s: KILL" >&2
  kill -KILL "$pid" 2>/dev/null || true
}
show_logs() {
  local f
  for f in "$tmp"/slurmctld.log "$tmp"/slurmd.log "$tmp"/munge/munged.log; do
    [[ -s $f ]] || continue
    echo "---- $f (last 40 lines)"
    tail -n 40 "$f"
  done
}
show_job_logs() { # DIR
  local f
  for f in "$1"/*.log; do
    [[ -e $f ]] || continue
    echo "---- $f"
    cat "$f"
  done
}
cleanup() {
  local rc=$?
  trap - EXIT
  set +e
  if ((rc != 0 && ${#jobs_submitted[@]})) && [[ -s $tmp/slurmctld.pid ]]; then
    scancel "${jobs_submitted[@]}" 2>/dev/null
    sleep 1
  fi
  stop_pid_file slurmd "$tmp/slurmd.pid"
  stop_pid_file slurmctld "$tmp/slurmctld.pid"
  stop_pid_file munged "$tmp/munge/munged.pid"
  [[ -z $policy_rc ]] || rm -f "$policy_rc"
  if [[ ${SLURM_TEST_KEEP:-0} == 1 ]]; then
    echo "slurm test: kept $tmp"
  else
    rm -rf "$tmp"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- 1. packages
missing=0
for c in slurmctld slurmd sbatch squeue sinfo scontrol scancel munged munge unmunge; do
  command -v "$c" >/dev/null || missing=1
done
if ((missing)); then
  say "installing slurm-wlm and munge"
  t_install=$SECONDS
  export DEBIAN_FRONTEND=noninteractive
  # Without systemd the packages' maintainer scripts would start munged/slurmd through
  # their init scripts: policy-rc.d forbids that while installing (unless one exists).
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    policy_rc=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\n# written by .ci/slurm-test.sh while it installs packages\nexit 101\n' >"$policy_rc"
    chmod 755 "$policy_rc"
  fi
  pkgs=(slurm-wlm munge)
  if ! apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=120 "${pkgs[@]}" >"$tmp/apt.log" 2>&1; then
    apt-get update >>"$tmp/apt.log" 2>&1 || true
    if ! apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=120 "${pkgs[@]}" >>"$tmp/apt.log" 2>&1; then
      reason=$(grep -E '^(E|W): ' "$tmp/apt.log" | tail -n 1 || true)
      echo "slurm test skipped: apt-get install ${pkgs[*]} failed: ${reason:-see the apt-get output}"
      exit 0
    fi
  fi
  [[ -z $policy_rc ]] || { rm -f "$policy_rc"; policy_rc=''; }
  say "packages installed in $((SECONDS - t_install)) s"
fi
t_ready=$SECONDS

# ---- 2. the cluster
export SLURM_CONF=$tmp/slurm.conf
host=$(hostname -s)
node_line=$(slurmd -C 2>/dev/null | grep '^NodeName=' || true)
[[ -n $node_line ]] || die "slurmd -C printed no NodeName= line"
node_line=${node_line/%UpTime=*/}
node=${node_line#NodeName=}
node=${node%% *}

port_in_use() { # PORT: any TCP socket on it (IPv4 or IPv6)
  local hex f tables=()
  hex=$(printf '%04X' "$1")
  for f in /proc/net/tcp /proc/net/tcp6; do [[ ! -r $f ]] || tables+=("$f"); done
  ((${#tables[@]})) || return 1
  awk -v h="$hex" 'FNR > 1 { split($2, a, ":"); if (a[2] == h) f = 1 } END { exit !f }' "${tables[@]}"
}
free_port() { # a free port in 10000-29999, not in "$@"
  local p i taken
  for ((i = 0; i < 200; i++)); do
    p=$((10000 + RANDOM % 20000))
    taken=0
    for t in "$@"; do [[ $p != "$t" ]] || taken=1; done
    ((taken)) || port_in_use "$p" || { echo "$p"; return 0; }
  done
  die "no free port found"
}
ctld_port=$(free_port)
slurmd_port=$(free_port "$ctld_port")

auth=${SLURM_TEST_AUTH:-munge}
start_munge() {
  local mdir=$tmp/munge
  getent passwd munge >/dev/null || { echo "no munge user"; return 1; }
  install -d -o munge -g munge -m 0755 "$mdir"
  if command -v mungekey >/dev/null; then
    mungekey --create --keyfile="$mdir/munge.key" >/dev/null 2>&1 || return 1
  else
    dd if=/dev/urandom of="$mdir/munge.key" bs=1024 count=1 status=none || return 1
  fi
  chown munge:munge "$mdir/munge.key"
  chmod 0400 "$mdir/munge.key"
  local as_munge=(runuser -u munge --)
  command -v runuser >/dev/null || as_munge=(setpriv --reuid=munge --regid=munge --init-groups)
  "${as_munge[@]}" munged --socket="$mdir/munge.sock" --pid-file="$mdir/munged.pid" \
    --log-file="$mdir/munged.log" --key-file="$mdir/munge.key" --seed-file="$mdir/munged.seed" ||
    return 1
  # A credential made and decoded through the private socket.
  munge -n --socket="$mdir/munge.sock" | unmunge --socket="$mdir/munge.sock" >/dev/null
}
if [[ $auth == munge ]]; then
  if ! start_munge >"$tmp/munge-start.log" 2>&1; then
    cat "$tmp/munge-start.log" >&2
    show_logs >&2
    stop_pid_file munged "$tmp/munge/munged.pid"
    say "note: could not start a private munged (above): using AuthType=auth/none"
    auth=none
  fi
fi
case $auth in
  munge) auth_lines="AuthType=auth/munge
AuthInfo=socket=$tmp/munge/munge.sock
CredType=cred/munge" ;;
  none) auth_lines="AuthType=auth/none
CredType=cred/none" ;;
  *) die "SLURM_TEST_AUTH must be munge or none" ;;
esac

mkdir -p "$tmp/state" "$tmp/spool"
cat >"$SLURM_CONF" <<EOF
# written by .ci/slurm-test.sh
ClusterName=mafiatest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
$auth_lines
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MailProg=/bin/true
ReturnToService=2
MaxArraySize=100001
MinJobAge=600
KillWait=5
InactiveLimit=0
SlurmdTimeout=60
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -f "$SLURM_CONF" || { show_logs; die "slurmctld did not start"; }
slurmd -f "$SLURM_CONF" -N "$node" || { show_logs; die "slurmd did not start"; }
deadline=$((SECONDS + 60))
while :; do
  state=$(sinfo -h -N -o %t 2>/dev/null || true)
  [[ $state != idle ]] || break
  if ((SECONDS > deadline)); then
    sinfo -N -l || true
    show_logs
    die "node $node not idle after 60 s (state: '${state:-none}')"
  fi
  sleep 0.5
done
say "cluster up ($auth, select/cons_tres, node $node: $(sinfo -h -N -o %c) cpus, ports $ctld_port/$slurmd_port) in $((SECONDS - t_ready)) s"

# ---- 3. sharded runs against single ones
read_jobids() { # DIR: sets shard_job, merge_job
  shard_job=$(sed -n 's/^SHARD_JOB=//p' "$1/jobids")
  merge_job=$(sed -n 's/^MERGE_JOB=//p' "$1/jobids")
  [[ $shard_job =~ ^[0-9]+$ && $merge_job =~ ^[0-9]+$ ]] || die "no job ids in $1/jobids"
  jobs_submitted+=("$shard_job" "$merge_job")
}
active_jobs() { # IDS (comma-separated): the tasks still in the queue, "ID STATE" per line
  squeue -h -r -t all -j "$1" -o '%i %T' 2>/dev/null |
    awk '$2 ~ /^(PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUED|REQUEUE_FED|RESIZING|SIGNALING|STAGE_OUT|STOPPED|RESV_DEL_HOLD)$/' || true
}
wait_jobs() { # DIR TIMEOUT: until the shard and merge jobs have left the queue
  local dir=$1 limit=$2 start=$SECONDS last=-10 left
  while :; do
    left=$(active_jobs "$shard_job,$merge_job")
    [[ -n $left ]] || break
    if ((SECONDS - start > limit)); then
      squeue -r -t all -j "$shard_job,$merge_job" || true
      show_job_logs "$dir"
      show_logs
      die "jobs $shard_job and $merge_job still queued after $limit s"
    fi
    if ((SECONDS - last >= 10)); then
      echo "  queue: $(echo "$left" | tr '\n' ' ')"
      last=$SECONDS
    fi
    sleep 0.5
  done
}
check_jobs() { # DIR SHARDS: every array task and the merge COMPLETED with exit 0, each shard file there
  local dir=$1 n=$2 info k bad=0
  info=$(scontrol -o show job "$shard_job" 2>/dev/null || true)
  for ((k = 0; k < n; k++)); do
    if ! echo "$info" | awk -v k="$k" '
        / ArrayTaskId=/ { id = $0; sub(/.* ArrayTaskId=/, "", id); sub(/ .*/, "", id)
                          if (id == k && / JobState=COMPLETED / && / ExitCode=0:0 /) ok = 1 }
        END { exit !ok }'; then
      echo "array task ${shard_job}_$k did not complete with exit 0:" >&2
      echo "$info" | awk -v k="$k" '$0 ~ (" ArrayTaskId=" k " ")' | tr ' ' '\n' |
        awk '/^(JobId|ArrayTaskId|JobState|Reason|ExitCode|Restarts)=/' >&2 || true
      bad=1
    fi
    [[ -s $dir/shard-$k.json ]] || { echo "no shard file $dir/shard-$k.json" >&2; bad=1; }
    [[ -s $dir/shard-$k.log ]] || { echo "no shard log $dir/shard-$k.log" >&2; bad=1; }
  done
  info=$(scontrol -o show job "$merge_job" 2>/dev/null || true)
  if ! echo "$info" | awk '/ JobState=COMPLETED / && / ExitCode=0:0 / { ok = 1 } END { exit !ok }'; then
    echo "merge job $merge_job did not complete with exit 0:" >&2
    echo "$info" | tr ' ' '\n' | awk '/^(JobId|JobState|Reason|ExitCode|Dependency)=/' >&2 || true
    bad=1
  fi
  if ((bad)); then
    show_job_logs "$dir"
    die "a job of $dir failed"
  fi
}
compare_tables() { # SINGLE_DIR SHARDED_DIR STEM EXT REQUIRED_KIND...
  local single=$1 sharded=$2 stem=$3 ext=$4 f name kind n=0
  shift 4
  for kind; do
    name=$stem.$ext
    [[ $kind == summary ]] || name=$stem.$kind.$ext
    [[ -s $single/$name ]] || die "the single run wrote no $single/$name"
  done
  for f in "$single/$stem".*"$ext"; do
    name=${f##*/}
    [[ -e $sharded/$name ]] || die "the merge wrote no $name (the single run did)"
    cmp "$single/$name" "$sharded/$name" || die "$name differs between the merge and the single run"
    n=$((n + 1))
  done
  for f in "$sharded/$stem".*"$ext"; do
    [[ -e $single/${f##*/} ]] || die "the merge wrote ${f##*/}, the single run did not"
  done
  say "  $n tables identical: $(cd "$single" && echo "$stem".*"$ext")"
}
sharded_case() { # NAME REQUIRED_KINDS(comma) -- MAFIA ARGS...
  local name=$1 kinds=$2 t=$SECONDS
  local dir=$tmp/$name
  shift 3
  say "$name: slurm/submit.sh --shards 4 --out $dir/sharded --table summary.csv -- $*"
  slurm/submit.sh --shards 4 --out "$dir/sharded" --table summary.csv -- "$@" >"$tmp/$name-submit.out" ||
    { cat "$tmp/$name-submit.out"; die "slurm/submit.sh failed"; }
  read_jobids "$dir/sharded"
  wait_jobs "$dir/sharded" 600
  check_jobs "$dir/sharded" 4
  say "  shards and merge done in $((SECONDS - t)) s"
  # The single run uses the run folder's copy of the binary, the one the shards ran.
  [[ -x $dir/sharded/mafia ]] || die "submit.sh left no copy of the binary in $dir/sharded"
  cmp -s "$MAFIA_BIN" "$dir/sharded/mafia" || echo "  note: $MAFIA_BIN changed during the test; using the run's copy"
  mkdir -p "$dir/single"
  "$dir/sharded/mafia" "$@" --quiet --out "$dir/single/summary.csv" >"$dir/single.log" 2>&1 ||
    { cat "$dir/single.log"; die "the single run failed"; }
  local required
  IFS=, read -r -a required <<<"$kinds"
  compare_tables "$dir/single" "$dir/sharded" summary csv "${required[@]}"
}

run_args=(run --games 20000 --seed 7 --setup classic)
sharded_case run summary,roles,days -- "${run_args[@]}"

# The same command into the same folder continues that run: the finished shards only
# print, the merge writes the same tables again. Another command there is refused.
say "resubmit: the same command into the same folder"
t=$SECONDS
slurm/submit.sh --shards 4 --out "$tmp/run/sharded" --table summary.csv -- "${run_args[@]}" >"$tmp/resubmit.out" ||
  { cat "$tmp/resubmit.out"; die "slurm/submit.sh failed"; }
grep -F "resubmitted into" "$tmp/resubmit.out" >/dev/null || { cat "$tmp/resubmit.out"; die "submit.sh did not see the earlier run"; }
read_jobids "$tmp/run/sharded"
wait_jobs "$tmp/run/sharded" 600
check_jobs "$tmp/run/sharded" 4
say "  shards and merge done in $((SECONDS - t)) s"
compare_tables "$tmp/run/single" "$tmp/run/sharded" summary csv summary roles days
rc=0
slurm/submit.sh --shards 4 --out "$tmp/run/sharded" --table summary.csv -- run --games 20001 --seed 7 --setup classic \
  >"$tmp/refused.out" 2>&1 || rc=$?
((rc == 2)) || { cat "$tmp/refused.out"; die "submit.sh gave $rc, not 2, for another run into a used folder"; }
say "  another command into that folder: refused with exit 2"

sharded_case experiment summary,roles -- experiment experiments/three-nights.toml --games 4096 --no-precision

# ---- 4. a shard interrupted as by the time limit, requeued and resumed
if [[ ${SLURM_TEST_REQUEUE:-1} != 0 ]]; then
  games=${SLURM_TEST_REQUEUE_GAMES:-4000000}
  dir=$tmp/requeue
  t=$SECONDS
  say "requeue: 2 shards of run --games $games --seed 11; USR1 to task 0 as at the time limit"
  slurm/submit.sh --shards 2 --out "$dir/sharded" --table summary.csv -- \
    run --games "$games" --seed 11 --setup classic >"$tmp/requeue-submit.out" ||
    { cat "$tmp/requeue-submit.out"; die "slurm/submit.sh failed"; }
  read_jobids "$dir/sharded"
  log=$dir/sharded/shard-0.log
  # Task 0 is running mafia once its log shows the command (its traps are set by then).
  deadline=$((SECONDS + 60))
  until [[ -s $log ]] && grep -F 'shard.sbatch: command:' "$log" >/dev/null; do
    ((SECONDS < deadline)) || { show_job_logs "$dir/sharded"; show_logs; die "task ${shard_job}_0 did not start in 60 s"; }
    sleep 0.2
  done
  sleep 1.5
  scancel --batch --signal=USR1 "${shard_job}_0" || die "scancel --signal=USR1 failed"
  # Slurm holds a requeued job for about two minutes (its BeginTime): once the task is
  # back in the queue, the test lets it start at once.
  deadline=$((SECONDS + 60))
  until grep -F 'checkpoint written: requeueing' "$log" >/dev/null &&
    [[ $(squeue -h -j "${shard_job}_0" -o %T 2>/dev/null || true) == PENDING ]]; do
    ((SECONDS < deadline)) || { show_job_logs "$dir/sharded"; show_logs; die "task ${shard_job}_0 was not requeued in 60 s"; }
    sleep 0.2
  done
  say "  task 0 checkpointed and requeued: scontrol update StartTime=now"
  scontrol update JobId="${shard_job}_0" StartTime=now || die "scontrol update StartTime=now failed"
  wait_jobs "$dir/sharded" 600
  check_jobs "$dir/sharded" 2
  for want in 'time limit near (USR1)' 'checkpoint written: requeueing' 'restart 1,' 'done:'; do
    grep -F "$want" "$log" >/dev/null || { show_job_logs "$dir/sharded"; die "shard-0.log lacks '$want': no checkpoint, requeue and resume"; }
  done
  say "  task 0 resumed its checkpoint; shards and merge done in $((SECONDS - t)) s"
  mkdir -p "$dir/single"
  "$dir/sharded/mafia" run --games "$games" --seed 11 --setup classic --quiet --out "$dir/single/summary.csv" >"$dir/single.log" 2>&1 ||
    { cat "$dir/single.log"; die "the single run failed"; }
  compare_tables "$dir/single" "$dir/sharded" summary csv summary roles days
fi

say "all done in $((SECONDS - t_ready)) s after the packages ($((SECONDS - t0)) s in all)"
say "ok"
