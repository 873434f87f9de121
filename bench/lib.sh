# Shared settings of the benchmark scripts in bench/; sourced, not run.
# shellcheck shell=bash
# shellcheck disable=SC2034 # the variables are for the scripts that source this

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The tooling's own settings: set -euo pipefail, ROOT, CACHE, NPROC, the
# pinned release, die and say.
# shellcheck source-path=SCRIPTDIR source=../scripts/lib.sh
. "$BENCH/../scripts/lib.sh"
CORPUS=$CACHE/corpus

# A repository given as a path, or by the name of one of the benchmark's
# corpora ("linux" is $CORPUS/linux.git, which must be built): its path.
corpus_path () {
	case $1 in
	*/*|"") printf '%s\n' "$1" ;;
	*)	[ -e "$CORPUS/$1.git/READY" ] || die "no corpus $CORPUS/$1.git yet: make bench builds it"
		printf '%s\n' "$CORPUS/$1.git" ;;
	esac
}

# A Python that has matplotlib when one exists (Debian's python3-matplotlib
# installs into /usr/bin/python3, which a pyenv shim may hide).
pick_python () {
	local p
	for p in /usr/bin/python3 python3; do
		if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import matplotlib' 2>/dev/null; then
			printf '%s\n' "$p"; return
		fi
	done
	command -v python3 || die "python3 not found"
}
PY=${BENCH_PYTHON:-$(pick_python)}

# The git used for preparing repositories (never a contender's timing).
TOOLGIT=${BENCH_TOOLGIT:-git}

# A new results directory for NAME: results/<UTC date>-<machine id>/NAME,
# or BENCH_OUT, which must not exist yet.  A recorded run is never
# overwritten: a second run of the day goes to NAME-2, then NAME-3, ...
# The path is made absolute: the runs use it from other directories, and
# GIT_TRACE2_EVENT takes no relative path.
new_results_dir () {
	local machine out n
	machine=$(cut -c1-8 /etc/machine-id 2>/dev/null || hostname)
	out=${BENCH_OUT:-$ROOT/results/$(date -u +%Y-%m-%d)-$machine/$1}
	case $out in /*) ;; *) out=$PWD/$out ;; esac
	if [ -e "$out" ]; then
		[ -z "${BENCH_OUT:-}" ] || die "$out exists; remove it or name another BENCH_OUT"
		n=2
		while [ -e "$out-$n" ]; do n=$((n + 1)); done
		out=$out-$n
	fi
	mkdir -p "$out"
	printf '%s\n' "$out"
}

# read_bench_extra OUT: the builds of BENCH_EXTRA ("name=/path/to/git ...")
# into EXTRA[name]=path and EXTRA_NAMES (" name ..."); the recipe of a
# variant made by bench/build-variant is kept in OUT/variants/.
declare -A EXTRA
EXTRA_NAMES=
read_bench_extra () {
	local e n recipe
	for e in ${BENCH_EXTRA:-}; do
		n=${e%%=*}
		case $n in stock|patched|series|gix|*[!a-z0-9-]*|"") die "BENCH_EXTRA: bad name in '$e'" ;; esac
		[ -x "${e#*=}" ] || die "BENCH_EXTRA: ${e#*=} is not executable"
		EXTRA[$n]=${e#*=}
		EXTRA_NAMES="$EXTRA_NAMES $n"
		recipe=$(dirname "$(dirname "${e#*=}")")/RECIPE
		if [ -f "$recipe" ]; then mkdir -p "$1/variants"; cp "$recipe" "$1/variants/$n.recipe"; fi
	done
}
