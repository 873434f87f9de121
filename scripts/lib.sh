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
	# The compiler goes to make on the command line: git's Makefile sets
	# CC itself, over the environment's (where scripts/test-job puts a
	# job's).  Rebuilds while bisecting the series are much faster with
	# ccache.
	if command -v ccache >/dev/null 2>&1; then
		printf '%s\n' "CC=ccache ${CC:-cc}"
	else
		printf '%s\n' "CC=${CC:-cc}"
	fi
}

# Whether two copies of patches/ hold the same series: what make export
# writes (the patches, series, topics), not the hand-written README.md.
same_series () {
	diff -rq -x README.md "$1" "$2" >/dev/null 2>&1
}

# The patch files of patches/series, in order (TOPIC/NNNN-name.patch): the
# first word of each line that is not blank or a comment.
series_patches () {
	sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]].*//' -e '/^$/d' "$PATCHES/series"
}

# The topics of patches/topics, in the order they apply.
topic_names () {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' -e 's/^[[:space:]]*//' -e 's/[[:space:]].*//' "$PATCHES/topics"
}

# The topics that topic $1 applies on, those they apply on and so on, in
# the order of patches/topics; nothing for a topic that applies on the
# upstream release itself.  Dies on a topic patches/topics does not name,
# or one that comes after a topic that needs it.
topic_base () {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$PATCHES/topics" | awk -v want="$1" '
		{ order[++n] = $1; pos[$1] = n; deps[$1] = ""
		  for (i = 2; i <= NF; i++) deps[$1] = deps[$1] " " $i }
		function need_of(t,   d, k, m) {
			m = split(deps[t], d, " ")
			for (k = 1; k <= m; k++) {
				if (!(d[k] in pos) || pos[d[k]] >= pos[t]) {
					printf "patches/topics: %s needs %s, which is not a topic before it\n", t, d[k] > "/dev/stderr"
					bad = 1
				} else if (!(d[k] in need)) {
					need[d[k]] = 1
					need_of(d[k])
				}
			}
		}
		END {
			if (!(want in pos)) { printf "patches/topics: no topic %s\n", want > "/dev/stderr"; exit 1 }
			need_of(want)
			if (bad) exit 1
			for (i = 1; i <= n; i++) if (order[i] in need) print order[i]
		}' || die "see patches/topics"
}
