#!/bin/bash
# Submits a distillation to Slurm: COUNT shards of its teacher games as a
# job array, then the merge and the training as a job that waits for them.
#   deploy/slurm/submit.sh CONFIG SHARED COUNT OUT [CPUS_PER_SHARD] [CPUS_TO_TRAIN]
# SHARED and OUT must be on a file system every node sees, and so must the
# config's teacher files (paths in the config are relative to the folder
# sbatch is run from, which Slurm makes each job's working folder).
# Extra sbatch options (partition, account, time) go in SBATCH_* variables
# or a site's defaults. KOTRA_AI names the binary (default: kotra-ai on PATH).
# Prints the two job ids: the array's, then the merge's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
config=${1:?usage: submit.sh CONFIG SHARED COUNT OUT [CPUS_PER_SHARD] [CPUS_TO_TRAIN]}
shared=${2:?}
count=${3:?}
out=${4:?}
cpus=${5:-1}
train_cpus=${6:-$cpus}
mkdir -p "$shared/logs"
array=$(sbatch --parsable --array="0-$((count - 1))" --cpus-per-task="$cpus" \
    --output="$shared/logs/shard-%a.log" \
    "$here/shards.sbatch" "$config" "$shared" "$count")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterany:$array" --cpus-per-task="$train_cpus" \
    --output="$shared/logs/merge-train.log" \
    "$here/merge-train.sbatch" "$config" "$shared" "$count" "$out")
echo "$array ${merge%%;*}"
