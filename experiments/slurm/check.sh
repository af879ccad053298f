#!/usr/bin/env bash
# Runs the job arrays of this folder for real on a single-node Slurm cluster started on this
# machine, each on a small grid, and checks that what the arrays and their merges wrote is
# what one local run of the same grid writes.
#
#   bash experiments/slurm/check.sh
#
# Slurm comes from Debian's packages (slurm-wlm, munge); when they are missing and this runs
# as root with apt, they are installed. The cluster is private to this run: its own munge key
# and socket, its own slurm.conf, state and ports under a temporary folder, daemons stopped at
# the end. Without the packages (and no way to install them) it says why and exits 0, so CI
# can call it anywhere; any disagreement or failed job exits 1.
#
# Settings from the environment: CONNECTK_BIN (the binary to test; default
# target/release/connectk, built when missing), SLURM_CHECK_KEEP=1 (keep the temporary
# folder for a look afterwards), SLURM_CHECK_TIMEOUT (seconds each family may take, 900).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
timeout=${SLURM_CHECK_TIMEOUT:-900}

skip() {
    echo "slurm check: skipped: $*"
    exit 0
}

fail() {
    echo "slurm check: FAILED: $*" >&2
    exit 1
}

# The packages, installed when they can be.
install_slurm() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null; then
        return
    fi
    if ! command -v apt-get >/dev/null; then
        skip "slurm-wlm and munge are not installed (and there is no apt-get to install them)"
    fi
    echo "slurm check: installing slurm-wlm and munge"
    { apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null; } ||
        skip "apt-get could not install slurm-wlm and munge"
}

# The binary the jobs run, on PATH as `connectk` for them (sbatch passes PATH on).
find_binary() {
    local bin=${CONNECTK_BIN:-$root/target/release/connectk}
    if [ ! -x "$bin" ]; then
        echo "slurm check: building $bin"
        (cd "$root" && cargo build --release --quiet)
    fi
    [ -x "$bin" ] || fail "no connectk binary at $bin"
    mkdir -p "$tmp/bin"
    ln -sf "$bin" "$tmp/bin/connectk"
    export PATH="$tmp/bin:$PATH"
}

# A cluster of this one machine: munged with a key of its own, then slurmctld and slurmd.
start_cluster() {
    local host cpus mem port
    host=$(hostname -s)
    cpus=$(nproc)
    mem=$(($(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 3 / 4))
    # Ports of this run's own, so that a cluster already on the machine is left alone.
    port=$((20000 + ($$ % 2000) * 2))
    mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log"
    chmod 700 "$tmp/munge"
    mungekey --create --keyfile="$tmp/munge/munge.key" >/dev/null 2>&1 ||
        dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
    chmod 600 "$tmp/munge/munge.key"
    munged --force --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/socket" \
        --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" \
        --seed-file="$tmp/munge/munged.seed" 2>"$tmp/log/munged.err" ||
        fail "munged did not start: $(cat "$tmp/log/munged.err")"
    cat >"$tmp/slurm.conf" <<EOF
ClusterName=connectkcheck
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/socket
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldPort=$port
SlurmdPort=$((port + 1))
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
DependencyParameters=kill_invalid_depend
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=check Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    export SLURM_CONF="$tmp/slurm.conf"
    slurmctld || fail "slurmctld did not start: $(tail -5 "$tmp/log/slurmctld.log" 2>/dev/null)"
    slurmd || fail "slurmd did not start: $(tail -5 "$tmp/log/slurmd.log" 2>/dev/null)"
    local waited=0
    until sinfo -h -o %T 2>/dev/null | grep -qx idle; do
        sleep 1
        waited=$((waited + 1))
        [ "$waited" -lt 60 ] || fail "the node did not come up: $(sinfo 2>&1 | tail -2)"
    done
    echo "slurm check: a cluster of $host ($cpus cores, $mem MiB) on ports $port-$((port + 1))"
}

stop_cluster() {
    local status=$?
    local pidfile
    for pidfile in "$tmp/slurmd.pid" "$tmp/slurmctld.pid" "$tmp/munge/munged.pid"; do
        [ -s "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
    done
    sleep 1
    if [ "${SLURM_CHECK_KEEP:-0}" = 1 ] || [ "$status" != 0 ]; then
        echo "slurm check: its files are kept in $tmp"
    else
        rm -rf "$tmp"
    fi
}

# Submits an array script with the given extra sbatch options and the merge on afterok, and
# waits until both have left the queue. Fails when a task or the merge did not complete.
run_family() {
    local name=$1 script=$2 merge=$3
    shift 3
    local array merge_id waited=0
    array=$(sbatch --parsable --chdir="$tmp/slurm" --output="$tmp/log/$name-%a.out" \
        --array=1-4 --cpus-per-task=1 --mem=1G "$@" "$here/$script") ||
        fail "sbatch refused $script"
    merge_id=$(sbatch --parsable --chdir="$tmp/slurm" --output="$tmp/log/$name-merge.out" \
        --dependency="afterok:$array" --mem=1G --wrap "$merge") ||
        fail "sbatch refused the merge of $name"
    while [ -n "$(squeue -h -j "$array,$merge_id" 2>/dev/null)" ]; do
        # A failed task leaves the merge waiting forever where the cluster does not cancel it.
        if squeue -h -j "$merge_id" -o %r 2>/dev/null | grep -q DependencyNeverSatisfied; then
            scancel "$merge_id"
            fail "$name: a task of the array failed, see $tmp/log/$name-*.out"
        fi
        sleep 2
        waited=$((waited + 2))
        [ "$waited" -lt "$timeout" ] || fail "$name still queued or running after $timeout s"
    done
    local states
    states=$(for id in "$array" "$merge_id"; do scontrol -o show job "$id"; done 2>/dev/null |
        grep -o 'JobState=[A-Z_]*' || true)
    if [ "$(grep -c COMPLETED <<<"$states")" != 5 ]; then
        fail "$name: jobs ended as $(sort <<<"$states" | uniq -c | tr -s ' \n' ' '); see $tmp/log/$name-*.out"
    fi
    echo "slurm check: $name: 4 tasks and the merge completed in about $waited s"
}

# The same grid in one local process, its output kept in the log folder.
local_run() {
    local name=$1
    shift
    connectk "$@" >"$tmp/log/local-$name.out" 2>&1 ||
        fail "the local run \`connectk $*\` failed; see $tmp/log/local-$name.out"
}

# The rows of a CSV without the named column (wall-clock times differ from run to run).
without_column() {
    awk -F, -v drop="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == drop) d = i }
        { out = ""; sep = ""; for (i = 1; i <= NF; i++) if (i != d) { out = out sep $i; sep = "," }; print out }' "$1"
}

same() {
    local what=$1 a=$2 b=$3
    if ! cmp -s "$a" "$b"; then
        diff "$a" "$b" | head -20 >&2
        fail "$what: the cluster's output differs from the local run's"
    fi
    echo "slurm check: $what: identical to the local run ($(wc -l <"$a") lines)"
}

check_table1() {
    export TABLE1_MAX_CELLS=12 TABLE1_K_MAX=4 TABLE1_TABLE_MB=16 TABLE1_STRIP_MB=64 TABLE1_OUT=table1
    run_family table1 table1-36.sbatch \
        "connectk merge --table-mb 16 --out table1 table1/table1.shard-*-of-4.csv"
    local_run table1 table1 --max-cells 12 --k-max 4 --weak --node-limit 100000000 --threads 1 \
        --table-mb 16 --strip-mb 64 --out "$tmp/local/table1"
    same table1.csv "$tmp/slurm/table1/table1.csv" "$tmp/local/table1/table1.csv"
    # The report names the command that wrote it, which differs; the rest must not.
    grep -v '^Written by' "$tmp/slurm/table1/table1.md" >"$tmp/table1-slurm.md"
    grep -v '^Written by' "$tmp/local/table1/table1.md" >"$tmp/table1-local.md"
    same "table1.md (but for the command that wrote it)" "$tmp/table1-slurm.md" "$tmp/table1-local.md"
}

check_sizes() {
    export SIZES_MIN_SUM=8 SIZES_MAX_SUM=9 SIZES_TIME_LIMIT=600 SIZES_TABLE_MB=64 SIZES_OUT=sizes
    run_family sizes sizes-15-16.sbatch \
        "connectk merge --out sizes sizes/sizes.shard-*-of-4.csv"
    local_run sizes sizes -k 4 --min-side 4 --min-sum 8 --max-sum 9 --time-limit 600 --threads 1 \
        --table-mb 64 --out "$tmp/local/sizes"
    without_column "$tmp/slurm/sizes/sizes.csv" seconds >"$tmp/sizes-slurm.csv"
    without_column "$tmp/local/sizes/sizes.csv" seconds >"$tmp/sizes-local.csv"
    same "sizes.csv (but for seconds)" "$tmp/sizes-slurm.csv" "$tmp/sizes-local.csv"
}

check_annulus() {
    export ANNULUS_MAX_CELLS=10 ANNULUS_K_MAX=4 ANNULUS_TABLE_MB=16 ANNULUS_OUT=annulus
    run_family annulus annulus-36.sbatch \
        "connectk annulus-merge --out annulus annulus/annulus.shard-*-of-4.csv"
    local_run annulus annulus --max-cells 10 --k-max 4 --threads 1 --table-mb 16 \
        --out "$tmp/local/annulus"
    without_column "$tmp/slurm/annulus/annulus.csv" seconds >"$tmp/annulus-slurm.csv"
    without_column "$tmp/local/annulus/annulus.csv" seconds >"$tmp/annulus-local.csv"
    same "annulus.csv (but for seconds)" "$tmp/annulus-slurm.csv" "$tmp/annulus-local.csv"
    # Again with limits no search fits in, so that the boards are settled by split questions
    # kept in one folder the four tasks share (scouting with a small cap, as the ring of 35
    # cells was run): the same outcome for every board.
    ANNULUS_STRONG_NODES=2 ANNULUS_WEAK_NODES=2 ANNULUS_QUESTIONS=annulus-q/questions \
        ANNULUS_SPLIT_DEPTH=3 ANNULUS_SCOUT_NODES=20 ANNULUS_OUT=annulus-q \
        run_family annulus-questions \
        annulus-36.sbatch "connectk merge --out annulus-q annulus-q/annulus.shard-*-of-4.csv"
    cut -d, -f1-5,8 "$tmp/slurm/annulus-q/annulus.csv" >"$tmp/annulus-questions.csv"
    cut -d, -f1-5,8 "$tmp/local/annulus/annulus.csv" >"$tmp/annulus-outcomes.csv"
    same "annulus.csv's outcomes by questions" "$tmp/annulus-questions.csv" \
        "$tmp/annulus-outcomes.csv"
}

# Quarto's rows come in the order each shard solved them, so they are compared sorted; the
# merge's value of the empty board must be the local one.
check_quarto() {
    local variation=(--size 3 --attributes 3 --rules misere --turns 2)
    export QUARTO_SIZE=3 QUARTO_ATTRIBUTES=3 QUARTO_RULES=misere QUARTO_TURNS=2 QUARTO_SAMPLE=
    export QUARTO_TABLE_MB=16 QUARTO_OUT=quarto
    run_family quarto quarto-misere.sbatch \
        "connectk quarto merge ${variation[*]} --md quarto/split.md quarto/split.shard-*-of-4.csv"
    mkdir -p "$tmp/local/quarto"
    local_run quarto-split quarto split "${variation[@]}" --weak --table-mb 16 \
        --csv "$tmp/local/quarto/split.csv"
    local_run quarto-merge quarto merge "${variation[@]}" --md "$tmp/local/quarto/split.md" \
        "$tmp/local/quarto/split.csv"
    local f
    for f in "$tmp"/slurm/quarto/split.shard-*-of-4.csv; do
        without_column "$f" seconds | tail -n +2
    done | cut -d, -f1-5 | sort -t, -k1,1n >"$tmp/quarto-slurm.csv"
    without_column "$tmp/local/quarto/split.csv" seconds | tail -n +2 |
        cut -d, -f1-5 | sort -t, -k1,1n >"$tmp/quarto-local.csv"
    same "quarto split rows (index to remoteness)" "$tmp/quarto-slurm.csv" "$tmp/quarto-local.csv"
    grep '^Value' "$tmp/slurm/quarto/split.md" >"$tmp/quarto-value-slurm.txt" ||
        fail "quarto: the merge gave no value of the empty board"
    grep '^Value' "$tmp/local/quarto/split.md" >"$tmp/quarto-value-local.txt"
    same "quarto merge's value" "$tmp/quarto-value-slurm.txt" "$tmp/quarto-value-local.txt"
}

# A proof shared by an array runs in passes (each a whole array, `sbatch --wait`) until the
# first task's report gives the outcome, which must be the one proof in one local process finds.
check_quarto_prove() {
    local variation=(--size 3 --attributes 3 --rules misere --turns 3)
    export QUARTO_SIZE=3 QUARTO_ATTRIBUTES=3 QUARTO_RULES=misere QUARTO_TURNS=3
    export QUARTO_TABLE_MB=16 QUARTO_OUT=quarto-prove
    local report="$tmp/slurm/quarto-prove/proof.shard-1-of-4.md" passes=0 started=$SECONDS
    until grep -q '^Outcome of the empty board: \*\*' "$report" 2>/dev/null; do
        passes=$((passes + 1))
        [ "$passes" -le 10 ] || fail "quarto prove: no outcome after 10 passes; see $report"
        timeout "$timeout" sbatch --wait --chdir="$tmp/slurm" \
            --output="$tmp/log/quarto-prove-$passes-%a.out" --array=1-4 --cpus-per-task=1 \
            --mem=1G "$here/quarto-prove.sbatch" >/dev/null ||
            fail "quarto prove: pass $passes failed; see $tmp/log/quarto-prove-$passes-*.out"
    done
    echo "slurm check: quarto prove: $passes passes of 4 tasks in about $((SECONDS - started)) s"
    local_run quarto-prove quarto prove "${variation[@]}" --table-mb 16 \
        --csv "$tmp/local/quarto-prove.csv" --md "$tmp/local/quarto-prove.md"
    grep '^Outcome' "$report" >"$tmp/quarto-prove-slurm.txt"
    grep '^Outcome' "$tmp/local/quarto-prove.md" >"$tmp/quarto-prove-local.txt"
    same "quarto prove's outcome" "$tmp/quarto-prove-slurm.txt" "$tmp/quarto-prove-local.txt"
}

# One question in pieces as a job (`sbatch --wait`), whose verdict must be the one a local run
# gives (the counts of searches and their times may differ).
check_question() {
    export QUESTION_RULES=misere QUESTION_WIDTH=5 QUESTION_HEIGHT=4 QUESTION_PLAYER=P2
    export QUESTION_BY_PLY=15 QUESTION_DEPTH=3 QUESTION_TABLE_MB=16 QUESTION_ANSWERS=question.csv
    timeout "$timeout" sbatch --wait --chdir="$tmp/slurm" --output="$tmp/log/question.out" \
        --cpus-per-task=2 --mem=1G "$here/question.sbatch" >/dev/null ||
        fail "question: the job failed; see $tmp/log/question.out"
    local_run question question --rules misere --width 5 --height 4 --player P2 --by-ply 15 \
        --depth 3 --table-mb 16 --answers "$tmp/local/question.csv"
    grep -o '^does .*? [a-z]*' "$tmp/log/question.out" >"$tmp/question-slurm.txt" ||
        fail "question: the job printed no verdict; see $tmp/log/question.out"
    grep -o '^does .*? [a-z]*' "$tmp/log/local-question.out" >"$tmp/question-local.txt"
    same "question's verdict" "$tmp/question-slurm.txt" "$tmp/question-local.txt"
}

# The same question side by side: question-array.sbatch's 4 tasks from the 13 distinct
# positions after two plies, then question.sbatch from the empty board on afterok with their
# answers as known; its verdict must be the local run's.
check_question_array() {
    export QUESTION_RULES=misere QUESTION_WIDTH=5 QUESTION_HEIGHT=4 QUESTION_PLAYER=P2
    export QUESTION_BY_PLY=15 QUESTION_DEPTH=3 QUESTION_TABLE_MB=16
    export QUESTION_STARTS="$tmp/starts.txt" QUESTION_DIR="$tmp/slurm/question-array"
    export QUESTION_SCRIPT="$here/question.sbatch"
    printf '%s\n' 11 12 13 14 15 21 22 23 24 25 31 32 33 >"$QUESTION_STARTS"
    run_family question-array question-array.sbatch \
        "QUESTION_KNOWN_DIR=$QUESTION_DIR QUESTION_ANSWERS=$QUESTION_DIR/root.csv bash $here/question.sbatch"
    grep -o '^does .*? [a-z]*' "$tmp/log/question-array-merge.out" >"$tmp/question-array.txt" ||
        fail "question array: the last job printed no verdict; see $tmp/log/question-array-merge.out"
    same "the question array's verdict" "$tmp/question-array.txt" "$tmp/question-local.txt"
    local reused
    reused=$(grep -o '[0-9]* read from' "$tmp/log/question-array-merge.out" | cut -d' ' -f1)
    [ "${reused:-0}" -gt 0 ] ||
        fail "question array: the last job read no answer of the tasks; see $tmp/log/question-array-merge.out"
}

# slurmd starts jobs as their owner, which takes root on a single machine.
[ "$(id -u)" = 0 ] || skip "slurmd needs root to start jobs; run this as root"
install_slurm
tmp=$(mktemp -d /tmp/connectk-slurm-check.XXXXXX)
trap stop_cluster EXIT
find_binary
start_cluster
mkdir -p "$tmp/slurm" "$tmp/local"
started=$SECONDS
check_table1
check_sizes
check_annulus
check_quarto
check_quarto_prove
check_question
check_question_array
echo "slurm check: passed: table1, sizes, annulus (also by questions), quarto split and quarto prove arrays, a question job and a question array agree with local runs ($((SECONDS - started)) s)"
