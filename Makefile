# The two commands of the README, and a few more. Every target installs what is missing first.
BUILD      ?= build
BUILD_ASAN ?= build-asan
BUILD_FUZZ ?= $(BUILD_ASAN)
BUILD_TSAN ?= build-tsan
BUILD_LIBRARY ?= build-library
BUILD_PGO  ?= build-pgo
BUILD_RELEASE ?= build-release
BUILD_GCC_RELEASE ?= build-gcc-release
BUILD_CLANG_RELEASE ?= build-clang-release
JOBS       ?= $(shell nproc)
# Every build made here treats warnings as errors (a user's plain cmake build does not), and
# compiles through ccache when it is installed (builds of several directories share objects).
# Both are expanded when a recipe runs, after `deps` installed ccache: on a fresh machine the
# first build then has it too, and the next target does not configure build/ again with it
# (which rebuilt all of build/ once, ~10 minutes of CI).
CCACHE      = $(shell command -v ccache 2>/dev/null)
CMAKE_GEN   = -G Ninja -DCALLTREE_WERROR=ON $(if $(CCACHE),-DCMAKE_CXX_COMPILER_LAUNCHER=$(CCACHE))
# Paths under this checkout are hashed relative to it (and the build directory's own path not
# at all), so two checkouts of one machine (a work tree and CI's fresh clone) share objects.
export CCACHE_BASEDIR  := $(CURDIR)
export CCACHE_NOHASHDIR := true
# The tested build (build/, `make demo` and `make test`): Release, the build type of users and
# distributions (-O3 -DNDEBUG), with line tables (-g1: file:line in backtraces, sanitizer reports
# and gdb's `bt`). -g1 compiles a third faster than -g (variable locations are most of -g's
# cost: report_diff.cc 11.5 s -> 7.9 s, session.cc 8.5 -> 5.8) and changes no code (GCC's
# -fcompare-debug guarantee), so the tests test the machine code a user's Release build runs,
# and `make deb-check` can package this build. The sanitizer and thread builds: -O2 -g1.
TESTED_CONFIG = -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O3 -DNDEBUG -g1"
LINE_TABLES   = -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"

.PHONY: all deps build demo test test-library same-outputs release test-release test-sanitize test-threads fuzz bench format check-format clean docs compile-release compile-release-clang deb-check

all: build

# Every package of scripts/install-deps.sh (build, test, docs, packaging).
deps:
	@bash scripts/install-deps.sh

# (Tests ON said outright: a build directory `make demo` configured without them gets them.)
build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_GEN) $(TESTED_CONFIG) -DCALLTREE_TESTS=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The main job on a bundled example, with only what the tool needs: the build group of
# install-deps.sh, the `calltree` binary with its embedded front end (no test, library or man
# page target), then check and annotate. `make test` afterwards reuses its objects.
demo:
	@bash scripts/install-deps.sh build
	@cmake -S . -B $(BUILD) $(CMAKE_GEN) $(TESTED_CONFIG) -DCALLTREE_TESTS=OFF -DCALLTREE_WEB=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target calltree_cli
	./$(BUILD)/calltree check examples/recurse.callgrind
	./$(BUILD)/calltree annotate --auto=no --inclusive=yes examples/recurse.callgrind
	@echo
	@echo "In a browser: ./$(BUILD)/calltree serve examples/recurse.callgrind   # prints a URL: open it"
	@echo "(from another machine: ssh -L PORT:127.0.0.1:PORT to this one, PORT as in the URL)"

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The library alone (-DCALLTREE_TOOL=OFF, in $(BUILD_LIBRARY)/): no node, npm, front end, server,
# cpp-httplib or RE2; installed into a temporary prefix and used from there as a user would
# (tests/library_only.sh: the umbrella header, C++17's message, pkg-config with calltree.pc
# alone, library.md's first program, the installed examples).
test-library:
	@bash scripts/install-deps.sh build
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) bash tests/library_only.sh $(CURDIR) $(BUILD_LIBRARY) $(CURDIR)/tests/corpus/vg-recurse-default.callgrind $(CMAKE_GEN) $(TESTED_CONFIG)

# Every command's output on every corpus and test file, byte for byte, against a build of the
# reference commit named in tests/same_outputs/BASE (built in build-same-outputs/, the calltree
# binary only): tests/same_outputs/run.sh says what is run and how BASE moves.
same-outputs: build
	bash tests/same_outputs/run.sh "$$(cat tests/same_outputs/BASE)" $(BUILD)/calltree tests/corpus

# The fastest build (docs/performance.md, "The profile-guided build"): Release, profile-guided,
# with GCC. An instrumented calltree is trained on the bundled and corpus profiles
# (scripts/pgo-train.sh), then everything (the tool, libcalltree, the Python module) is built in
# $(BUILD_RELEASE) from its profiles, warnings as errors: the one deb-check packages. The same
# sources and options otherwise. RELEASE_PGO=no: the same Release build with GCC without the
# profiles, as users and distributions build it with cmake alone (CI's: .ci/run says why).
RELEASE_PGO ?= yes
release: deps
ifeq ($(RELEASE_PGO),no)
	@cmake -S . -B $(BUILD_RELEASE) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ -DCALLTREE_TESTS=OFF -DCALLTREE_PGO= -DCALLTREE_PGO_DIR= >/dev/null
else
	@cmake -S . -B $(BUILD_PGO) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ -DCALLTREE_TESTS=OFF -DCALLTREE_PGO=generate -DCALLTREE_PGO_DIR=$(abspath $(BUILD_PGO))/profiles >/dev/null
	@cmake --build $(BUILD_PGO) -j $(JOBS) --target calltree_cli
	rm -rf $(BUILD_PGO)/profiles
	bash scripts/pgo-train.sh $(BUILD_PGO)/calltree
	@cmake -S . -B $(BUILD_RELEASE) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ -DCALLTREE_TESTS=OFF -DCALLTREE_PGO=use -DCALLTREE_PGO_DIR=$(abspath $(BUILD_PGO))/profiles >/dev/null
endif
	@cmake --build $(BUILD_RELEASE) -j $(JOBS)

# The release build gives what the tested build gives, byte for byte (RELEASE_PGO as above).
test-release: build release
	bash tests/release/same_build.sh $(BUILD)/calltree $(BUILD_RELEASE)/calltree tests/corpus

# One clang build serves the sanitized tests and the fuzz targets: ASan + UBSan at -O2 -g (as
# libFuzzer's targets want it), with libFuzzer's coverage hooks compiled in (the tests do not
# notice them). CI compiles it once, not twice.
SANITIZE_CONFIG = $(CMAKE_GEN) $(LINE_TABLES) -DCMAKE_CXX_COMPILER=clang++ -DCALLTREE_SANITIZE=ON -DCALLTREE_FUZZ=ON

test-sanitize: deps
	@cmake -S . -B $(BUILD_ASAN) $(SANITIZE_CONFIG) >/dev/null
	@cmake --build $(BUILD_ASAN) -j $(JOBS)
	# KCachegrind loading the outputs is checked by `make test`; the viewer is not ours to sanitize.
	# cli.out_of_memory limits the address space, which ASan reserves terabytes of (and
	# cli.out_of_memory_on_threads preloads a malloc, which would replace the sanitizers'; cli.input_changed
	# preloads a read(), which theirs would come before); cli.huge_pages
	# checks calltree's operator new, which the sanitizers replace with theirs.
	# The browser test drives the same server code serve_api_test and serve.http sanitize here,
	# through Chromium; the consumer project and Doxygen build other code than ours; repo.* read
	# the sources, docs.* run the docs' examples and recipes (the unsanitized run has them) and
	# bench.parse_floor is the benchmarks' floor, not calltree. The suites that run one command on
	# every corpus file again with other options (export.* with each consumer, examples,
	# cli.annotate_no_positions, cli.diff_corpus) run code that the unit tests run here on every
	# file (export_test, AnnotateRoundTrip, ViewSums, diff_test), and are left to make test; so
	# are the command-line suites whose library code a unit test runs here on the same files:
	# cli.convert (RoundTrip, AnnotateRoundTrip), cli.threads (ReaderParallel, ChunkThreads,
	# PprofThreads; and TSan's run), cli.annotate_golden (golden_test), cli.diff_golden
	# (diff_test), cli.merge_associative and cli.merge_annotate (merge_test), cli.trend
	# (history_test: runs, change points, the trend report). The command's own code (flags,
	# outputs, exit status, pipes, signals) is sanitized by the other cli.* and serve.* suites.
	# The list of
	# libcalltree.so's exports (abi.public_symbols) is the GCC build's: a sanitized one has others.
	# install.library_user builds the examples against the installed package and
	# cli.flag_table_misuse_* check the compiler's errors: no code of ours runs in them.
	# The tests that read every corpus profile read those up to 1 MB (CALLTREE_TEST_MAX_BYTES,
	# tests/unit/profile_files.h): every dialect, part and compression, inputs of many chunks; not
	# the six largest (1.1-24 MB), which took most of the time (CI ran out of its 90 minutes with
	# them). `make test` reads them all.
	cd $(BUILD_ASAN) && CALLTREE_TEST_MAX_BYTES=1000000 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS) -E 'kcachegrind|out_of_memory|input_changed|huge_pages|web\.browser|install\.consumer|docs\.|repo\.|bench\.|export\.|examples|cli\.(annotate_no_positions|diff_corpus|convert|threads|annotate_golden|diff_golden|merge_associative|merge_annotate|trend)$$|abi\.public_symbols|install\.library_user|cli\.flag_table_misuse|/(gxx_big_cc1plus|gxx_small_cc1plus|python_jumps|xdebug_includes|xdebug_classes|xdebug_closures)$$'

# The hand-offs between threads under ThreadSanitizer: the tests that read, decode and look up
# names on several threads (the parallel reader and its chunk feeds, a compressed input decoded
# ahead on a thread of its own, annotate's names read ahead, export's chunks and gzip members).
# The library and these tests only: what the command adds to them on its threads, --threads
# giving the same bytes, cli.threads checks in `make test` (compiling the command and running
# it on every corpus file under TSan took 10 of CI's minutes). Without address randomization
# (setarch -R): TSan's fixed memory layout can clash with the kernel's. The profiles up to 1 MB,
# as in test-sanitize (inputs of up to seven chunks).
THREAD_TESTS := reader_parallel_test chunk_feed_test reader_paths_test annotate_spill_test export_test model_json_stream_test
test-threads: deps
	@cmake -S . -B $(BUILD_TSAN) $(CMAKE_GEN) $(LINE_TABLES) -DCMAKE_CXX_COMPILER=clang++ -DCALLTREE_TSAN=ON >/dev/null
	@cmake --build $(BUILD_TSAN) -j $(JOBS) --target $(THREAD_TESTS)
	cd $(BUILD_TSAN) && CALLTREE_TEST_MAX_BYTES=1000000 TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" setarch $$(uname -m) -R ctest --output-on-failure -j $(JOBS) -R '^(ReaderParallel|ChunkFeed|ReaderPaths|annotate_spill|GzipStream|PprofThreads|ChunkThreads|OrderedChunks|ModelJsonStream)'

# Short libFuzzer runs of every target (FUZZ_SECONDS each), seeded from the corpus.
FUZZ_SECONDS ?= 30
fuzz: deps
	@cmake -S . -B $(BUILD_FUZZ) $(SANITIZE_CONFIG) >/dev/null
	@cmake --build $(BUILD_FUZZ) -j $(JOBS)
	bash tests/fuzz/run.sh $(BUILD_FUZZ) $(FUZZ_SECONDS)

bench: deps
	@cmake -S . -B $(BUILD) $(CMAKE_GEN) $(TESTED_CONFIG) -DCALLTREE_BENCH=ON >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)
	bash bench/compare.sh $(BUILD)/calltree

# The API reference of include/ (Doxygen; a warning fails), in $(BUILD)/api/html.
docs: build
	@cmake --build $(BUILD) --target calltree_api_docs

# Release, the build type of users and distributions, with both compilers: compiled (warnings
# as errors), not tested. (CI compiles Release with GCC in `make release RELEASE_PGO=no`.)
compile-release: deps
	@cmake -S . -B $(BUILD_GCC_RELEASE) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ -DCALLTREE_TESTS=OFF >/dev/null
	@cmake --build $(BUILD_GCC_RELEASE) -j $(JOBS)

# The same with Clang. Not in CI: Clang's warnings come from its front end and do not depend on
# -O, and test-sanitize compiles every source with Clang, -DNDEBUG and warnings as errors.
compile-release-clang: deps
	@cmake -S . -B $(BUILD_CLANG_RELEASE) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ -DCALLTREE_TESTS=OFF >/dev/null
	@cmake --build $(BUILD_CLANG_RELEASE) -j $(JOBS)

# The Debian packages of the Release build (calltree, and python3-calltree with the Python
# package; `make release`'s build, GCC, profile-guided unless RELEASE_PGO=no), installed with
# apt-get (their dependencies resolved by apt), used (--version, check, the consumer project,
# import calltree), then purged. As root.
# DEB_BUILD=build packages the tested build instead (Release too, with line tables: CI's).
DEB_BUILD ?= $(BUILD_RELEASE)
deb-check: deps
	@[ -f $(DEB_BUILD)/build.ninja ] || $(MAKE) release
	@cmake --build $(DEB_BUILD) -j $(JOBS)
	bash scripts/deb-check.sh $(DEB_BUILD) tests/corpus

format:
	clang-format -i $$(git ls-files '*.h' '*.cc')

check-format:
	clang-format --dry-run -Werror $$(git ls-files '*.h' '*.cc')

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ) $(BUILD_TSAN) $(BUILD_PGO) $(BUILD_RELEASE) $(BUILD_GCC_RELEASE) $(BUILD_CLANG_RELEASE)
