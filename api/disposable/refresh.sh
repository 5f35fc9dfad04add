#!/bin/sh
# Writes domains.txt, the throwaway-address domains a free trial is refused to, from the pinned
# version of the npm package mailchecker (MIT; github.com/FGRibreau/mailchecker, a list kept up
# by its maintainers), one domain a line as the package lists them, sorted, under a header
# naming the package, its version and its publish date. To move to a newer list, change VERSION
# and run `go generate ./api/disposable` (needs npm and node). `refresh.sh --check` writes it
# into a temporary file and fails when that differs from the one committed (make check-disposable).
set -eu
PACKAGE=mailchecker
VERSION=6.0.21
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$PACKAGE@$VERSION" >/dev/null && tar xzf "$PACKAGE-$VERSION.tgz")
published=$(npm view "$PACKAGE" time --json | node -e '
	let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s)[process.argv[1]].slice(0, 10)));' "$VERSION")
out="$work/domains.txt"
{
	echo "# $PACKAGE@$VERSION (npm), published $published: github.com/FGRibreau/mailchecker's list of throwaway-address domains."
	echo "# MIT licence. Written by refresh.sh; do not edit: change its VERSION and run go generate ./api/disposable."
	node -e 'for (const d of [...require(process.argv[1]).blacklist()].sort()) console.log(d);' "$work/package/platform/node/index.js"
} >"$out"
if [ "${1:-}" = "--check" ]; then
	if ! cmp -s "$out" "$here/domains.txt"; then
		echo "api/disposable/domains.txt is not $PACKAGE@$VERSION's list: run go generate ./api/disposable" >&2
		exit 1
	fi
	exit 0
fi
cp "$out" "$here/domains.txt"
