# memstat: libmemstat and (from the tools issue on) vmstat-z, vmstat-m and
# netstat-mbuf.  Every target first makes sure the Debian packages it needs
# are installed (scripts/ensure-deps checks before it installs).

PREFIX	?= /usr/local
DESTDIR	?=
CC	?= cc
CFLAGS	?= -O2 -g
AR	?= ar

# Evaluated when a recipe runs, i.e. after ensure-deps has installed libbsd.
BSD_CFLAGS = $(shell pkg-config --cflags libbsd-overlay)
BSD_LIBS   = $(shell pkg-config --libs libbsd-overlay)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka)
JSON_CFLAGS = $(shell pkg-config --cflags json-c)
JSON_LIBS   = $(shell pkg-config --libs json-c)
# Core images: libkdumpfile reads dumps (loaded on first use: see
# lib/kvm_kdumpfile.h), libbpf parses their BTF (linked in whole, for the
# same reason: a report that reads no dump should not load it).
KVM_CFLAGS = $(shell pkg-config --cflags libkdumpfile libbpf)
KVM_LIBS   = -Wl,-Bstatic -lbpf -lelf -lz -Wl,-Bdynamic -ldl

WARN	 = -std=c11 -Wall -Wextra -Werror -D_DEFAULT_SOURCE
ALL_CFLAGS = $(WARN) $(CFLAGS) $(BSD_CFLAGS) $(JSON_CFLAGS) $(KVM_CFLAGS) -Ilib

ifeq ($(SANITIZE),1)
# Undefined behaviour stops the test that met it, not just a line of output.
CFLAGS	+= -fsanitize=address,undefined -fno-sanitize-recover=all \
	   -fno-omit-frame-pointer
LDFLAGS	+= -fsanitize=address,undefined -fno-sanitize-recover=all
endif

LIB	 = lib/libmemstat.a
LIB_SRCS = lib/memstat_list.c lib/siphash.c lib/memstat_access.c lib/stream_decode.c \
	   lib/linux_tree.c lib/linux_slabinfo.c lib/linux_slab_sysfs.c \
	   lib/linux_malloc.c lib/linux_live.c \
	   lib/kvm_open.c lib/kvm_headers.c lib/kvm_flat.c lib/kvm_symbols.c lib/kvm_btf.c \
	   lib/kvm_slub.c lib/kvm_kdumpfile.c \
	   lib/stream_uma.c lib/stream_malloc.c lib/malloc_zones.c
LIB_OBJS = $(LIB_SRCS:.c=.o)
LIB_HDRS = lib/memstat.h lib/memstat_internal.h lib/stream_layout.h \
	   lib/linux_tree.h lib/kvm_internal.h lib/kvm_kdumpfile.h \
	   lib/memstat_tool.h

# What the tools share; not installed.
TOOL_LIB  = lib/libmemstat_tool.a
TOOL_OBJS = lib/tool_source.o lib/tool_output.o lib/tool_sockstat.o
TOOLS	  = vmstat-z/vmstat-z vmstat-m/vmstat-m netstat-mbuf/netstat-mbuf

STREAMTEXT = fixtures/tools/streamtext
MTDUMP	   = tests/mtdump
ERRCODE	   = tests/errcode
MUTATE	   = tests/mutate
UNIT_TESTS = tests/test_list tests/test_access tests/test_stream_uma tests/test_linux \
	     tests/test_kvm \
	     tests/test_stream_malloc tests/test_malloc_zones
BENCHES	   = bench/bench_stream bench/bench_live bench/bench_vmcore
TOOL_SUPPORT = tests/support/fixture.o tests/support/streambuild.o \
	       tests/support/mtprint.o
TEST_SUPPORT = $(TOOL_SUPPORT) tests/support/testlib.o

MAN3	= man/libmemstat.3
MAN8	= man/vmstat-z.8 man/vmstat-m.8 man/netstat-mbuf.8 \
	  man/memstat-capture.8

# The fuzz targets: before the rules, which name their replay builds.
.DEFAULT_GOAL := all
include fuzz/fuzz.mk

.PHONY: all deps run check bench fixtures fixtures-expect install clean \
	fuzz fuzz-deps fuzz-clean

all: $(LIB) $(TOOLS)

deps:
	@./scripts/ensure-deps

%.o: %.c $(LIB_HDRS) | deps
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $(LIB_OBJS)

$(TOOL_LIB): $(TOOL_OBJS)
	rm -f $@
	$(AR) rcs $@ $(TOOL_OBJS)

$(TOOLS): %: %.c $(TOOL_LIB) $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(TOOL_LIB) $(LIB) $(LDFLAGS) \
	    $(BSD_LIBS) $(JSON_LIBS) $(KVM_LIBS)

$(TEST_SUPPORT): tests/support/fixture.h tests/support/streambuild.h \
		tests/support/mtprint.h tests/support/testlib.h

$(STREAMTEXT): fixtures/tools/streamtext.c tests/support/fixture.o \
		tests/support/streambuild.o
	$(CC) $(ALL_CFLAGS) -Itests/support -o $@ $< tests/support/fixture.o \
	    tests/support/streambuild.o \
	    $(LDFLAGS) $(BSD_LIBS)

$(MTDUMP) $(ERRCODE) $(MUTATE): %: %.c $(TOOL_SUPPORT) $(LIB)
	$(CC) $(ALL_CFLAGS) -Itests/support -o $@ $< $(TOOL_SUPPORT) \
	    $(LIB) $(LDFLAGS) $(BSD_LIBS) $(KVM_LIBS)

tests/test_%: tests/test_%.c $(TEST_SUPPORT) $(LIB)
	$(CC) $(ALL_CFLAGS) -Itests/support -o $@ $< $(TEST_SUPPORT) $(LIB) \
	    $(LDFLAGS) $(CMOCKA_LIBS) $(BSD_LIBS) $(KVM_LIBS)

bench/bench_%: bench/bench_%.c bench/timing.o tests/support/streambuild.o $(LIB)
	$(CC) $(ALL_CFLAGS) -Itests/support -o $@ $< bench/timing.o tests/support/streambuild.o \
	    $(LIB) $(LDFLAGS) $(BSD_LIBS) $(KVM_LIBS)

# This machine's zones: its slab caches (reading them takes root).
run: all
	@vmstat-z/vmstat-z

check: all $(STREAMTEXT) $(MTDUMP) $(ERRCODE) $(MUTATE) $(UNIT_TESTS) $(FUZZ_REPLAYS) \
	fuzz/kvm_seed
	@sh tests/run-tests

bench: all $(BENCHES)
	@sh bench/run-bench

# The binary fixtures, made anew: streams from their text descriptions;
# vmcores from a real kernel booted in QEMU (their ground truth, the
# guest's slabinfo, comes with them, so their tool outputs are re-blessed).
fixtures: $(STREAMTEXT) all
	@sh fixtures/tools/regen
	@sh fixtures/vmcore/make-fixtures
	@sh tests/golden/bless vz-elf vz-flat-json vz-la57-a vm-kdump vn-elf \
	    vn-elf-json

# Rewrite the expected accessor values from the current library: review
# the diff before committing it.
fixtures-expect: $(MTDUMP) $(STREAMTEXT)
	@sh fixtures/tools/regen && sh fixtures/tools/regen --expect

install: all
	sed -e 's|@PREFIX@|$(PREFIX)|g' libmemstat.pc.in > libmemstat.pc
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib \
	    $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig \
	    $(DESTDIR)$(PREFIX)/share/man/man3 $(DESTDIR)$(PREFIX)/share/man/man8
	install -m 755 $(TOOLS) scripts/memstat-capture $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(MAN8) $(DESTDIR)$(PREFIX)/share/man/man8/
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 lib/memstat.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 libmemstat.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	install -m 644 $(MAN3) $(DESTDIR)$(PREFIX)/share/man/man3/

clean:
	rm -f $(LIB) $(LIB_OBJS) $(TOOL_LIB) $(TOOL_OBJS) $(TOOLS) $(TEST_SUPPORT) $(STREAMTEXT) $(MTDUMP) \
	    $(UNIT_TESTS) $(BENCHES) bench/timing.o libmemstat.pc $(ERRCODE) $(MUTATE) \
	    fuzz/kvm_seed
	rm -rf fuzz/replay fuzz/replay-obj

# test_list injects allocation failures into the library.
tests/test_list: LDFLAGS += -Wl,--wrap=calloc -Wl,--wrap=realloc
.SECONDARY: bench/timing.o
