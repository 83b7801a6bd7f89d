#!/usr/bin/env bash
# A real test of Tenfold's scale-out on Slurm: brings up a one-node cluster on localhost
# from Debian's packages (slurm-wlm, munge) without systemd — munged, slurmctld and
# slurmd started here as root, every state directory under a temporary one — then
#   1. Kiwipete perft 5 as 5 array tasks (scripts/slurm/perft.sbatch) with a dependent
#      merge job: 193,690,690 and the same divide as `perft --divide`;
#   2. random vs greedy, 16 games as 4 array tasks (scripts/slurm/match.sbatch) with a
#      dependent merge job: the W/L/D and pentanomial counts of the unsharded match;
#   3. the perft array again with one task cancelled: the merge job fails naming it.
# Every daemon it started is stopped by PID on exit. Needs root; CI runs it from .ci/run.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$(pwd)

if [ "$(id -u)" != 0 ]; then
  echo "scripts/slurm/ci.sh: needs root (it starts slurmd and munged)" >&2
  exit 2
fi
for p in munged slurmctld slurmd sbatch scontrol squeue scancel sinfo; do
  command -v "$p" >/dev/null || { echo "scripts/slurm/ci.sh: $p missing (apt-get install slurm-wlm munge)" >&2; exit 2; }
done

cargo build --release --quiet
export TENFOLD="$ROOT/target/release/tenfold"
WORK=$(mktemp -d /tmp/tenfold-slurm.XXXXXX)
chmod 755 "$WORK"
PIDS=()

stop_daemons() {
  local status=$?
  # Newest first: slurmd, slurmctld, then munged, which they authenticate through.
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
    kill "${PIDS[i]}" 2>/dev/null || true
  done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ "$status" != 0 ]; then
    echo "--- daemons' output (tail)"; tail -n 40 "$WORK/daemons.log" 2>/dev/null || true
    for f in "$WORK"/out/slurm-*.out; do [ -f "$f" ] && { echo "--- $f"; cat "$f"; }; done
    echo "scripts/slurm/ci.sh: FAILED (logs kept in $WORK)"
  else
    rm -rf "$WORK"
  fi
  exit "$status"
}
trap stop_daemons EXIT
trap 'exit 130' INT TERM

fail() { echo "scripts/slurm/ci.sh: $*" >&2; exit 1; }

# --- munge: its own key and socket, not the system's.
mkdir -p "$WORK/munge"
chmod 711 "$WORK/munge"
dd if=/dev/urandom of="$WORK/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$WORK/munge/munge.key"
munged --foreground --force --key-file="$WORK/munge/munge.key" \
  --socket="$WORK/munge/munge.socket" --pid-file="$WORK/munge/munged.pid" \
  --log-file="$WORK/munge/munged.log" --seed-file="$WORK/munge/munged.seed" \
  >>"$WORK/daemons.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do [ -S "$WORK/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$WORK/munge/munge.socket" ] || fail "munged did not start"

# --- slurm: one node, localhost, as many CPUs as this machine has.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
CTLD_PORT=$(free_port)
SLURMD_PORT=$(free_port)
mkdir -p "$WORK/ctld" "$WORK/spool" "$WORK/out"
export SLURM_CONF="$WORK/slurm.conf"
cat > "$SLURM_CONF" <<CONF
ClusterName=tenfold-ci
SlurmctldHost=localhost
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$WORK/munge/munge.socket
StateSaveLocation=$WORK/ctld
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/slurmctld.log
SlurmdLogFile=$WORK/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SchedulerParameters=bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
SlurmdTimeout=30
MinJobAge=600
NodeName=localhost CPUs=$(nproc) State=UNKNOWN
PartitionName=ci Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -D -i -f "$SLURM_CONF" >>"$WORK/daemons.log" 2>&1 &
PIDS+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" >>"$WORK/daemons.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do
  state=$(sinfo -h -n localhost -o %T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.3
done
[ "$state" = idle ] || fail "the node did not come up (state: ${state:-none})"
echo "slurm: one node up ($(nproc) CPUs), slurmctld on port $CTLD_PORT"

# Waits until every job named has left the queue; fails after $2 seconds.
wait_jobs() {
  local jobs=$1 limit=$2 t=0
  while [ -n "$(squeue -h -j "$jobs" -o %i 2>/dev/null)" ]; do
    sleep 1
    t=$((t + 1))
    [ "$t" -lt "$limit" ] || { squeue; fail "jobs $jobs still queued after ${limit}s"; }
  done
}
# The exit code sacct would give, from the job's record (no accounting here).
job_exit() { scontrol show job "$1" | sed -n 's/.* ExitCode=\([0-9]*\):.*/\1/p' | head -1; }

KIWIPETE="r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
OUT=$WORK/out
cd "$OUT"

# --- 1. sharded perft with a dependent merge.
p=$(sbatch --parsable --array=0-4 "$ROOT/scripts/slurm/perft.sbatch" "$OUT/perft" --fen "$KIWIPETE" --depth 5)
pm=$(sbatch --parsable --dependency="afterany:$p" "$ROOT/scripts/slurm/perft.sbatch" "$OUT/perft" --fen "$KIWIPETE" --depth 5)
# --- 2. sharded match with a dependent merge, queued behind the perft.
MATCH=(--engine name=R,player=random --engine name=G,player=greedy --games 16 --maxmoves 80 --seed 18)
m=$(sbatch --parsable --array=0-3 "$ROOT/scripts/slurm/match.sbatch" "$OUT/match" "${MATCH[@]}")
mm=$(sbatch --parsable --dependency="afterany:$m" "$ROOT/scripts/slurm/match.sbatch" "$OUT/match" "${MATCH[@]}")
echo "submitted perft array $p (merge $pm), match array $m (merge $mm)"

# The unsharded runs to compare with, meanwhile.
"$TENFOLD" perft --fen "$KIWIPETE" --depth 5 --divide --json > "$OUT/perft-whole.json"
"$TENFOLD" match "${MATCH[@]}" --json > "$OUT/match-whole.json"

wait_jobs "$p,$pm,$m,$mm" 600
[ "$(job_exit "$pm")" = 0 ] || fail "perft merge job failed"
[ "$(job_exit "$mm")" = 0 ] || fail "match merge job failed"
python3 - "$OUT" <<'PY'
import json, sys
out = sys.argv[1]
load = lambda f: json.load(open(f"{out}/{f}"))
merged, whole = load("perft/perft.json"), load("perft-whole.json")
assert merged["nodes"] == 193690690, merged["nodes"]
assert merged["divide"] == whole["divide"], "divide differs"
print(f"perft: 5 array tasks merge to {merged['nodes']:,} with --divide's {len(whole['divide'])} root counts")
merged, whole = load("match/match.json"), load("match-whole.json")
assert merged == whole, (merged, whole)
r = merged["results"][0]
print(f"match: 4 array tasks merge to {merged['games']} games +{r['wins']} -{r['losses']} ={r['draws']}, "
      f"pentanomial {r['pentanomial']}, the unsharded match's")
PY
"$TENFOLD" pgn --check "$OUT/match/match.pgn" | tail -n 1
[ -s "$OUT/match/match.svg" ] || fail "no merged plot"

# --- 3. a shard cancelled before it runs: the dependent merge names it.
hold=$(sbatch --parsable --array=0-4 --hold "$ROOT/scripts/slurm/perft.sbatch" "$OUT/cut" --fen "$KIWIPETE" --depth 3)
cm=$(sbatch --parsable --dependency="afterany:$hold" "$ROOT/scripts/slurm/perft.sbatch" "$OUT/cut" --fen "$KIWIPETE" --depth 3)
scancel "${hold}_3"
scontrol release "$hold"
wait_jobs "$hold,$cm" 300
[ "$(job_exit "$cm")" = 1 ] || fail "merge with shard 3 cancelled exited $(job_exit "$cm"), not 1"
grep -q "tenfold: shard 3/5 missing" "$OUT"/slurm-tenfold-perft-"$cm"_*.out \
  || fail "the merge did not name shard 3/5"
echo "cancelled shard: merge exits 1 with \"shard 3/5 missing\""
echo "scripts/slurm/ci.sh: all passed"
