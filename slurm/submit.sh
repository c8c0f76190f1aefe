#!/usr/bin/env bash
# Submit one mafia run (or experiment, or compare) to Slurm as N shards plus a merge.
# See slurm/README.md. Usage: slurm/submit.sh --help
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

usage() {
  cat <<EOF
Usage: slurm/submit.sh --shards N --out DIR [OPTIONS] -- COMMAND [ARGS...]

Plays one mafia command (run, experiment or compare) as N Slurm array tasks, one
shard each, then merges their counts files into DIR/TABLE in a job that starts when
every shard has succeeded. The table is byte-identical to the one the same command
writes in one process with --out.

  --shards N        number of shards, one array task each (N >= 1)
  --out DIR         run folder (created): arguments, a copy of the binary, the
                    shard-K.json counts files, shard-K.log and merge.log, the tables
  --table NAME      file name of the merged table in DIR, .csv or .parquet
                    (default: summary.parquet; .roles/.days tables go beside it)
  --cpus C          CPUs per shard, also mafia's --threads (default: shard.sbatch's, 1)
  --time T          time limit per shard, e.g. 02:00:00 or 1-00:00:00 (default: 02:00:00);
                    a shard that reaches it checkpoints and requeues itself
  --merge-time T    time limit of the merge job (default: 00:30:00)
  --partition P     partition for both jobs
  --account A       account for both jobs
  --max-running M   at most M shards at once (--array=0-(N-1)%M)
  --sbatch OPT      one more sbatch option for both jobs (repeatable): --sbatch=--qos=long
  --dry-run         check and print what would be written and submitted; change nothing
  -h, --help        this help

Everything after -- is the mafia command and its arguments, without --shard, --counts,
--resume and --out (this script adds them). Relative paths in it are resolved from the
folder you submit from, as the jobs run there.

Environment:
  MAFIA_BIN     the mafia binary (default: $repo/target/release/mafia); it is copied
                to DIR/mafia at the first submission and the jobs run that copy, so
                rebuilding during a run is safe. DIR must be visible to the compute nodes.
  SBATCH_EXTRA  more sbatch options for both jobs, split on whitespace
  Slurm's own SBATCH_* input variables (SBATCH_PARTITION, SBATCH_ACCOUNT, ...) apply too.

Submitting again with the same --out and the same command continues the run: finished
shards only print, interrupted ones resume from their checkpoints.

Example:
  slurm/submit.sh --shards 100 --out runs/big --cpus 8 --time 04:00:00 -- \\
    run --games 1000000000 --seed 7 --setup classic
EOF
}

fail() { echo "submit.sh: $*" >&2; echo "Try 'slurm/submit.sh --help'." >&2; exit 2; }

shards='' out='' table=summary.parquet cpus='' time_limit='' merge_time='' partition='' account='' max_running=''
dry_run=0
sbatch_opts=()
need() { [[ $# -ge 2 && -n $2 ]] || fail "$1 needs a value"; }
while (($#)); do
  case $1 in
    --shards | --out | --table | --cpus | --time | --merge-time | --partition | --account | --max-running | --sbatch)
      need "$@"
      opt=$1 val=$2
      shift 2
      ;;
    --shards=* | --out=* | --table=* | --cpus=* | --time=* | --merge-time=* | --partition=* | --account=* | --max-running=* | --sbatch=*)
      opt=${1%%=*} val=${1#*=}
      [[ -n $val ]] || fail "$opt needs a value"
      shift
      ;;
    --dry-run) dry_run=1; shift; continue ;;
    -h | --help) usage; exit 0 ;;
    --) shift; break ;;
    *) fail "unknown option '$1' (the mafia command goes after --)" ;;
  esac
  case $opt in
    --shards) shards=$val ;;
    --out) out=$val ;;
    --table) table=$val ;;
    --cpus) cpus=$val ;;
    --time) time_limit=$val ;;
    --merge-time) merge_time=$val ;;
    --partition) partition=$val ;;
    --account) account=$val ;;
    --max-running) max_running=$val ;;
    --sbatch) sbatch_opts+=("$val") ;;
  esac
done
mafia=("$@")

# --- checks
whole() { [[ $1 =~ ^[0-9]+$ ]] && ((10#$1 >= 1)); }
[[ -n $shards ]] || fail "--shards N is required"
whole "$shards" || fail "--shards must be a whole number >= 1, not '$shards'"
shards=$((10#$shards))
[[ -n $out ]] || fail "--out DIR is required"
[[ $out != *$'\n'* ]] || fail "--out must not contain a newline"
[[ $out != *%* ]] || fail "--out must not contain '%' (Slurm reads it as a file name pattern)"
[[ $table =~ ^[^/]+\.(csv|parquet)$ ]] || fail "--table must be a file name ending in .csv or .parquet, not '$table'"
[[ $table != *%* ]] || fail "--table must not contain '%'"
if [[ -n $cpus ]]; then
  whole "$cpus" || fail "--cpus must be a whole number >= 1, not '$cpus'"
  cpus=$((10#$cpus))
fi
for t in "$time_limit" "$merge_time"; do
  [[ -z $t || $t =~ ^[0-9][0-9:-]*$ || $t =~ ^(UNLIMITED|unlimited|INFINITE|infinite)$ ]] ||
    fail "a time limit looks like MM, HH:MM:SS or D-HH:MM:SS, not '$t'"
done
if [[ -n $max_running ]]; then
  whole "$max_running" || fail "--max-running must be a whole number >= 1, not '$max_running'"
  max_running=$((10#$max_running))
fi
((${#mafia[@]})) || fail "no mafia command: put it after --, e.g. -- run --games 1000000 --seed 7"
case ${mafia[0]} in
  run | experiment | compare) ;;
  *) fail "the mafia command must be run, experiment or compare (the ones with --shard), not '${mafia[0]}'" ;;
esac
for a in "${mafia[@]}"; do
  [[ $a != *$'\n'* ]] || fail "a mafia argument contains a newline"
  case $a in
    --shard | --shard=* | --counts | --counts=* | --resume)
      fail "leave $a out: each shard gets --shard K/N --counts DIR/shard-K.json --resume" ;;
    --out | --out=*)
      fail "leave --out out: the merged table is DIR/TABLE (--out and --table of this script)" ;;
    --games-out | --games-out=*)
      fail "--games-out is not supported here: every shard would write the same file" ;;
  esac
done
if [[ -n ${SBATCH_EXTRA:-} ]]; then
  read -r -a more <<<"$SBATCH_EXTRA"
  sbatch_opts=(${more[@]+"${more[@]}"} ${sbatch_opts[@]+"${sbatch_opts[@]}"})
fi

mafia_bin=${MAFIA_BIN:-$repo/target/release/mafia}
[[ $mafia_bin == /* ]] || mafia_bin=$PWD/$mafia_bin
[[ -x $mafia_bin && ! -d $mafia_bin ]] ||
  fail "no mafia binary at $mafia_bin: build it (cargo build --release) or set MAFIA_BIN"
command -v sbatch >/dev/null || fail "sbatch not found: run this on a Slurm login node"

[[ $out == /* ]] || out=$PWD/$out
out=${out%/}
args_text=$(printf '%s\n' "${mafia[@]}")
# The jobs run a copy of the binary kept in the run folder: counts files record the
# executable they were played with, and a rebuild during the run would otherwise make
# resumed shards and the merge refuse the earlier ones.
run_bin=$out/mafia
env_text=$(printf 'MAFIA_BIN=%q\nSHARDS=%q\nTABLE=%q\n' "$run_bin" "$shards" "$table")

# A folder of an earlier submission: the same run continues; another run is refused.
again=0
if [[ -e $out/mafia.args || -e $out/job.env ]]; then
  old_args=$(cat "$out/mafia.args" 2>/dev/null || true)
  old_shards=$(sed -n 's/^SHARDS=//p' "$out/job.env" 2>/dev/null || true)
  if [[ $old_args != "$args_text" || $old_shards != "$shards" ]]; then
    fail "$out holds another run (its mafia.args or shard count differ): choose a new --out, or delete that folder"
  fi
  if [[ -f $out/jobids ]]; then
    old_ids=$(sed -n 's/^[A-Z_]*JOB=//p' "$out/jobids" | paste -sd, -)
    if [[ -n $old_ids ]]; then
      queued=$(squeue -h -j "$old_ids" -t PD,R,CG,CF,S,RQ,RS,SI,SO -o %i 2>/dev/null || true)
      [[ -z $queued ]] || fail "jobs of an earlier submission to $out are still queued or running ($old_ids): wait for them, or scancel them first"
    fi
  fi
  again=1
fi

array=0-$((shards - 1))
[[ -z $max_running ]] || array+="%$max_running"
common=(--chdir "$PWD")
[[ -z $partition ]] || common+=(--partition "$partition")
[[ -z $account ]] || common+=(--account "$account")
common+=(${sbatch_opts[@]+"${sbatch_opts[@]}"})
shard_cmd=(sbatch --parsable --array "$array" --output "$out/shard-%a.log" "${common[@]}")
[[ -z $cpus ]] || shard_cmd+=(--cpus-per-task "$cpus")
[[ -z $time_limit ]] || shard_cmd+=(--time "$time_limit")
shard_cmd+=("$here/shard.sbatch" "$out")
merge_cmd=(sbatch --parsable --dependency "afterok:SHARD_JOB" --kill-on-invalid-dep=yes --output "$out/merge.log" "${common[@]}")
[[ -z $merge_time ]] || merge_cmd+=(--time "$merge_time")
merge_cmd+=("$here/merge.sbatch" "$out")

if ((dry_run)); then
  echo "dry run: nothing written, nothing submitted"
  echo "$out/mafia.args:"; printf '  %s\n' "${mafia[@]}"
  echo "$run_bin: a copy of $mafia_bin (kept if there already)"
  echo "$out/job.env:"; printf '  %s\n' "MAFIA_BIN=$run_bin" "SHARDS=$shards" "TABLE=$table"
  printf 'shards:'; printf ' %q' "${shard_cmd[@]}"; echo
  printf 'merge: '; printf ' %q' "${merge_cmd[@]}"; echo
  exit 0
fi

mkdir -p "$out"
printf '%s\n' "$args_text" >"$out/mafia.args.tmp" && mv "$out/mafia.args.tmp" "$out/mafia.args"
printf '%s\n' "$env_text" >"$out/job.env.tmp" && mv "$out/job.env.tmp" "$out/job.env"
if [[ ! -x $run_bin ]]; then
  cp "$mafia_bin" "$run_bin.tmp" && mv "$run_bin.tmp" "$run_bin"
elif ! cmp -s "$mafia_bin" "$run_bin"; then
  echo "note: $mafia_bin has changed since the first submission; this run continues with its own copy, $run_bin (a new --out runs the new binary)"
fi

parsable_id() { local id=${1%%;*}; [[ $id =~ ^[0-9]+$ ]] && echo "$id"; }
if ! reply=$("${shard_cmd[@]}"); then
  echo "submit.sh: sbatch refused the shard array (its message is above)" >&2
  exit 1
fi
shard_job=$(parsable_id "$reply") || { echo "submit.sh: unexpected reply from sbatch: $reply" >&2; exit 1; }
merge_cmd=("${merge_cmd[@]/afterok:SHARD_JOB/afterok:$shard_job}")
if ! reply=$("${merge_cmd[@]}"); then
  echo "submit.sh: the shards are job $shard_job, but sbatch refused the merge (its message is above); once they are done, run:" >&2
  printf ' %q' sbatch --output "$out/merge.log" "$here/merge.sbatch" "$out" >&2; echo >&2
  exit 1
fi
merge_job=$(parsable_id "$reply") || { echo "submit.sh: unexpected reply from sbatch: $reply" >&2; exit 1; }
printf 'SHARD_JOB=%s\nMERGE_JOB=%s\n' "$shard_job" "$merge_job" >"$out/jobids"

base=${table%.*} ext=${table##*.}
((again)) && echo "resubmitted into $out: finished shards only print, interrupted ones continue"
cat <<EOF
shards: job $shard_job (array $array, one shard each)
merge:  job $merge_job (starts when every shard has succeeded)
watch:  squeue -j $shard_job,$merge_job
logs:   $out/shard-K.log, $out/merge.log
table:  $out/$table (and $base.roles.$ext, $base.days.$ext as the command writes them)
cancel: scancel $shard_job $merge_job
EOF
