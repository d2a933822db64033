#!/usr/bin/env bash
# Extracts the OFF meshes that Debian ships in libcgal-demo (cow.off, bunny00.off, ...) into
# <repo>/data/meshes, which is gitignored: the meshes stay out of the repository and come from a
# package every machine of ours installs anyway (scripts/install-deps.sh).
# Idempotent: does nothing when a previous run completed. It extracts into a temporary folder and
# renames it into place, so an interrupted run leaves no half-filled data/meshes behind.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST="$ROOT/data/meshes"
ARCHIVE=/usr/share/doc/libcgal-dev/data.tar.gz
STAMP="$DEST/.fetched"  # written last, so its presence means the extraction finished

if [ -f "$STAMP" ]; then
  echo "fetch-meshes: $DEST already there ($(find "$DEST" -name '*.off' | wc -l) meshes)"
  exit 0
fi

if [ ! -r "$ARCHIVE" ]; then
  echo "fetch-meshes: $ARCHIVE not found: the Debian package libcgal-demo is not installed." >&2
  echo "fetch-meshes: run scripts/install-deps.sh first." >&2
  exit 1
fi

mkdir -p "$ROOT/data"
TMP="$(mktemp -d "$ROOT/data/.meshes.XXXXXX")"
trap 'rm -rf "$TMP"' EXIT
chmod 755 "$TMP"  # mktemp makes it private; the meshes are plain shared data

# The archive holds data/meshes/<name>.off among much else; take only those files, flattened.
tar -xzf "$ARCHIVE" -C "$TMP" --strip-components=2 --wildcards 'data/meshes/*.off'
count="$(find "$TMP" -name '*.off' | wc -l)"
if [ "$count" -eq 0 ]; then
  echo "fetch-meshes: $ARCHIVE contains no data/meshes/*.off (unexpected package layout)" >&2
  exit 1
fi
touch "$TMP/.fetched"

rm -rf "$DEST"
mv "$TMP" "$DEST"
trap - EXIT
echo "fetch-meshes: extracted $count meshes into $DEST"
