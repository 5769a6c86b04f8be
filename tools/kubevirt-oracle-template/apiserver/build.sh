#!/usr/bin/env bash
# Builds itgen-apiserver with the VirtualMachineTemplate CRD: the kubevirt-oracle tool's
# apiserver/build.sh (kept outside this repository) first, then templates.go beside this file and
# the virt-template bundle KubeVirt embeds are added to its main package, main.go's CRD lookup is
# pointed at crdOf (one line), and the binary is built again.
#
#   APISERVER_BUILD  that tool's apiserver/build.sh;  ORACLE_DIR, KUBE_OPENAPI_GIT, APIEXTENSIONS_GIT as it needs
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "${APISERVER_BUILD:?set APISERVER_BUILD}"
ORACLE_DIR="$(cd "${ORACLE_DIR:?set ORACLE_DIR}" && pwd)"
DST="$ORACLE_DIR/kubevirt/cmd/itgen-apiserver"
cp "$HERE/templates.go" "$DST/templates.go"
cp "$ORACLE_DIR/kubevirt/pkg/virt-operator/resource/generate/components/data/virt-template/install-virt-operator.yaml" "$DST/virt-template-bundle.yaml"
sed -i 's/c, ok := crds\[kind\]/c, ok := crdOf(obj, kind)/' "$DST/main.go"
grep -q 'crdOf(obj, kind)' "$DST/main.go"
export GOROOT="$ORACLE_DIR/go-root/usr/lib/go-1.26" GOTOOLCHAIN=local GOFLAGS=-mod=vendor GOPROXY=off GOSUMDB=off GOTELEMETRY=off CGO_ENABLED=0
export PATH="$GOROOT/bin:$PATH" GOCACHE="$ORACLE_DIR/gocache" GOPATH="$ORACLE_DIR/gopath"
cd "$ORACLE_DIR/kubevirt"
go build -o "$ORACLE_DIR/bin/itgen-apiserver" ./cmd/itgen-apiserver
echo "built $ORACLE_DIR/bin/itgen-apiserver with the VirtualMachineTemplate CRD"
