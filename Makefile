# memstat: libmemstat (lib/), the tool layer (tool/) and the tools named in
# tools.list.  Every target first makes sure the Debian packages it needs
# are installed (scripts/ensure-deps checks before it installs).

VERSION	 = 0.1.0
PREFIX	?= /usr/local
LIBDIR	?= $(PREFIX)/lib
DESTDIR	?=
CC	?= cc
CFLAGS	?= -O2 -g
AR	?= ar

# Evaluated when a recipe runs, i.e. after ensure-deps has installed libbsd.
BSD_CFLAGS = $(shell pkg-config --cflags libbsd-overlay)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka)
JSON_CFLAGS = $(shell pkg-config --cflags json-c)
# libbsd (with libmd) and json-c are linked in whole too: each shared
# library a tool loads cost it a tenth of the live report (its mapping
# and relocations, a page fault each at 15 us under this hypervisor).
BSD_LIBS   = -Wl,-Bstatic $(shell pkg-config --static --libs libbsd-overlay) \
	     -Wl,-Bdynamic
JSON_LIBS  = -Wl,-Bstatic $(shell pkg-config --libs json-c) -Wl,-Bdynamic
# Core images: libkdumpfile reads dumps (loaded on first use: see
# lib/kvm/dump/kvm_kdumpfile.h), libbpf parses their BTF (linked in whole, for the
# same reason: a report that reads no dump should not load it); libdeflate
# inflates a kdump-compressed dump's pages, a large read by every CPU
# (lib/kvm/dump/kvm_diskdump_phys.h);
# liblzma, libzstd and zlib decompress a vmlinuz named by -N.
KVM_CFLAGS = $(shell pkg-config --cflags libkdumpfile libbpf)
# Debian 13's libelf.a calls elfutils' libeu, which it does not ship: a
# program that needs it cannot be linked with it.  Where it cannot,
# libelf is linked shared.
ELF_STATIC := $(shell printf 'char elf_begin(); int main(void) { return elf_begin(); }' | \
	$(CC) -x c -w -o /dev/null - -Wl,-Bstatic -lelf -lz -lzstd -Wl,-Bdynamic \
	2> /dev/null && echo yes)
ifeq ($(ELF_STATIC),yes)
KVM_LIBS   = -Wl,-Bstatic -lbpf -lelf -ldeflate -lz -llzma -lzstd -Wl,-Bdynamic -ldl -lpthread
else
KVM_LIBS   = -Wl,-Bstatic -lbpf -ldeflate -lz -llzma -lzstd -Wl,-Bdynamic -lelf -ldl -lpthread
endif
# A distribution's package links them all shared (Debian's policy allows
# no copies of a library inside a program): STATIC_KVM=0.
ifeq ($(STATIC_KVM),0)
KVM_LIBS   = -lbpf -lelf -ldeflate -lz -llzma -lzstd -ldl -lpthread
BSD_LIBS   = $(shell pkg-config --libs libbsd-overlay)
JSON_LIBS  = $(shell pkg-config --libs json-c)
endif
# The time half (kmemtrace): tracefs, the ring buffer's pages and formats,
# trace.dat.  Only kmemtrace links them.
TRACE_CFLAGS = $(shell pkg-config --cflags libtracefs libtraceevent libtracecmd)
TRACE_LIBS   = $(shell pkg-config --libs libtracecmd libtracefs libtraceevent) \
	       -lpthread
kmemtrace_CFLAGS = $(TRACE_CFLAGS)
kmemtrace_LIBS   = $(TRACE_LIBS)

# Warnings are errors in the project's own checks (make check, .ci/run:
# WERROR=-Werror), never in a user's or a package's build, where a
# compiler or an architecture the tests never saw must not stop it.
WERROR	?=
WARN	 = -std=c11 -Wall -Wextra $(WERROR) -D_DEFAULT_SOURCE
# Every compile keeps what the compiler said (.warnings/TARGET): make
# check fails on any, on the objects already built (make run's among them).
CC_KEPT	 = sh scripts/cc-kept $@
# The library needs libbsd and the core-image parts; the tool layer and the
# tools json-c, and of the library only its public header.
LIB_CFLAGS  = $(WARN) $(CPPFLAGS) $(CFLAGS) $(BSD_CFLAGS) $(KVM_CFLAGS) -Ilib
TOOL_CFLAGS = $(WARN) $(CPPFLAGS) $(CFLAGS) $(BSD_CFLAGS) $(JSON_CFLAGS) -Ilib -Itool \
	      -DMEMSTAT_VERSION='"$(VERSION)"'
# Tests, benchmarks and fuzz targets reach into both.
ALL_CFLAGS = $(WARN) $(CPPFLAGS) $(CFLAGS) $(BSD_CFLAGS) $(JSON_CFLAGS) $(KVM_CFLAGS) \
	     $(TRACE_CFLAGS) -Ilib -Itool

ifeq ($(SANITIZE),1)
# Undefined behaviour stops the test that met it, not just a line of output.
CFLAGS	+= -fsanitize=address,undefined -fno-sanitize-recover=all \
	   -fno-omit-frame-pointer
LDFLAGS	+= -fsanitize=address,undefined -fno-sanitize-recover=all
endif

# libmemstat: lib/, one folder per source below the model (see doc/layout.md).
LIB	 = lib/libmemstat.a
LIB_SRCS = $(sort $(wildcard lib/*.c lib/*/*.c lib/*/*/*.c))
LIB_OBJS = $(LIB_SRCS:.c=.o)
LIB_HDRS = $(wildcard lib/*.h lib/*/*.h lib/*/*/*.h)

# What the tools share; not installed.
TOOL_LIB  = tool/libmemstat_tool.a
TOOL_SRCS = $(sort $(wildcard tool/*.c))
TOOL_OBJS = $(TOOL_SRCS:.c=.o)
TOOL_HDRS = lib/memstat.h $(wildcard tool/*.h)

# The tools: one list, read here, by the golden runner and the fuzz
# harness.  A tool is its folder: every .c there and in its rooms (the
# folders inside it, whose headers are included by the room's name).
TOOL_NAMES := $(shell sed -e 's/\#.*//' tools.list)
TOOLS	   = $(foreach t,$(TOOL_NAMES),$(t)/$(t))
tool_srcs = $(wildcard $(1)/*.c $(1)/*/*.c)
tool_hdrs = $(wildcard $(1)/*.h $(1)/*/*.h)
TOOL_MAIN_OBJS = $(patsubst %.c,%.o,$(foreach t,$(TOOL_NAMES),\
		 $(call tool_srcs,$(t))))

STREAMTEXT = fixtures/tools/streamtext
KMEMTEXT   = fixtures/tools/kmemtext
KVCORE     = fixtures/tools/kvcore
KALLSYMS   = fixtures/tools/kallsyms
OWNERPATCH = fixtures/tools/ownerpatch
MTDUMP	   = tests/mtdump
ERRCODE	   = tests/errcode
MUTATE	   = tests/mutate
TRYALL	   = tests/tryall
CUTRACE	   = tests/cutrace
UNIT_TESTS = tests/test_list tests/test_access tests/test_stream_uma tests/test_linux \
	     tests/test_kvm tests/test_kvm_diskdump tests/test_probe \
	     tests/test_stream_malloc tests/test_malloc_zones tests/test_frag \
	     tests/test_kvm_live tests/test_kallsyms_find tests/test_objects \
	     tests/test_kvm_arch tests/test_kvm_bytes tests/test_kvm_qemu_notes \
	     tests/test_scratch
# Unit tests of the tool layer, and of kmemtrace's rooms.
TOOL_UNIT_TESTS = tests/test_tool_map tests/test_tool_textbuf
KT_UNIT_TESTS	= tests/test_kmem_halves
KT_ROOM_OBJS	= $(patsubst %.c,%.o,$(wildcard kmemtrace/recording/*.c \
		  kmemtrace/report/*.c))
BENCHES	   = bench/bench_stream bench/bench_live bench/bench_vmcore \
	     bench/bench_match
# bench_match: kmemtrace's recordings, decoded by its own room, replayed
# through its report's object map.
KT_MATCH_OBJS = $(patsubst %.c,%.o,$(wildcard kmemtrace/recording/*.c)) \
		kmemtrace/report/u64map.o kmemtrace/report/huge_alloc.o
TOOL_SUPPORT = tests/support/fixture.o tests/support/streambuild.o \
	       tests/support/mtprint.o tests/support/sigbus_probe.o \
	       tests/support/scratch.o
TEST_SUPPORT = $(TOOL_SUPPORT) tests/support/testlib.o

MAN3	= man/libmemstat.3
MAN8	= $(TOOL_NAMES:%=man/%.8) man/memstat-capture.8

# The fuzz targets: before the rules, which name their replay builds.
.DEFAULT_GOAL := all
include fuzz/fuzz.mk

# The architectures whose running kernel kcore-check-ARCH reads.
KCORE_ARCHES = arm64 s390x riscv64 ppc64el
.PHONY: FORCE all deps run check check-build check-run bench bench-dump bench-host bench-owners scale-matrix bench-arch soak kcore-check kernel-matrix kdump-matrix kdump-matrix-own kdump-matrix-arm64 kdump-matrix-ppc64el-own kdump-matrix-riscv64 arm64-matrix s390x-matrix riscv64-matrix ppc64el-matrix minbase-check minbase-check-arm64 minbase-check-s390x minbase-check-ppc64el minbase-check-riscv64 $(KCORE_ARCHES:%=kcore-check-%) kcore-check-owners fixtures fixtures-expect deb deb-check install clean \
	fuzz fuzz-deps fuzz-clean

all: $(LIB) $(TOOLS)

deps:
	@./scripts/ensure-deps

# What every object is compiled with: a change (WERROR, SANITIZE, CC,
# CFLAGS) rebuilds them all, so make check never links a plain build's
# objects.
.build-flags: FORCE
	@echo '$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS)' | cmp -s - $@ || \
	    echo '$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS)' > $@
FORCE:

# Everything else (tests, benchmarks, generators): the default rule.
%.o: %.c $(LIB_HDRS) .build-flags | deps
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) -c -o $@ $<

lib/%.o: lib/%.c $(LIB_HDRS) .build-flags | deps
	$(CC_KEPT) $(CC) $(LIB_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

tool/%.o: tool/%.c $(TOOL_HDRS) .build-flags | deps
	$(CC_KEPT) $(CC) $(TOOL_CFLAGS) -c -o $@ $<

$(TOOL_LIB): $(TOOL_OBJS)
	rm -f $@
	$(AR) rcs $@ $(TOOL_OBJS)

# One tool: its folder's objects, the tool layer, the library.
define TOOL_RULES
$(1)/%.o: $(1)/%.c $$(TOOL_HDRS) $$(call tool_hdrs,$(1)) .build-flags | deps
	$$(CC_KEPT) $$(CC) $$(TOOL_CFLAGS) $$($(subst -,_,$(1))_CFLAGS) -I$(1) -c -o $$@ $$<
$(1)/$(1): $$(patsubst %.c,%.o,$$(call tool_srcs,$(1))) $$(TOOL_LIB) $$(LIB)
	$$(CC_KEPT) $$(CC) $$(TOOL_CFLAGS) -o $$@ $$(filter %.o,$$^) $$(TOOL_LIB) \
	    $$(LIB) $$(LDFLAGS) $$(BSD_LIBS) $$(JSON_LIBS) $$(KVM_LIBS) \
	    $$($(subst -,_,$(1))_LIBS)
endef
$(foreach t,$(TOOL_NAMES),$(eval $(call TOOL_RULES,$(t))))

$(TEST_SUPPORT): tests/support/fixture.h tests/support/streambuild.h \
		tests/support/mtprint.h tests/support/testlib.h \
		tests/support/sigbus_probe.h tests/support/scratch.h

$(STREAMTEXT): fixtures/tools/streamtext.c tests/support/fixture.o \
		tests/support/streambuild.o
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) -Itests/support -o $@ $< tests/support/fixture.o \
	    tests/support/streambuild.o \
	    $(LDFLAGS) $(BSD_LIBS)

$(KMEMTEXT): fixtures/tools/kmemtext.c kmemtrace/recording/page_check.c \
		kmemtrace/recording/page_check.h | deps
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) $(TRACE_CFLAGS) -Ikmemtrace/recording -o $@ $< \
	    kmemtrace/recording/page_check.c $(LDFLAGS) $(BSD_LIBS) $(TRACE_LIBS)

# Reaches into the library's core-image internals, as the fuzz targets do.
$(KVCORE) $(KALLSYMS) $(OWNERPATCH): %: %.c $(LIB)
	$(CC_KEPT) $(CC) $(LIB_CFLAGS) -o $@ $< $(LIB) $(LDFLAGS) $(BSD_LIBS) $(KVM_LIBS)

tests/kmemload: tests/kmemload.c .build-flags | deps
	$(CC_KEPT) $(CC) $(WARN) $(CFLAGS) -o $@ $< $(LDFLAGS)

$(MTDUMP) $(ERRCODE) $(MUTATE) $(TRYALL) $(CUTRACE): %: %.c $(TOOL_SUPPORT) $(LIB)
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) -Itests/support -o $@ $< $(TOOL_SUPPORT) \
	    $(LIB) $(LDFLAGS) $(BSD_LIBS) $(KVM_LIBS)

tests/test_%: tests/test_%.c $(TEST_SUPPORT) $(LIB)
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) -Itests/support -o $@ $< $(TEST_SUPPORT) $(LIB) \
	    $(LDFLAGS) $(CMOCKA_LIBS) $(BSD_LIBS) $(KVM_LIBS)

$(TOOL_UNIT_TESTS): tests/test_%: tests/test_%.c tests/support/sigbus_probe.o \
	    $(TOOL_LIB) $(LIB)
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) -Itests/support -o $@ $< \
	    tests/support/sigbus_probe.o $(TOOL_LIB) $(LIB) $(LDFLAGS) \
	    $(CMOCKA_LIBS) $(BSD_LIBS) $(JSON_LIBS) $(KVM_LIBS)

$(KT_UNIT_TESTS): tests/test_%: tests/test_%.c tests/support/scratch.o \
	    $(KT_ROOM_OBJS) $(TOOL_LIB) $(LIB)
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) -Ikmemtrace -Itests/support -o $@ $< \
	    tests/support/scratch.o $(KT_ROOM_OBJS) \
	    $(TOOL_LIB) $(LIB) $(LDFLAGS) $(CMOCKA_LIBS) $(BSD_LIBS) \
	    $(JSON_LIBS) $(KVM_LIBS) $(TRACE_LIBS)

bench/bench_match: bench/bench_match.c bench/timing.o $(KT_MATCH_OBJS) \
		$(TOOL_LIB) $(LIB)
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) -Ikmemtrace -o $@ $< bench/timing.o \
	    $(KT_MATCH_OBJS) $(TOOL_LIB) $(LIB) $(LDFLAGS) $(BSD_LIBS) \
	    $(JSON_LIBS) $(KVM_LIBS) $(TRACE_LIBS)

bench/bench_%: bench/bench_%.c bench/timing.o tests/support/streambuild.o $(LIB)
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) -Itests/support -o $@ $< bench/timing.o tests/support/streambuild.o \
	    $(LIB) $(LDFLAGS) $(BSD_LIBS) $(KVM_LIBS)

# The README's two commands build on every CPU (under qemu-user the build
# is minutes), unless make was given its own -j.
JOBS = $(if $(findstring j,$(filter-out --%,$(MAKEFLAGS))),,-j$$(nproc))

# This machine's zones: its slab caches (reading them takes root).
run:
	@$(MAKE) --no-print-directory $(JOBS) all
	@vmstat-z/vmstat-z

# What the tests need first (ensure-deps check), then what they run.
check:
	@./scripts/ensure-deps check
	@$(MAKE) --no-print-directory $(JOBS) check-build
	@$(MAKE) --no-print-directory check-run

check-build: all $(STREAMTEXT) $(KMEMTEXT) $(KVCORE) tests/kmemload $(MTDUMP) $(ERRCODE) $(MUTATE) $(TRYALL) $(CUTRACE) $(UNIT_TESTS) \
	$(TOOL_UNIT_TESTS) $(KT_UNIT_TESTS) $(FUZZ_REPLAYS) \
	fuzz/kvm_seed fuzz/diskdump_seed

check-run: check-build
	@w=$$(find .warnings -type f -size +0c 2> /dev/null | sort); if [ -n "$$w" ]; \
	    then cat $$w >&2; echo "make check: warnings are errors here:" \
	    $$w >&2; exit 1; fi
	@sh tests/run-tests

bench/runcmd: bench/runcmd.c bench/timing.o
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) -o $@ $< bench/timing.o $(LDFLAGS)

# The peers the benchmarks measure against: procps (vmstat -m, slabtop),
# linux-perf (perf kmem, perf stat).
bench: all $(BENCHES) bench/runcmd tests/kmemload
	@./scripts/ensure-deps procps linux-perf
	@sh bench/run-bench

# The core-image benchmark on a full-size dump: boots a QEMU guest (it says
# what it installs and downloads first) and removes everything after.
bench-dump: all bench/bench_vmcore bench/runcmd tests/kmemload
	@sh bench/bench-dump

# The reports at a container host's size: a guest of 32 CPUs, 4 NUMA
# nodes, 16 GiB and 100 cgroups holding 4 million slab objects, dumped
# (it says what it boots and writes first); each report's time and peak
# RSS on its dumps, held to the guest's own files.
bench-host: all bench/runcmd tests/kmemload
	@./scripts/ensure-deps makedumpfile
	@sh bench/bench-host

# Slab owners at a server's size: a guest of 32 CPUs, 4 NUMA nodes and
# 16 GiB booted with slub_debug=U, holding over 9 million owned objects,
# dumped (it says what it boots and writes first); kmemtrace report
# --outstanding -M's time and peak RSS by each grouping, each held to the
# guest's own slabinfo.
bench-owners: all bench/runcmd tests/kmemload
	@./scripts/ensure-deps makedumpfile jq
	@sh bench/bench-owners

# Every report at the size of users' servers: guests of 32 CPUs, 4 NUMA
# nodes and 16 GiB holding millions of slab objects (x86-64 and arm64,
# 6.12 and 7.2), and x86-64 guests of 1 to 16 GiB and 2 to 32 CPUs, each
# dumped (it says what it boots and writes first); each report held to
# the guest's own files, its time and peak RSS, and how they grow
# (bench/out/scale-matrix.md, doc/benchmarks.md).  Takes hours.
scale-matrix: all bench/runcmd tests/kmemload
	@./scripts/ensure-deps makedumpfile jq
	@sh bench/scale-matrix

# vmstat-z on a 1 GiB QEMU dump of sid's kernel of each architecture
# Debian releases, in one run, beside x86-64's (doc/kernels.md's table).
bench-arch: all
	@sh bench/bench-arch

# Each report repeating for about twenty minutes (-w 0.01 -c 100000) while
# its memory and descriptors are sampled: doc/fleet.md's soak table.
soak: all
	@sh bench/soak

# The reports on /proc/kcore, in the Debian 12 guest (this machine's
# kernel has none): boots it in QEMU (it says what it installs and
# downloads first) and removes everything after; .ci/run runs it.
# Every report on every kernel Debian ships, each booted in QEMU, against
# the guest's own files; the matrix's fixtures made again; doc/kernels.md's
# table (bench/out/kernel-matrix.md, bench/to-readme).
kernel-matrix: all
	@sh fixtures/tools/kernel-matrix -f

# The same kernels' dumps as users' machines make them: each booted with
# crashkernel= and panicked, makedumpfile run by its capture kernel; every
# report on every dump kind; doc/kernels.md's second table
# (bench/out/kdump-matrix.md, bench/to-readme); -f: their fixtures.
kdump-matrix: all
	@sh fixtures/tools/kdump-matrix -f

# The same with each release's own makedumpfile in its capture kernel, as
# a machine of that release has (doc/kernels.md's third table); a failing
# cell's kept dumps become fixtures by fixtures/vmcore/cut-kept.
kdump-matrix-own: all
	@sh fixtures/tools/kdump-matrix -T

# The arm64 kernels' dumps as users' machines make them: Debian 12's arm64
# kexec-tools and makedumpfile in each one's capture kernel, every report
# on every kind made (doc/kernels.md's arm64 capture-kernel table,
# bench/out/kdump-matrix-arm64.md); the fixture of the one whose dumps
# makedumpfile writes.
kdump-matrix-arm64: all
	@sh fixtures/tools/kdump-matrix -a arm64 -f

# The same of ppc64el (4 and 64 KiB pages), each capture kernel running
# its own suite's makedumpfile (Debian 12's 1.7.2 cannot read 6.12's and
# 7.2's struct pages), and of riscv64, whose tools are sid's (Debian 12
# has no riscv64).
kdump-matrix-ppc64el-own: all
	@sh fixtures/tools/kdump-matrix -a ppc64el -T
kdump-matrix-riscv64: all
	@sh fixtures/tools/kdump-matrix -a riscv64

# Debian's arm64 kernels, 4 and 16 KiB pages, booted in
# qemu-system-aarch64: every report on their dumps, read here, against
# the guests' own files, and vmstat-z -A against Debian 12's arm64 crash
# (run under qemu-user in an arm64 root it makes); doc/kernels.md's arm64
# table (bench/out/arm64-matrix.md, bench/to-readme); the arm64 fixtures.
arm64-matrix: all
	@sh fixtures/tools/arm64-matrix -f

# Debian's s390x kernels (big-endian) in qemu-system-s390x, its riscv64
# kernels in qemu-system-riscv64 (Sv57, Sv48 and Sv39), and its ppc64el
# kernels in qemu-system-ppc64 (4 and 64 KiB pages, radix and hash): every
# report on their QEMU dumps, read here (bench/out/ARCH-matrix.md); the
# architecture's fixture.
s390x-matrix: all
	@sh fixtures/tools/arch-matrix -a s390x -f
riscv64-matrix: all
	@sh fixtures/tools/arch-matrix -a riscv64 -f
ppc64el-matrix: all
	@sh fixtures/tools/arch-matrix -a ppc64el -f

# The oldest and the newest kernel of the matrix (make kernel-matrix runs
# every one).
KCORE_SUITES = bullseye sid
kcore-check: all
	@rc=0; for s in $(KCORE_SUITES); do sh tests/kcore-check -s $$s || rc=1; \
	done; exit $$rc

# The README's two commands on a minimal Debian 12 made by debootstrap
# (root; it says what it downloads first); .ci/run runs it.
minbase-check:
	@sh tests/minbase-check

# The same on an arm64 Debian 12 root, its programs run by qemu-user;
# and on s390x's (big-endian), ppc64el's and riscv64's.
minbase-check-arm64:
	@sh tests/minbase-check -a arm64
minbase-check-s390x:
	@sh tests/minbase-check -a s390x
minbase-check-ppc64el:
	@sh tests/minbase-check -a ppc64el
minbase-check-riscv64:
	@sh tests/minbase-check -a riscv64

# Owners on the running kernel: sid's guest booted with slub_debug=U
# while kmemload holds 20 pipes, kmemtrace report --outstanding -M
# /proc/kcore -p PID names them by pid and command (tests/kcore-check -u).
kcore-check-owners: all
	@sh tests/kcore-check -u -s sid

# The running kernel of another architecture read as memory, and
# kmemtrace recording in it, its recording reported here and x86-64's
# there: sid's kernel of ARCH in QEMU running this tree built for ARCH
# under qemu-user (fixtures/tools/arm64-build), the root removed after.
$(KCORE_ARCHES:%=kcore-check-%): all
	@a=$(@:kcore-check-%=%); f=$$a; [ $$a = ppc64el ] && f=powerpc64le; \
	root=$$(mktemp -d "$${TMPDIR:-/var/tmp}/memstat-$$a.XXXXXX"); \
	sh fixtures/tools/arm64-build -a $$a "$$root" && \
	sh tests/kcore-check -s sid -a $$f -B "$$root"; rc=$$?; \
	rm -rf --one-file-system "$$root"; exit $$rc

# The binary fixtures, made anew: streams from their text descriptions;
# vmcores from a real kernel booted in QEMU (their ground truth, the
# guest's slabinfo, comes with them, so their tool outputs are re-blessed);
# kmemtrace recordings of this kernel and of the guest's (root).
fixtures: $(STREAMTEXT) $(KMEMTEXT) $(KVCORE) $(OWNERPATCH) tests/kmemload all
	@sh fixtures/tools/regen
	@sh fixtures/vmcore/make-fixtures
	$(KVCORE) fixtures/vmcore/debian12-6.1/vmcore.elf \
	    fixtures/vmcore/debian12-6.1/vmcore-kv.elf
	@sh fixtures/linux/kmemtrace/make-recordings
	@sh fixtures/linux/frag/make-logs
	@sh tests/golden/bless vz-elf vz-flat-json vz-la57-a vm-kdump vn-elf \
	    vn-elf-json $$(grep '^k' tests/golden/cases | cut -f 1)

# Rewrite the expected accessor values from the current library: review
# the diff before committing it.
fixtures-expect: $(MTDUMP) $(STREAMTEXT)
	@sh fixtures/tools/regen && sh fixtures/tools/regen --expect

# The Debian packages memstat and libmemstat-dev, into debs/.
deb:
	@sh scripts/make-deb

# The packages checked as Debian checks them (root): lintian, then the
# autopkgtests of debian/tests with autopkgtest's null runner against the
# packages installed here; whatever it installed is purged after.
deb-check: deb
	@sh tests/deb-check

install: all
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	    -e 's|@VERSION@|$(VERSION)|g' libmemstat.pc.in > libmemstat.pc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBDIR) \
	    $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(LIBDIR)/pkgconfig \
	    $(DESTDIR)$(PREFIX)/share/man/man3 $(DESTDIR)$(PREFIX)/share/man/man8
	install -m 755 $(TOOLS) scripts/memstat-capture $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(MAN8) $(DESTDIR)$(PREFIX)/share/man/man8/
	install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/
	install -m 644 lib/memstat.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 libmemstat.pc $(DESTDIR)$(LIBDIR)/pkgconfig/
	install -m 644 $(MAN3) $(DESTDIR)$(PREFIX)/share/man/man3/

clean:
	rm -f $(LIB) $(LIB_OBJS) $(TOOL_LIB) $(TOOL_OBJS) $(TOOLS) \
	    $(TOOL_MAIN_OBJS) $(TEST_SUPPORT) $(STREAMTEXT) $(MTDUMP) \
	    $(UNIT_TESTS) $(TOOL_UNIT_TESTS) $(KT_UNIT_TESTS) $(BENCHES) bench/timing.o libmemstat.pc \
	    $(KMEMTEXT) tests/kmemload bench/runcmd \
	    $(ERRCODE) $(MUTATE) $(TRYALL) $(CUTRACE) \
	    fuzz/kvm_seed fuzz/diskdump_seed fuzz/tools.h $(KVCORE) $(KALLSYMS) $(OWNERPATCH) \
	    .build-flags
	rm -rf fuzz/replay fuzz/replay-obj tests/.peers debs
	rm -rf .warnings

# test_list injects allocation failures into the library.
tests/test_list: LDFLAGS += -Wl,--wrap=calloc -Wl,--wrap=malloc -Wl,--wrap=realloc
# test_kvm fails the symbol table's allocation.
tests/test_kvm: LDFLAGS += -Wl,--wrap=calloc
.SECONDARY: bench/timing.o
