# Shared settings for the scripts in this directory; sourced, not run.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are for the scripts that source this

set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=../upstream.conf
. "$ROOT/upstream.conf"

PATCHES=$ROOT/patches
PATCHED=${PATCHED:-$ROOT/patched}   # the patched tree, a git repository
STOCK=${STOCK:-$ROOT/stock}         # pristine upstream, built for comparison
UPSTREAM_TAG=upstream/v$UPSTREAM_VERSION
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/git-parallel-checkout
NPROC=$(nproc 2>/dev/null || echo 2)

# The one identity every patch of the series carries.
SERIES_NAME="Parallel Checkout Series"
SERIES_EMAIL="series@parallel-checkout.invalid"

die () { printf 'error: %s\n' "$*" >&2; exit 1; }
say () { printf '%s\n' "$*" >&2; }

# git on the patched tree, with the series identity and settings that keep
# exports byte-stable whatever the user's global configuration says.
pgit () {
	git -C "$PATCHED" \
		-c user.name="$SERIES_NAME" -c user.email="$SERIES_EMAIL" \
		-c core.abbrev=12 -c diff.algorithm=myers -c diff.renames=true \
		-c diff.noprefix=false -c diff.mnemonicPrefix=false \
		-c format.signature= -c format.coverLetter=false "$@"
}

# The build options shared by the patched and the stock build.  The
# patched build adds the series' own knobs (see scripts/build-git).
common_make_flags () {
	printf '%s\n' DEVELOPER=1 NO_TCLTK=YesPlease \
		OPENSSL_SHA1_UNSAFE=YesPlease "-j$NPROC"
	# Rebuilds while bisecting the series are much faster with ccache.
	if command -v ccache >/dev/null 2>&1; then
		printf '%s\n' "CC=ccache ${CC:-cc}"
	fi
}

# The patch files of patches/series, in order: the first word of each line
# that is not blank or a comment.
series_patches () {
	sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]].*//' -e '/^$/d' "$PATCHES/series"
}
