#!/bin/bash
# Runs a distillation on Kubernetes: the shards as an Indexed Job, then,
# once every index has completed, the merge-and-train Job. Kubernetes has
# no dependency between Jobs, so this waits for the first.
#   deploy/kubernetes/run.sh [TIMEOUT]      (default 24h)
# Edit KOTRA_CONFIG, SHARDS (= completions) and the image in both Job
# files first; the trained network is /data/run/model.net on the volume.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kubectl apply -f "$here/volume.yaml"
kubectl apply -f "$here/shards-job.yaml"
kubectl wait --for=condition=complete --timeout="${1:-24h}" job/kotra-shards
kubectl apply -f "$here/merge-train-job.yaml"
kubectl wait --for=condition=complete --timeout="${1:-24h}" job/kotra-merge-train
