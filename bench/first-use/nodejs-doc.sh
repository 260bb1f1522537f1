#!/bin/sh
# Node.js's API documentation as Markdown, for bench/first-use.bench.ts: Debian's nodejs-doc
# package, downloaded (not installed) and unpacked into a scratch folder. Never committed.
#   bench/first-use/nodejs-doc.sh /tmp/nodejs-doc
#   FIRST_USE_MARKDOWN_DIR=/tmp/nodejs-doc/md npm run bench -- first-use
set -eu
dir=${1:?usage: nodejs-doc.sh <scratch folder>}
mkdir -p "$dir/md"
cd "$dir"
apt-get download nodejs-doc
dpkg-deb -x nodejs-doc_*.deb unpacked
for f in unpacked/usr/share/doc/nodejs/api/*.md.gz; do
  gunzip -c "$f" >"md/$(basename "$f" .gz)"
done
for f in unpacked/usr/share/doc/nodejs/api/*.md; do
  [ -e "$f" ] && cp "$f" md/
done
echo "$(ls md | wc -l) Markdown files in $dir/md ($(du -sb md | cut -f1) bytes), from $(ls nodejs-doc_*.deb)"
