#!/usr/bin/env bash
# Builds kube-oracle (see README.md) from Kubernetes' own Go libraries as Debian packages them
# (golang-k8s-*-dev 0.36.4 and their whole Depends closure, Go source under /usr/share/gocode),
# with a Go toolchain also taken from Debian. Everything is downloaded with apt through a PRIVATE
# sources list and PRIVATE apt state, and unpacked with dpkg-deb -x under $KUBE_ORACLE_DIR:
# nothing in /etc/apt changes and nothing is installed. Idempotent: every step is skipped when
# its result is already there. No Go module proxy and no GitHub download is used (GOPATH mode).
#
#   KUBE_ORACLE_DIR   work directory (default ./.kube-oracle; keep it outside any git repository)
#   GO_ROOT           an existing Go >= 1.26 GOROOT to use (default: download golang-1.26-go and
#                     golang-1.26-src from Debian unstable into $KUBE_ORACLE_DIR/go-root)
#   DEBIAN_ARCHIVE    Debian mirror URL (default: the first one in this machine's apt sources,
#                     else http://deb.debian.org/debian)
#   APT_REFRESH=1     re-run apt-get update and re-resolve the package closure
#
# Result: $KUBE_ORACLE_DIR/bin/kube-oracle  (run: kube-oracle < cases.jsonl > answers.jsonl)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
KUBE_ORACLE_DIR="${KUBE_ORACLE_DIR:-.kube-oracle}"
mkdir -p "$KUBE_ORACLE_DIR"
KUBE_ORACLE_DIR="$(cd "$KUBE_ORACLE_DIR" && pwd)"
cd "$KUBE_ORACLE_DIR"

# The packages the oracle imports; their Depends closure comes along.
ROOT_PKGS=(golang-k8s-apiserver-dev golang-k8s-component-helpers-dev golang-k8s-api-dev
  golang-k8s-apimachinery-dev golang-k8s-client-go-dev golang-k8s-component-base-dev
  golang-k8s-kube-openapi-dev golang-k8s-sigs-json-dev golang-k8s-klog-dev)
GO_PKG="${GO_PKG:-golang-1.26-go}"
GO_VER="${GO_PKG#golang-}"; GO_VER="${GO_VER%-go}"

# 1. Private apt configuration: Debian unstable + trixie-backports, download only.
if [ ! -f sid.list ] || [ -n "${APT_REFRESH:-}" ]; then
  ARCHIVE="${DEBIAN_ARCHIVE:-}"
  if [ -z "$ARCHIVE" ]; then
    ARCHIVE=$( { cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null || true; } \
      | grep -vE '^[[:space:]]*#' | grep -oE 'https?://[^ ]+/debian/?([[:space:]]|$)' | grep -v security | head -1 | tr -d '[:space:]' || true)
  fi
  ARCHIVE="${ARCHIVE:-http://deb.debian.org/debian}"
  {
    printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s unstable main\n' "$ARCHIVE"
    printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s trixie-backports main\n' "$ARCHIVE"
  } > sid.list
fi
mkdir -p apt-lists/partial apt-cache/archives/partial debs root
: > dpkg-status-empty   # private, empty dpkg status: resolution ignores what this machine has installed
APTO=(-o Dir::Etc::sourcelist="$KUBE_ORACLE_DIR/sid.list" -o Dir::Etc::sourceparts=- \
      -o Dir::State::Lists="$KUBE_ORACLE_DIR/apt-lists" -o Dir::Cache="$KUBE_ORACLE_DIR/apt-cache" \
      -o Dir::State::status="$KUBE_ORACLE_DIR/dpkg-status-empty")
if ! ls apt-lists/*_Packages* >/dev/null 2>&1 || [ -n "${APT_REFRESH:-}" ]; then
  apt-get "${APTO[@]}" update
fi

# 2. The Depends closure of the root packages (no Recommends/Suggests), keeping the Go source
#    packages (golang-*-dev); the rest of the closure (libc, the toolchain metapackages) is
#    not needed to compile Go source in GOPATH mode.
if [ ! -s pkgs.txt ] || [ -n "${APT_REFRESH:-}" ]; then
  apt-cache "${APTO[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts \
    --no-breaks --no-replaces --no-enhances "${ROOT_PKGS[@]}" > depends-closure.txt
  grep -v '^ ' depends-closure.txt | grep -v '^<' | sort -u | grep -E '^golang-.*-dev$' > pkgs.txt
fi
echo "closure: $(wc -l < pkgs.txt) golang-*-dev packages"

# 3. Download what is missing, then unpack every .deb once (marker per file).
missing=()
while read -r p; do
  ls "debs/${p}_"*.deb >/dev/null 2>&1 || missing+=("$p")
done < pkgs.txt
if [ ${#missing[@]} -gt 0 ]; then
  (cd debs && apt-get "${APTO[@]}" download "${missing[@]}")
fi
mkdir -p root/.unpacked
: > versions.txt
while read -r p; do
  f="$(ls "debs/${p}_"*.deb | sort -V | tail -1)"
  b="$(basename "$f")"
  [ -e "root/.unpacked/$b" ] || { dpkg-deb -x "$f" root; touch "root/.unpacked/$b"; }
  dpkg-deb -W --showformat='${Package} ${Version}\n' "$f" >> versions.txt
done < pkgs.txt

# 4. Go toolchain.
if [ -n "${GO_ROOT:-}" ]; then
  GOROOT_DIR="$GO_ROOT"
else
  GOROOT_DIR="$KUBE_ORACLE_DIR/go-root/usr/lib/go-$GO_VER"
  if [ ! -x "$GOROOT_DIR/bin/go" ]; then
    mkdir -p go-debs go-root
    (cd go-debs && apt-get "${APTO[@]}" download "$GO_PKG" "golang-$GO_VER-src")
    for f in go-debs/*.deb; do dpkg-deb -x "$f" go-root; done
  fi
fi
export GOROOT="$GOROOT_DIR"
export PATH="$GOROOT/bin:$PATH"

# 5. Build in GOPATH mode against the unpacked sources.
export GO111MODULE=off GOPATH="$KUBE_ORACLE_DIR/root/usr/share/gocode" GOFLAGS= GOPROXY=off \
       GOSUMDB=off GOTOOLCHAIN=local GOTELEMETRY=off CGO_ENABLED=0 GOCACHE="$KUBE_ORACLE_DIR/gocache"
go version
K8S_LIB_VERSION="$(dpkg-deb -f "$(ls debs/golang-k8s-apiserver-dev_*.deb | sort -V | tail -1)" Version)"   # e.g. 0.36.4-2
K8S_LIB_VERSION="${K8S_LIB_VERSION%%-*}"
GIT_VERSION="v1.${K8S_LIB_VERSION#0.}"                                           # 0.36.4 -> v1.36.4
GIT_MINOR="${K8S_LIB_VERSION#0.}"; GIT_MINOR="${GIT_MINOR%%.*}"
mkdir -p src/kube-oracle bin
cp "$HERE"/*.go src/kube-oracle/
start=$(date +%s)
(cd src/kube-oracle && go build -trimpath \
  -ldflags "-X k8s.io/component-base/version.gitVersion=$GIT_VERSION -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=$GIT_MINOR -X k8s.io/component-base/version.gitTreeState=clean" \
  -o "$KUBE_ORACLE_DIR/bin/kube-oracle" .)
echo "built $KUBE_ORACLE_DIR/bin/kube-oracle ($GIT_VERSION libraries) in $(( $(date +%s) - start ))s"
