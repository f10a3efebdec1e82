# SPDX-License-Identifier: GPL-2.0-or-later
# libFuzzer targets (GNU make; run by 'make fuzz', see tests/fuzz/local.am).
# pfmon's library sources are compiled again with clang, with coverage
# instrumentation and ASan/UBSan, into tests/fuzz/obj; each target links
# them with libFuzzer into tests/fuzz/bin/<target>.
#
# From the caller: FUZZ_CC, srcdir, TARGETS, SOURCES (libpfmon.a's),
# CPPFLAGS, LIBS, KALLSYMS (the fixture, absolute).

OBJDIR := tests/fuzz/obj
BINDIR := tests/fuzz/bin
FUZZ_CFLAGS := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	-fno-sanitize-recover=undefined -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION \
	-std=gnu11 -Wall -Wextra -Wno-unused-parameter
LIB_OBJS := $(patsubst %.c,$(OBJDIR)/%.o,$(filter %.c,$(SOURCES)))
FUZZ_LIB := $(OBJDIR)/libpfmon-fuzz.a
BINS := $(addprefix $(BINDIR)/,$(TARGETS))

all: $(BINS)

$(OBJDIR)/%.o: $(srcdir)/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(CPPFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_LIB): $(LIB_OBJS)
	rm -f $@ && ar cr $@ $^

$(BINDIR)/%: $(srcdir)/tests/fuzz/fuzz_%.c $(srcdir)/tests/fuzz/fuzz_util.h $(FUZZ_LIB)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(CPPFLAGS) \
		-DFUZZ_KALLSYMS='"$(KALLSYMS)"' -o $@ $< $(FUZZ_LIB) $(LIBS)

-include $(LIB_OBJS:.o=.d)
.PHONY: all
