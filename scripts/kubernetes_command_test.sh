#!/bin/bash
# Tests deploy/kubernetes/ as far as a machine without a cluster allows:
# reads the two Job manifests, checks what the shard contract needs of
# them (an Indexed Job whose completions equal SHARDS, both Jobs on the
# same claim), then runs each container's own command here with the
# variables Kubernetes would set (JOB_COMPLETION_INDEX per pod, the
# manifests' env, /data a scratch folder): every index of the shards Job
# (index 1 twice, as a pod retried by backoffLimitPerIndex would be), then
# the merge-and-train Job, and compares the result with a one-process
# `kotra-ai train` of the same config, byte for byte.
#
#   scripts/kubernetes_command_test.sh [WORK_DIR]
#
# Not run here: the image build, scheduling, the volume, kubectl itself.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d /tmp/kotra-k8s-test.XXXXXX)}
mkdir -p "$work"
work=$(cd "$work" && pwd)

(cd "$repo" && cargo build --release --quiet)
export PATH="$repo/target/release:$PATH"

# The image's working folder holds models/ and training/: the repository.
cat >"$work/config.json" <<EOF
{ "seed": 7, "distill_teacher": "models/kotra-v29.net", "target_ply": 1,
  "move_noise": 0.1, "games": 400, "games_per_step": 50, "contact_hidden": 32,
  "epochs": 1, "measure_games": 20 }
EOF
(cd "$repo" && kotra-ai train --quiet --config "$work/config.json" --out "$work/alone" >/dev/null)

shards=4
python3 - "$repo/deploy/kubernetes" "$work" "$shards" <<'EOF'
import os, subprocess, sys, yaml

folder, work, shards = sys.argv[1], sys.argv[2], int(sys.argv[3])
repo = os.path.dirname(os.path.dirname(folder))

def job(name):
    with open(os.path.join(folder, name)) as f:
        return yaml.safe_load(f)

def container(j):
    (c,) = j["spec"]["template"]["spec"]["containers"]
    return c

def claim(j):
    (v,) = j["spec"]["template"]["spec"]["volumes"]
    return v["persistentVolumeClaim"]["claimName"]

shard_job, merge_job = job("shards-job.yaml"), job("merge-train-job.yaml")
spec = shard_job["spec"]
assert spec["completionMode"] == "Indexed", "the shards Job must be Indexed"
env = {e["name"]: e["value"] for e in container(shard_job)["env"]}
assert int(env["SHARDS"]) == spec["completions"], "SHARDS must equal completions"
merge_env = {e["name"]: e["value"] for e in container(merge_job)["env"]}
assert merge_env["SHARDS"] == env["SHARDS"] and merge_env["KOTRA_CONFIG"] == env["KOTRA_CONFIG"]
assert claim(shard_job) == claim(merge_job) == job("volume.yaml")["metadata"]["name"]
assert not os.path.isabs(env["KOTRA_CONFIG"]) and os.path.exists(os.path.join(repo, env["KOTRA_CONFIG"])), \
    "KOTRA_CONFIG must name a recipe the image holds"
print(f"manifests: Indexed Job of {spec['completions']} shards, merge on the same claim")

def run(j, extra):
    c = container(j)
    script = c["args"][0].replace("/data", os.path.join(work, "data"))
    e = dict(os.environ)
    e.update({x["name"]: x["value"] for x in c["env"]})
    # The test's small config and shard count instead of the recipe's.
    e.update(KOTRA_CONFIG=os.path.join(work, "config.json"), SHARDS=str(shards), **extra)
    out = subprocess.run(c["command"] + [script], cwd=repo, env=e, capture_output=True, text=True)
    print(out.stdout.strip())
    if out.returncode != 0:
        sys.exit(f"FAIL: {j['metadata']['name']} {extra}: {out.stderr.strip()}")

for index in [0, 1, 1, 2, 3]:
    run(shard_job, {"JOB_COMPLETION_INDEX": str(index)})
run(merge_job, {})
EOF

diff -r "$work/alone/positions" "$work/data/run/positions" || { echo "FAIL: chunks differ"; exit 1; }
cmp "$work/alone/model.net" "$work/data/run/model.net" || { echo "FAIL: models differ"; exit 1; }
echo "PASS: the Jobs' commands give the one-process run's chunks and model.net"
