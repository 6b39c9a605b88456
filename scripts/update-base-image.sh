#!/bin/sh
# Pins the Dockerfile's base image by digest: asks the registry for the current digest of the tag
# in `ARG NODE_IMAGE=` (its multi-platform index, so every platform's build resolves the same
# image) and rewrites that line as <tag>@sha256:<digest>. Needs network access to the registry and
# `docker buildx` or `crane`. Review the diff, build, run the tests, and commit.
#
#   scripts/update-base-image.sh                              re-pin the current tag
#   scripts/update-base-image.sh node:24.22.0-bookworm-slim   move to another tag and pin it
set -eu
cd "$(dirname "$0")/.."

current=$(sed -n 's/^ARG NODE_IMAGE=//p' Dockerfile)
[ -n "$current" ] || { echo "no ARG NODE_IMAGE= line in Dockerfile" >&2; exit 1; }
tag=${1:-${current%%@*}}

if command -v crane >/dev/null 2>&1; then
  digest=$(crane digest "$tag")
  manifest() { crane manifest "$1"; }
elif docker buildx version >/dev/null 2>&1; then
  # The first lines name the tag and the digest of what it points at (the index, for a multi-platform tag).
  digest=$(docker buildx imagetools inspect "$tag" | awk '$1 == "Digest:" { print $2; exit }')
  manifest() { docker buildx imagetools inspect --raw "$1"; }
else
  echo "needs crane (github.com/google/go-containerregistry) or docker buildx" >&2
  exit 1
fi
case "$digest" in
  sha256:????????????????????????????????????????????????????????????????) ;;
  *) echo "no digest for $tag (got: $digest)" >&2; exit 1 ;;
esac
# One platform's image digest would pin every build to that platform: only an index (or a Docker
# manifest list) names each platform's image under one digest.
manifest "$tag@$digest" | grep -q '"manifests"' || {
  echo "$tag@$digest is not a multi-platform index: pin the tag's index, not one platform's image" >&2
  exit 1
}

sed -i.bak "s|^ARG NODE_IMAGE=.*|ARG NODE_IMAGE=$tag@$digest|" Dockerfile && rm Dockerfile.bak
echo "ARG NODE_IMAGE=$tag@$digest"
