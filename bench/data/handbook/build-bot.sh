#!/usr/bin/env bash
# Build the document folder for the handbook benchmark (the Debian Administrator's Handbook,
# one language).
#
#   usage: build-bot.sh LANG TARGET
#
#   LANG: en-us nb-no de-de fr-fr es-es pt-br it-it ru-ru ja-jp   (the judged languages; any other
#         folder of the package, e.g. da-DK, builds too, with a warning). Case does not matter.
#
# Downloads Debian's debian-handbook package with `apt-get download` (nothing is installed),
# unpacks it with `dpkg-deb -x` into a scratch folder, and copies the language's HTML pages
# (/usr/share/doc/debian-handbook/html/<LANG>/*.html) into TARGET/docs/, keeping their file
# names: sect.apt-get.html, apt.html, ... The names are the same in every language, so a
# judgment made on the English page holds for the same file in every language. Images and CSS
# are not copied.
#
# The .deb is kept in $HANDBOOK_CACHE (default ~/.cache/handbook), so a second run needs no
# network. Safe to run again: pages are overwritten and .html files in TARGET/docs/ that are not
# pages of the book are removed, so TARGET/docs always holds exactly the corpus.
set -euo pipefail

PKG=debian-handbook
JUDGED_VERSION=11.20220922   # version the relevance judgments were made against
EXPECTED_PAGES=127           # pages per language in that version

if [ $# -ne 2 ] || [ -z "$1" ] || [ -z "$2" ]; then
  echo "usage: $0 LANG TARGET   (LANG: en-us nb-no de-de fr-fr es-es pt-br it-it ru-ru ja-jp)" >&2
  exit 2
fi

lang=$(printf '%s' "$1" | tr '[:upper:]_' '[:lower:]-')
case $lang in
  en-us|nb-no|de-de|fr-fr|es-es|pt-br|it-it|ru-ru|ja-jp) ;;
  *) echo "warning: $lang is not one of the judged languages (queries exist for en-us nb-no de-de fr-fr es-es pt-br it-it ru-ru ja-jp)" >&2 ;;
esac
case $lang in
  ??-??) bookdir=${lang%%-*}-$(printf '%s' "${lang#*-}" | tr '[:lower:]' '[:upper:]') ;;   # nb-no -> nb-NO
  *) echo "error: LANG must look like nb-no (language-region), got $1" >&2; exit 2 ;;
esac

target=$2
docs=$target/docs
cache=${HANDBOOK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/handbook}
mkdir -p "$cache"

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "error: need root (or sudo) to run: $*" >&2; exit 1
  fi
}

fetch() {
  # apt-get download writes into the current folder; as root it warns that _apt cannot
  # write there, which is harmless
  (cd "$cache" && apt-get download -q "$PKG" 2> >(grep -v -e 'unsandboxed' -e '^$' >&2 || true))
}

deb=$(ls -t "$cache"/"${PKG}"_*.deb 2>/dev/null | head -n 1 || true)
if [ -z "$deb" ]; then
  echo "downloading $PKG ..."
  if ! fetch; then
    echo "download failed; running apt-get update once and retrying ..."
    as_root apt-get update -q
    fetch
  fi
  deb=$(ls -t "$cache"/"${PKG}"_*.deb 2>/dev/null | head -n 1 || true)
  [ -n "$deb" ] || { echo "error: could not download $PKG" >&2; exit 1; }
fi

version=$(dpkg-deb -f "$deb" Version)
echo "$PKG $version"
if [ "$version" != "$JUDGED_VERSION" ]; then
  echo "note: relevance judgments were made against $JUDGED_VERSION; pages may differ in $version" >&2
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
dpkg-deb -x "$deb" "$scratch"
src=$scratch/usr/share/doc/debian-handbook/html/$bookdir
if [ ! -d "$src" ]; then
  echo "error: $bookdir not found in $deb (languages: $(ls "$scratch/usr/share/doc/debian-handbook/html" | tr '\n' ' '))" >&2
  exit 1
fi

mkdir -p "$docs"
# -L copies a linked page as a file
find "$src" -maxdepth 1 -name '*.html' \( -type f -o -type l \) -print0 |
  xargs -0 -r cp -L -f -t "$docs" --
chmod 0644 "$docs"/*.html
total=$(find "$src" -maxdepth 1 -name '*.html' \( -type f -o -type l \) | wc -l)
# drop pages left from an earlier build (another version) that are not in the corpus
removed=0
while IFS= read -r -d '' old; do
  [ -e "$src/$(basename "$old")" ] && continue
  rm -f -- "$old"
  removed=$((removed + 1))
done < <(find "$docs" -maxdepth 1 -name '*.html' -print0)

echo "copied $total HTML files ($bookdir) into $docs; removed $removed stale files"
if [ "$total" -ne "$EXPECTED_PAGES" ]; then
  echo "note: $EXPECTED_PAGES pages per language were judged; this build has $total" >&2
fi
