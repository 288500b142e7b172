#!/usr/bin/env bash
# N gateway replicas locally with one command: a mock Kubernetes API server (4 GPU nodes registered), N gateway
# JVMs in one Hazelcast cluster (quorum a majority) reaching it through a kubeconfig, plain HTTP on loopback.
# Prints every replica's endpoints and the kubeconfig; Ctrl-C stops everything. Usage: scripts/replicas.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
replicas="${1:-3}"
shift || true
exec scripts/chaos.sh --serve --replicas "$replicas" "$@"
