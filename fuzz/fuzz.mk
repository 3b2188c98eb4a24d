# The fuzz targets (included by the Makefile, after the tool list).  Two builds of each:
#  fuzz/bin/T     libFuzzer, by clang, with ASan and UBSan: make fuzz
#  fuzz/replay/T  the same target with fuzz/replay.c as main(), by $(CC):
#                 make check replays the seeds and past findings with it
# A target is fuzz/fuzz_T.c; the cmdline targets are one file built per
# tool, the stream targets one file built per stream.

# Every tool of tools.list has a command-line target.
FUZZ_CMDLINES = $(addprefix cmdline_,$(subst -,_,$(TOOL_NAMES)))
FUZZ_TARGETS = stream_uma stream_malloc capture_freebsd linux_tree flat \
	       kallsyms slub buddy recording frag elfcore diskdump \
	       $(FUZZ_CMDLINES)
FUZZ_BINS    = $(addprefix fuzz/bin/,$(FUZZ_TARGETS))
FUZZ_REPLAYS = $(addprefix fuzz/replay/,$(FUZZ_TARGETS))

FUZZ_CC	     = clang
FUZZ_SAN     = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_DEFS    = -D_GNU_SOURCE -DFUZZ_REPO='"$(CURDIR)"' -Ifuzz
FUZZ_CFLAGS  = $(WARN) -g -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
	       $(BSD_CFLAGS) $(JSON_CFLAGS) $(KVM_CFLAGS) $(TRACE_CFLAGS) \
	       -Ilib -Itool $(FUZZ_DEFS)
FUZZ_LIBS    = $(BSD_LIBS) $(JSON_LIBS) $(KVM_LIBS) $(TRACE_LIBS)

# The tools' main() and exit paths, made callable (fuzz/tool_shim.h).
FUZZ_TOOL_SRCS = $(TOOL_SRCS) $(foreach t,$(TOOL_NAMES),$(call tool_srcs,$(t)))
FUZZ_SUPPORT_SRCS = fuzz/fuzz_support.c fuzz/tool_run.c fuzz/kvm_image.c
FUZZ_HDRS = fuzz/tool_shim.h fuzz/tool_run.h fuzz/fuzz_support.h \
	    fuzz/kvm_image.h fuzz/tools.h $(LIB_HDRS) $(TOOL_HDRS) \
	    $(foreach t,$(TOOL_NAMES),$(call tool_hdrs,$(t)))
SHIM = $(if $(filter $<,$(FUZZ_TOOL_SRCS)),-include fuzz/tool_shim.h \
       -I$(dir $<) -I$(firstword $(subst /, ,$<)) -Dmain=$(subst -,_,$(notdir $*))_main)

# The tools' names for the harness, from tools.list.
fuzz/tools.h: tools.list
	@echo "/* Made from tools.list by fuzz/fuzz.mk. */" > $@
	@for t in $(TOOL_NAMES); do \
	    id=$$(echo $$t | tr a-z- A-Z_); fn=$$(echo $$t | tr - _); \
	    echo "FUZZ_TOOL($$id, $${fn}_main, \"$$t\")"; done >> $@

# Which source and defines each target is.
fuzz_src = $(if $(filter cmdline_%,$1),fuzz/fuzz_cmdline.c,$(if \
	   $(filter stream_%,$1),fuzz/fuzz_stream.c,fuzz/fuzz_$1.c))
fuzz_def = $(if $(filter cmdline_%,$1),-DTOOL=FUZZ_$(shell echo \
	   $(1:cmdline_%=%) | tr a-z A-Z),$(if $(filter stream_uma,$1), \
	   -DSTREAM_UMA))

# libFuzzer build: everything instrumented, the library too.
FUZZ_OBJS = $(addprefix fuzz/obj/,$(LIB_SRCS:.c=.o) \
	    $(FUZZ_TOOL_SRCS:.c=.o) $(FUZZ_SUPPORT_SRCS:.c=.o))
fuzz-deps: deps
	@./scripts/ensure-deps clang libclang-rt-14-dev
fuzz/obj/%.o: %.c $(FUZZ_HDRS) | fuzz-deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(SHIM) -c -o $@ $<
fuzz/obj/libfuzz.a: $(FUZZ_OBJS)
	rm -f $@
	$(AR) rcs $@ $(FUZZ_OBJS)
fuzz/bin/%: fuzz/obj/libfuzz.a $(FUZZ_HDRS) fuzz/fuzz_cmdline.c \
		fuzz/fuzz_stream.c $(wildcard fuzz/fuzz_*.c)
	@mkdir -p fuzz/bin
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(call fuzz_def,$*) \
	    -o $@ $(call fuzz_src,$*) fuzz/obj/libfuzz.a $(FUZZ_LIBS)

# Replay build: the ordinary library, the tools' objects shimmed.
REPLAY_OBJS = $(addprefix fuzz/replay-obj/,$(FUZZ_TOOL_SRCS:.c=.o) \
	      $(FUZZ_SUPPORT_SRCS:.c=.o) fuzz/replay.o)
fuzz/replay-obj/%.o: %.c $(FUZZ_HDRS) | deps
	@mkdir -p $(dir $@)
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) $(FUZZ_DEFS) $(SHIM) -c -o $@ $<
fuzz/replay-obj/libreplay.a: $(REPLAY_OBJS)
	rm -f $@
	$(AR) rcs $@ $(REPLAY_OBJS)
fuzz/replay/%: fuzz/replay-obj/libreplay.a $(LIB) $(FUZZ_HDRS) \
		fuzz/fuzz_cmdline.c fuzz/fuzz_stream.c $(wildcard fuzz/fuzz_*.c)
	@mkdir -p fuzz/replay
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) $(FUZZ_DEFS) $(call fuzz_def,$*) -o $@ \
	    $(call fuzz_src,$*) fuzz/replay-obj/libreplay.a $(LIB) \
	    $(LDFLAGS) $(FUZZ_LIBS)

fuzz/kvm_seed: fuzz/kvm_seed.c fuzz/kvm_image.c $(FUZZ_HDRS) $(LIB)
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) $(FUZZ_DEFS) -o $@ fuzz/kvm_seed.c \
	    fuzz/kvm_image.c $(LIB) $(LDFLAGS) $(FUZZ_LIBS)

fuzz/diskdump_seed: fuzz/diskdump_seed.c $(LIB_HDRS) $(LIB)
	$(CC_KEPT) $(CC) $(ALL_CFLAGS) -o $@ fuzz/diskdump_seed.c $(LIB) $(LDFLAGS) \
	    $(FUZZ_LIBS)

# Seeds from the fixtures, then every target for FUZZ_SECONDS each.
FUZZ_SECONDS ?= 600
FUZZ_JOBS    ?= 2
fuzz: all $(FUZZ_BINS) fuzz/kvm_seed fuzz/diskdump_seed
	@sh fuzz/make-seeds
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_JOBS=$(FUZZ_JOBS) \
	    sh fuzz/run-fuzz $(FUZZ_TARGETS)

fuzz-clean:
	rm -rf fuzz/bin fuzz/obj fuzz/replay fuzz/replay-obj fuzz/kvm_seed \
	    fuzz/diskdump_seed \
	    fuzz/corpus
