#!/usr/bin/env bash
# Regenerates calltree's Callgrind-format corpus (tests/corpus) on a Debian 12 (bookworm) amd64 machine.
#
# Usage:  sudo ./generate.sh            # installs packages, builds, profiles, writes the corpus
#         SKIP_APT=1 ./generate.sh      # if the packages are already installed
#
# All programs are built and run inside a fixed build directory ($BUILD, default
# /tmp/cgcorpus) so that the paths embedded in the profiles (ob=, fl=, cmd:) are the
# same on every machine.  Results are copied next to this script (or to $OUT).
# Profiles are not byte-for-byte reproducible (pids, timings, ASLR, the set of
# installed packages for `ls -R /usr/share/doc`), but structure and producers are.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE}
BUILD=${BUILD:-/tmp/cgcorpus}

case "$OUT/" in "$BUILD"/*) echo "OUT must not be inside BUILD" >&2; exit 1 ;; esac

PKGS="valgrind gcc g++ make perl sqlite3 gzip python3 php-cli php-xdebug pyprof2calltree
      python3-pprofile libdevel-nytprof-perl libdevel-dprof-perl kcachegrind-converters
      ruby ruby-prof google-perftools libgoogle-perftools-dev golang-go"
if [ "${SKIP_APT:-0}" != 1 ]; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $PKGS
fi

export LC_ALL=C.UTF-8 TZ=UTC
PY=/usr/bin/python3            # Debian's interpreter, not a pyenv/venv one
rm -rf "$BUILD"
mkdir -p "$BUILD"/{bin,out,logs,data,tmp}
cp -r "$HERE/src" "$BUILD/src"
cd "$BUILD"
: > commands.log

log() { printf '%s\n' "$*" | tee -a commands.log; }

# vg NAME [valgrind options...] -- program [args...]
# Runs callgrind with --callgrind-out-file=out/NAME.callgrind (program stdout -> logs/).
vg() {
    local name=$1; shift
    local opts=()
    while [ "$1" != "--" ]; do opts+=("$1"); shift; done
    shift
    local q; q=$(printf ' %q' "${opts[@]}" --callgrind-out-file="out/$name.callgrind" "$@")
    log "[$name] valgrind --tool=callgrind$q"
    valgrind --tool=callgrind "${opts[@]}" --callgrind-out-file="out/$name.callgrind" "$@" \
        > "logs/$name.stdout" 2> "logs/$name.valgrind.log"
}

# ---------------------------------------------------------------- inputs & builds
cat /usr/share/common-licenses/* > data/licenses.txt
tr -cs 'A-Za-z' '\n' < data/licenses.txt > data/words.txt
CFLAGS_DBG="-g -O1 -fno-inline -fno-optimize-sibling-calls -fdebug-prefix-map=$BUILD=."
log "[build] gcc $CFLAGS_DBG -o bin/recurse src/c/recurse.c"
gcc $CFLAGS_DBG -o bin/recurse src/c/recurse.c
log "[build] gcc $CFLAGS_DBG -pthread -o bin/threads src/c/threads.c"
gcc $CFLAGS_DBG -pthread -o bin/threads src/c/threads.c
log "[build] gcc $CFLAGS_DBG -o bin/phases src/c/phases.c"
gcc $CFLAGS_DBG -o bin/phases src/c/phases.c
log "[build] gcc $CFLAGS_DBG -o bin/clientreq src/c/clientreq.c"
gcc $CFLAGS_DBG -o bin/clientreq src/c/clientreq.c
log "[build] g++ -O2 -g -fdebug-prefix-map=$BUILD=. -o bin/wordfreq src/cpp/wordfreq.cpp"
g++ -O2 -g -fdebug-prefix-map=$BUILD=. -o bin/wordfreq src/cpp/wordfreq.cpp

# ---------------------------------------------------------------- valgrind / callgrind
# 1. g++ -O2 -c of a small C++ file, default options; one file per process
#    (g++ driver, cc1plus, as) because of --trace-children=yes.
log "[vg-gxx-small-default] valgrind --tool=callgrind --trace-children=yes --callgrind-out-file=out/vg-gxx-small-default.%p.callgrind g++ -O2 -c src/cpp/small.cpp -o tmp/small.o"
valgrind --tool=callgrind --trace-children=yes --callgrind-out-file=out/vg-gxx-small-default.%p.callgrind \
    g++ -O2 -c src/cpp/small.cpp -o tmp/small.o 2> logs/vg-gxx-small-default.valgrind.log
for f in out/vg-gxx-small-default.[0-9]*.callgrind; do
    prog=$(sed -n 's/^cmd: *\([^ ]*\).*/\1/p' "$f" | head -1); prog=${prog##*/}
    mv "$f" "out/vg-gxx-small-default.$prog.callgrind"
done

# 2. Python interpreter, instruction-level positions and jump edges.
vg vg-python-work-instr-jumps --dump-instr=yes --collect-jumps=yes -- $PY src/py/work.py 1

# 3. sqlite3, cache and branch simulation (13 event types).
vg vg-sqlite3-workload-cache-branch-sim --cache-sim=yes --branch-sim=yes -- sqlite3 :memory: ".read src/sql/workload.sql"

# 4. ls -R, no name compression and no position compression.
vg vg-ls-R-nocompress --compress-strings=no --compress-pos=no -- ls -R /usr/share/doc

# 5. pthreads: one file per thread, then the same with all threads in one file (5 parts).
vg vg-threads-separate --separate-threads=yes -- bin/threads
for f in out/vg-threads-separate.callgrind-*; do mv "$f" "out/vg-threads-separate.t${f##*-}.callgrind"; done
rm -f out/vg-threads-separate.callgrind   # callgrind leaves an empty base file
vg vg-threads-separate-combined --separate-threads=yes --combine-dumps=yes -- bin/threads

# 6. gzip with periodic dumps, all parts concatenated in one file.
vg vg-gzip-dump-every-bb-combined --dump-every-bb=3000000 --combine-dumps=yes -- gzip -9 -c data/licenses.txt

# 7. perl with system call counts/times.
vg vg-perl-work-systime --collect-systime=yes -- perl src/perl/work.pl 1

# 8. --dump-line=no: once with instruction addresses only, once with nothing (all lines 0).
vg vg-sort-instr-noline --dump-instr=yes --dump-line=no -- sort data/words.txt
vg vg-recurse-noline --dump-line=no -- bin/recurse 1

# 9. collection toggled on/off by entering/leaving a function.
vg vg-phases-toggle-collect --toggle-collect=phase_compute -- bin/phases

# 10. recursion and call cycles, default options.
vg vg-recurse-default -- bin/recurse 1

# 11. recursion levels and caller chains separated into contexts (names with ' and ').
vg vg-recurse-separate-recs-callers --separate-recs=10 --separate-callers=2 -- bin/recurse 1

# 12. dumps triggered by entering a function, zeroing at another, all in one file.
vg vg-phases-dump-before-zero-combined --dump-before=phase_compute --zero-before=phase_setup --combine-dumps=yes -- bin/phases

# 13. global bus events (atomic instructions) in a threaded program.
vg vg-threads-collect-bus --collect-bus=yes -- bin/threads

# 14. cache simulation with cache-use metrics, write-backs and prefetch.
vg vg-recurse-cacheuse --cache-sim=yes --cacheuse=yes --simulate-wb=yes --simulate-hwpref=yes -- bin/recurse 1

# 15. instructions + jumps without position compression (absolute addresses everywhere).
vg vg-phases-instr-jumps-nocompress-pos --dump-instr=yes --collect-jumps=yes --compress-pos=no -- bin/phases

# 16. optimized C++ program with debug info: long demangled template names, many fi=/fe= lines.
vg vg-wordfreq-cxx-O2g-default -- bin/wordfreq data/licenses.txt

# 16b. client requests (start/stop instrumentation, labelled dumps, zero, toggle), one file.
#      Note: the last part's summary: line is a wrapped-around unsigned 64-bit value (callgrind bug).
vg vg-clientreq-instr-atstart-no-combined --instr-atstart=no --combine-dumps=yes -- bin/clientreq

# 17. mid-size file (~24 MB, stored gzipped; also the mid-size benchmark file): the cc1plus
#     process of g++ -O2 -std=c++17 -c src/cpp/big.cpp with instructions and jumps.
log "[vg-gxx-big-instr-jumps] valgrind --tool=callgrind --trace-children=yes --dump-instr=yes --collect-jumps=yes --callgrind-out-file=out/vg-gxx-big-instr-jumps.%p.callgrind g++ -O2 -std=c++17 -c src/cpp/big.cpp -o tmp/big.o"
valgrind --tool=callgrind --trace-children=yes --dump-instr=yes --collect-jumps=yes \
    --callgrind-out-file=out/vg-gxx-big-instr-jumps.%p.callgrind \
    g++ -O2 -std=c++17 -c src/cpp/big.cpp -o tmp/big.o 2> logs/vg-gxx-big-instr-jumps.valgrind.log
for f in out/vg-gxx-big-instr-jumps.[0-9]*.callgrind; do
    if grep -q '^cmd: .*cc1plus' "$f"; then mv "$f" out/vg-gxx-big-instr-jumps.cc1plus.callgrind; else rm -f "$f"; fi
done
gzip -9 -n out/vg-gxx-big-instr-jumps.cc1plus.callgrind

# 18. Cachegrind's format (the older sibling format; no calls, no name compression).
log "[cachegrind-recurse] valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file=out/cachegrind-recurse.cachegrind bin/recurse 1"
valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file=out/cachegrind-recurse.cachegrind \
    bin/recurse 1 > logs/cachegrind-recurse.stdout 2> logs/cachegrind-recurse.valgrind.log

# ---------------------------------------------------------------- Xdebug (PHP)
for s in recursion classes closures includes; do
    rm -rf tmp/xdebug && mkdir -p tmp/xdebug
    log "[xdebug-$s] php -d xdebug.mode=profile -d xdebug.start_with_request=yes -d xdebug.use_compression=0 -d xdebug.output_dir=tmp/xdebug -d xdebug.profiler_output_name=cachegrind.out.%p src/php/$s.php"
    php -d xdebug.mode=profile -d xdebug.start_with_request=yes -d xdebug.use_compression=0 \
        -d xdebug.output_dir=tmp/xdebug -d xdebug.profiler_output_name=cachegrind.out.%p \
        "src/php/$s.php" > "logs/xdebug-$s.stdout"
    mv tmp/xdebug/cachegrind.out.* "out/xdebug-$s.callgrind"
done

# ---------------------------------------------------------------- Python cProfile -> pyprof2calltree
log "[pyprof2calltree-work] $PY -m cProfile -o tmp/work.pstats src/py/work.py 2 && pyprof2calltree -i tmp/work.pstats -o out/pyprof2calltree-work.callgrind"
$PY -m cProfile -o tmp/work.pstats src/py/work.py 2 > logs/pyprof2calltree-work.stdout
pyprof2calltree -i tmp/work.pstats -o out/pyprof2calltree-work.callgrind > /dev/null

# ---------------------------------------------------------------- pprofile (line-level Python profiler)
log "[pprofile-work-deterministic] pprofile3 --format callgrind --out out/pprofile-work-deterministic.callgrind src/py/work.py 1"
pprofile3 --format callgrind --out out/pprofile-work-deterministic.callgrind src/py/work.py 1 > logs/pprofile-work-deterministic.stdout
log "[pprofile-work-statistic] pprofile3 --format callgrind --statistic 0.0005 --out out/pprofile-work-statistic.callgrind src/py/work.py 15"
pprofile3 --format callgrind --statistic 0.0005 --out out/pprofile-work-statistic.callgrind src/py/work.py 15 > logs/pprofile-work-statistic.stdout

# ---------------------------------------------------------------- Perl: NYTProf -> nytprofcg, DProf -> dprof2calltree
log "[nytprofcg-work] NYTPROF=file=tmp/nytprof.out perl -d:NYTProf src/perl/work.pl 2 && nytprofcg --file tmp/nytprof.out --out out/nytprofcg-work.callgrind"
NYTPROF=file=tmp/nytprof.out perl -d:NYTProf src/perl/work.pl 2 > logs/nytprofcg-work.stdout
nytprofcg --file tmp/nytprof.out --out out/nytprofcg-work.callgrind > /dev/null
log "[dprof2calltree-work] (cd tmp && perl -d:DProf ../src/perl/work.pl 4) && dprof2calltree -f tmp/tmon.out -o out/dprof2calltree-work.callgrind"
(cd tmp && perl -d:DProf ../src/perl/work.pl 4 > ../logs/dprof2calltree-work.stdout 2>/dev/null)
dprof2calltree -f tmp/tmon.out -o out/dprof2calltree-work.callgrind > /dev/null

# ---------------------------------------------------------------- Ruby: ruby-prof call_tree printer
rm -rf tmp/rubyprof && mkdir -p tmp/rubyprof
log "[ruby-prof-work] ruby-prof --printer=call_tree --file=tmp/rubyprof src/ruby/work.rb"
ruby-prof --printer=call_tree --file=tmp/rubyprof src/ruby/work.rb > logs/ruby-prof-work.stdout
mv tmp/rubyprof/callgrind.out.* out/ruby-prof-work.callgrind

# ---------------------------------------------------------------- gperftools (CPU and heap profilers) -> google-pprof --callgrind
GP_LIB=/usr/lib/x86_64-linux-gnu
log "[gperftools-recurse-cpu] CPUPROFILE=tmp/recurse.prof CPUPROFILE_FREQUENCY=1000 LD_PRELOAD=$GP_LIB/libprofiler.so.0 bin/recurse 30 && google-pprof --callgrind bin/recurse tmp/recurse.prof > out/gperftools-recurse-cpu.callgrind"
CPUPROFILE=tmp/recurse.prof CPUPROFILE_FREQUENCY=1000 LD_PRELOAD=$GP_LIB/libprofiler.so.0 \
    bin/recurse 30 > logs/gperftools-recurse-cpu.stdout 2>&1
google-pprof --callgrind bin/recurse tmp/recurse.prof > out/gperftools-recurse-cpu.callgrind 2> logs/gperftools-recurse-cpu.pprof.log
log "[gperftools-phases-cpu] CPUPROFILE=tmp/phases.prof CPUPROFILE_FREQUENCY=1000 LD_PRELOAD=$GP_LIB/libprofiler.so.0 bin/phases 3000000 && google-pprof --callgrind bin/phases tmp/phases.prof > out/gperftools-phases-cpu.callgrind"
CPUPROFILE=tmp/phases.prof CPUPROFILE_FREQUENCY=1000 LD_PRELOAD=$GP_LIB/libprofiler.so.0 \
    bin/phases 3000000 > logs/gperftools-phases-cpu.stdout 2>&1
google-pprof --callgrind bin/phases tmp/phases.prof > out/gperftools-phases-cpu.callgrind 2> logs/gperftools-phases-cpu.pprof.log
log "[gperftools-python-heap-alloc-space] HEAPPROFILE=tmp/pyheap HEAP_PROFILE_ALLOCATION_INTERVAL=1000000 LD_PRELOAD=$GP_LIB/libtcmalloc.so.4 $PY src/py/work.py 2 && google-pprof --callgrind --alloc_space $PY \$(ls tmp/pyheap.*.heap | tail -1) > out/gperftools-python-heap-alloc-space.callgrind"
HEAPPROFILE=tmp/pyheap HEAP_PROFILE_ALLOCATION_INTERVAL=1000000 LD_PRELOAD=$GP_LIB/libtcmalloc.so.4 \
    $PY src/py/work.py 2 > logs/gperftools-python-heap-alloc-space.stdout 2>&1
google-pprof --callgrind --alloc_space $PY "$(ls tmp/pyheap.*.heap | tail -1)" \
    > out/gperftools-python-heap-alloc-space.callgrind 2> logs/gperftools-python-heap-alloc-space.pprof.log

# ---------------------------------------------------------------- Go runtime/pprof -> go tool pprof -callgrind
export GOCACHE=$BUILD/tmp/gocache GOPATH=$BUILD/tmp/gopath GOFLAGS=-mod=mod GO111MODULE=on GOPROXY=off
log "[go-pprof-gowork-cpu] (cd src/go && go build -trimpath -o ../../bin/gowork .) && bin/gowork -cpuprofile tmp/gowork.pprof -scale 6 && go tool pprof -callgrind -output=out/go-pprof-gowork-cpu.callgrind bin/gowork tmp/gowork.pprof"
(cd src/go && go build -trimpath -o ../../bin/gowork .)
bin/gowork -cpuprofile tmp/gowork.pprof -scale 6 > logs/go-pprof-gowork-cpu.stdout
go tool pprof -callgrind -output=out/go-pprof-gowork-cpu.callgrind bin/gowork tmp/gowork.pprof 2> logs/go-pprof-gowork-cpu.pprof.log

# ---------------------------------------------------------------- copy out + reference outputs
cd out
for f in *; do cp "$f" "$OUT/$f"; done
cd "$OUT"
# Reference outputs of callgrind_annotate (default, and --inclusive=yes), both with --auto=no.
# PERL_HASH_SEED=0 makes Perl's hash order (tie order in some listings) repeatable.
export PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0
tmpd=$(mktemp -d)
for f in $(ls "$BUILD/out"); do
    case "$f" in
        *.gz) base=${f%.gz}; gunzip -c "$f" > "$tmpd/$base"; src=$tmpd; ;;
        *) base=$f; src=$OUT ;;
    esac
    ( cd "$src" && callgrind_annotate --auto=no "$base" > "$OUT/$base.annotate.txt" 2> "$tmpd/warn1" ) || echo "callgrind_annotate failed on $f" | tee -a "$BUILD/annotate-failures.log"
    ( cd "$src" && callgrind_annotate --auto=no --inclusive=yes "$base" > "$OUT/$base.annotate-inclusive.txt" 2> "$tmpd/warn2" ) || echo "callgrind_annotate --inclusive=yes failed on $f" | tee -a "$BUILD/annotate-failures.log"
    if [ -s "$tmpd/warn1" ]; then cp "$tmpd/warn1" "$OUT/$base.annotate.stderr.txt"; else rm -f "$OUT/$base.annotate.stderr.txt"; fi
    rm -f "$tmpd/$base"
done
rm -rf "$tmpd"
echo "done: corpus in $OUT, build tree and commands.log in $BUILD"
