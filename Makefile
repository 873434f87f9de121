# The parallel-checkout series on top of upstream git: the one entry point.
# See README.md.  Every target is a short script in scripts/.

prefix ?= $(HOME)

# Upstream's CI jobs that scripts/test-job reproduces (test-job --list):
# those that fit in make test run there with the series' scripts and
# t208x (--quick), the others in make test-matrix with every script of
# make test (JOBS=... picks any of them).  README.md says what each covers.
TEST_JOBS = TEST-vars leaks sha256
MATRIX_JOBS = clang linux32 musl asan-ubsan sparse \
	static-analysis documentation meson cmake s390x non-linux no-pread tsan
JOBS ?= $(MATRIX_JOBS)

all: build

build:
	@scripts/install-build-deps
	@scripts/prepare-patched
	@scripts/build-git patched

test: build stock
	@scripts/lint-tooling
	@scripts/check-upper-state
	@scripts/run-tests
	@scripts/run-tests --casefold
	@scripts/unit-tests
	@scripts/diff-checkout --avoid '$(DIFF_AVOID)' --seed 1 --count 6 && scripts/diff-checkout --avoid '$(DIFF_AVOID)' --casefold --seed 1 --count 2
	@scripts/test-timestamps
	@RUN_TESTS_ROUNDS=2 scripts/test-sanitized
	@scripts/install-build-deps --fuzz
	@scripts/fuzz --smoke
	@scripts/test-checks --quick
	@RUN_TESTS_ROUNDS=2 scripts/test-matrix --quick $(TEST_JOBS)
	@scripts/verdicts --replay --seed $(VERDICT_SEED) --minutes $(VERDICT_TEST_MINUTES)

test-matrix: build
	@scripts/test-matrix $(JOBS)
	@$(MAKE) --no-print-directory diff-checkout

test-full: build
	@scripts/run-tests --full

test-casefold: build
	@scripts/run-tests --casefold

test-timestamps: build
	@scripts/test-timestamps

test-sanitize: build
	@scripts/test-sanitized

# The differential checkout test: DIFF_SEEDS random trees from DIFF_SEED
# on, checked out and switched with N workers and with one, compared
# byte for byte, on tmpfs and on the case-folding test filesystem
# (scripts/diff-checkout; make test runs a few, make test-matrix these).
# DIFF_AVOID leaves out the shapes of the differences known and not yet
# fixed (scripts/diff-checkout --help): drop each one once it is fixed;
# DIFF_AVOID= shows them all.
DIFF_SEED ?= 1000
DIFF_SEEDS ?= 50
DIFF_AVOID ?=
diff-checkout: build
	@scripts/diff-checkout -v --avoid '$(DIFF_AVOID)' --seed $(DIFF_SEED) --count $(DIFF_SEEDS)
	@scripts/diff-checkout -v --avoid '$(DIFF_AVOID)' --casefold --seed $(DIFF_SEED) --count $(DIFF_SEEDS)

# The differential verdicts of index-pack (scripts/verdicts): random
# packs from VERDICT_SEED on (default: a new one each run, printed) in
# random modes, the series against v2.55.0, for VERDICT_MINUTES after
# the kept packs of tests/verdicts/ in every mode; make test runs
# VERDICT_TEST_MINUTES of it.  A difference is minimized and kept there.
VERDICT_SEED ?= $(shell date +%s)
VERDICT_MINUTES ?= 60
VERDICT_TEST_MINUTES ?= 2
verdicts: build stock
	@scripts/verdicts --replay --keep-going --seed $(VERDICT_SEED) --minutes $(VERDICT_MINUTES)

# The libFuzzer targets of the series (oss-fuzz/), FUZZ_SECONDS each;
# what they find is kept in fuzz/corpus/ for the next run.
FUZZ_SECONDS ?= 600
fuzz: build
	@scripts/install-build-deps --fuzz
	@scripts/fuzz $(FUZZ_SECONDS)

# The machine checks fail where they would check nothing: no seeds, a
# fuzz target without libdeflate, no worker started (make test runs the
# cases that need no build of their own).
test-checks: build
	@scripts/install-build-deps --fuzz
	@scripts/test-checks

stock:
	@scripts/install-build-deps
	@scripts/build-git stock

install: build
	@scripts/build-git patched install prefix='$(prefix)'

export:
	@scripts/export-patches

status:
	@scripts/series-status

# Cross-build for Windows (mingw-w64, meson --werror) and smoke-test it
# under Wine against the Linux build (scripts/test-windows); not part of
# make test.
test-windows: build
	@scripts/install-build-deps --windows
	@scripts/build-windows
	@scripts/test-windows

check-series:
	@scripts/install-build-deps
	@scripts/prepare-patched
	@scripts/check-series $(CHECK_SERIES_FLAGS) $(if $(TOPIC),--topic '$(TOPIC)') $(FROM)

# Every topic of patches/topics on its own base, one after the other.
check-topics:
	@scripts/install-build-deps
	@scripts/prepare-patched
	@scripts/check-series $(CHECK_SERIES_FLAGS) --all-topics

# The patches that move code an earlier patch of the series wrote
# (scripts/check-moves), up to REV of the patched tree (default HEAD).
check-moves:
	@scripts/check-moves $(REV)

# The sha1dc-simd topic as a series for the sha1collisiondetection
# project (sha1collisiondetection/), applied to its pinned commit, built
# and tested with that project's own Makefile.  Needs a repository with
# that commit: the local mirror, or SHA1CD_REPO (see its upstream.conf).
check-sha1cd:
	@scripts/check-sha1cd

send-ready:
	@scripts/prepare-patched
	@scripts/send-ready '$(TOPIC)' '$(SIGNOFF)' $(REROLL)

reset-patched:
	@scripts/reset-patched

rebase:
	@scripts/rebase-upstream '$(UPSTREAM)' '$(SHA256)'

clean:
	rm -rf stock check-series sanitize sanitize.log fuzz fuzz.log fuzz-nodeflate fuzz-nodeflate.log bin variants windows matrix outgoing sha1collisiondetection/work
	@[ ! -d patched/.git ] || { git -C patched worktree prune && \
		$(MAKE) -s -C patched clean >/dev/null; }

.PHONY: all build test test-matrix test-checks test-full test-casefold test-timestamps test-sanitize diff-checkout verdicts fuzz test-windows stock install export status check-series check-topics check-moves check-sha1cd send-ready reset-patched rebase clean

# The benchmark (bench/, see README.md): stock, the series and gix side by side.
bench: build stock
	@scripts/install-build-deps --bench
	@bench/run linux
	@bench/run gitgit

bench-quick: build stock
	@scripts/install-build-deps --bench
	@bench/run quick

# Git LFS: 4,000 files of 20 kB, 200 of 5 MB, and the Linux tree plus
# 2,000 LFS files (bench/lfs; needs the Linux corpus of make bench); then
# clones of the first two from an LFS server on loopback, with 0 and
# 20 ms per round trip (bench/lfs-clone).
bench-lfs: build stock
	@scripts/install-build-deps --bench
	@bench/lfs 4000 20000
	@bench/lfs 200 5000000
	@bench/lfs 2000 20000 linux
	@bench/lfs-clone 4000 20000 0 20
	@bench/lfs-clone 200 5000000 0 20

# A clone over a link, on loopback (bench/link): git.git's history and
# the Linux corpus at 12.5, 25 and 125 MB/s and unlimited, stock's
# daemon serving stock, the series and gix; LINK_RATES picks the rates.
LINK_RATES ?= 12.5 25 125 0
bench-link: build stock
	@scripts/install-build-deps --bench
	@bench/link gitgit $(LINK_RATES)
	@bench/link linux $(LINK_RATES)

# index-pack against its floor, and as git.git's history grows (~25 minutes)
bench-index-pack: build stock
	@scripts/install-build-deps --bench
	@bench/index-pack-scaling

.PHONY: bench bench-quick bench-lfs bench-link
