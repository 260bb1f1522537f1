#!/usr/bin/env bash
# Build the document folder for the nodejs-api benchmark (Node.js API reference, Markdown).
#
#   usage: build-bot.sh [--allow-other-version] TARGET
#
# Downloads Debian's nodejs-doc package with `apt-get download` (nothing is installed),
# unpacks it with `dpkg-deb -x` into a scratch folder, and copies the API pages of
# /usr/share/doc/nodejs/api/ into TARGET/docs/ as plain Markdown, keeping their names
# (api/fs.md.gz -> TARGET/docs/fs.md; Debian compresses all but a few pages). Only the
# Markdown pages are copied: the package's HTML and JSON renderings of the same pages are not.
#
# The .deb is kept in $NODEJS_DOC_CACHE (default ~/.cache/nodejs-doc), so a second run needs
# no network. The questions were judged against one version of the package: if the .deb is
# another version, or its page count differs, the script fails, unless --allow-other-version
# (or NODEJS_DOC_ALLOW_OTHER_VERSION=1) is given, in which case it warns and continues.
# Safe to run again: files are overwritten, and .md files in TARGET/docs that are not in the
# corpus are removed, so TARGET/docs always holds exactly the corpus.
set -euo pipefail

PKG=nodejs-doc
JUDGED_VERSION=18.20.4+dfsg-1~deb12u3   # version the relevance judgments were made against
EXPECTED_PAGES=64                       # API Markdown pages in that version
API=usr/share/doc/nodejs/api

allow_other=${NODEJS_DOC_ALLOW_OTHER_VERSION:-0}
args=()
for a in "$@"; do
  case $a in
    --allow-other-version) allow_other=1 ;;
    -*) echo "error: unknown option $a" >&2; exit 2 ;;
    *) args+=("$a") ;;
  esac
done
if [ ${#args[@]} -ne 1 ] || [ -z "${args[0]}" ]; then
  echo "usage: $0 [--allow-other-version] TARGET" >&2
  exit 2
fi
target=${args[0]}
docs=$target/docs
cache=${NODEJS_DOC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nodejs-doc}
mkdir -p "$cache"

mismatch() {
  if [ "$allow_other" = 1 ]; then
    echo "warning: $1; continuing (--allow-other-version): judgments may not hold" >&2
  else
    echo "error: $1; the judgments were made against $PKG $JUDGED_VERSION with $EXPECTED_PAGES pages" >&2
    echo "       (pass --allow-other-version to build anyway)" >&2
    exit 1
  fi
}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "error: need root (or sudo) to run: $*" >&2; exit 1
  fi
}

fetch() {
  # apt-get download writes into the current folder; as root it warns that _apt cannot write
  # there, which is harmless. The judged version is asked for first; if the archive no longer
  # has it, the candidate version is fetched (and the version check below decides).
  (cd "$cache" && { apt-get download -q "$PKG=$JUDGED_VERSION" 2>/dev/null ||
    apt-get download -q "$PKG"; } 2> >(grep -v -e 'unsandboxed' -e '^$' >&2 || true))
}

deb=$cache/${PKG}_${JUDGED_VERSION}_all.deb
[ -f "$deb" ] || deb=$(ls -t "$cache"/"${PKG}"_*.deb 2>/dev/null | head -n 1 || true)
if [ -z "$deb" ]; then
  echo "downloading $PKG ..."
  if ! fetch; then
    echo "download failed; running apt-get update once and retrying ..."
    as_root apt-get update -q
    fetch
  fi
  deb=$cache/${PKG}_${JUDGED_VERSION}_all.deb
  [ -f "$deb" ] || deb=$(ls -t "$cache"/"${PKG}"_*.deb 2>/dev/null | head -n 1 || true)
  [ -n "$deb" ] || { echo "error: could not download $PKG" >&2; exit 1; }
fi

version=$(dpkg-deb -f "$deb" Version)
echo "$PKG $version"
[ "$version" = "$JUDGED_VERSION" ] || mismatch "$deb is $PKG $version"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
dpkg-deb -x "$deb" "$scratch"
src=$scratch/$API
[ -d "$src" ] || { echo "error: /$API not found in $deb" >&2; exit 1; }

mkdir -p "$docs"
total=0
names=$scratch/names
: >"$names"
# The pages are one flat folder: NAME.md or NAME.md.gz (-L: a linked page is copied as a file)
while IFS= read -r -d '' page; do
  rel=${page#"$src"/}
  case $rel in
    *.md.gz) out=${rel%.gz}; gzip -dc -- "$page" >"$docs/$out.tmp" ;;
    *.md) out=$rel; cp -L -f -- "$page" "$docs/$out.tmp" ;;
    *) continue ;;
  esac
  mv -f -- "$docs/$out.tmp" "$docs/$out"
  chmod 0644 "$docs/$out"
  printf '%s\n' "$out" >>"$names"
  total=$((total + 1))
done < <(find "$src" -maxdepth 1 \( -name '*.md' -o -name '*.md.gz' \) \( -type f -o -type l \) -print0)

# drop pages left from an earlier build (another version) that are not in the corpus
removed=0
while IFS= read -r -d '' old; do
  if ! grep -qxF -- "${old#"$docs"/}" "$names"; then
    rm -f -- "$old"
    removed=$((removed + 1))
  fi
done < <(find "$docs" -maxdepth 1 -name '*.md' -print0)

bytes=$(cat "$docs"/*.md | wc -c)
echo "copied $total Markdown pages ($bytes bytes) into $docs; removed $removed stale files"
[ "$total" -eq "$EXPECTED_PAGES" ] || mismatch "this build has $total pages, not $EXPECTED_PAGES"
