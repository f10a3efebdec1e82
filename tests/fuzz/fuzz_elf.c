/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target: the ELF/DWARF loader (src/symbol/).  The input is an
 * ELF file: written to a temporary file, opened as a dso (symbol tables,
 * load segments, the separate-debug-file search, DWARF line tables on the
 * first lookup), and a few addresses are symbolized: the entry point, the
 * functions the seed programs define, addresses from file offsets.  The
 * same bytes are then opened as an in-memory image, the way the vDSO is.
 */
#include <config.h>

#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbol/symbol.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[4096];
static int fd = -1;

static void remove_temp(void)
{
	if (fd >= 0)
		unlink(path);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(path, sizeof(path), "%s/pfmon-fuzz-elf.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		perror("pfmon-fuzz-elf: mkstemp");
		abort();
	}
	atexit(remove_temp);
	setenv("PFMON_DEBUG_ROOT", "/nonexistent-debug-root", 1);
	return 0;
}

static uint64_t entry_point(const uint8_t *data, size_t size)
{
	Elf64_Ehdr e64;
	Elf32_Ehdr e32;

	if (size >= sizeof(e64) && data[EI_CLASS] == ELFCLASS64) {
		memcpy(&e64, data, sizeof(e64));
		return e64.e_entry;
	}
	if (size >= sizeof(e32) && data[EI_CLASS] == ELFCLASS32) {
		memcpy(&e32, data, sizeof(e32));
		return e32.e_entry;
	}
	return 0;
}

static void lookup_some(struct sym_dso *dso, uint64_t entry)
{
	/* functions of the seed programs (tests/fuzz/mkseeds.sh) */
	static const char *const names[] = { "main", "_start", "hot_loop", "helper", "lib_func" };
	struct sym_dso_info info;
	struct sym_result res;
	uint64_t addr, fsize;

	sym_dso_info(dso, &info);
	sym_dso_lookup(dso, entry, &res);
	sym_dso_lookup(dso, entry + 0x10, &res);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (sym_dso_find_func(dso, names[i], &addr, &fsize))
			continue;
		sym_dso_lookup(dso, addr, &res);
		sym_dso_lookup(dso, addr + fsize / 2, &res);
	}
	sym_dso_lookup(dso, sym_dso_offset_to_addr(dso, 0x1000), &res);
	sym_dso_lookup(dso, sym_dso_offset_to_addr(dso, 0x1140), &res);
	sym_dso_lookup(dso, UINT64_MAX, &res);
	sym_dso_lookup_data(dso, sym_dso_offset_to_addr(dso, 0x3010), &res);
	sym_dso_lookup_data(dso, 0, &res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pf_error err = { .code = PF_E_OK };
	uint64_t entry = entry_point(data, size);
	struct sym_dso *dso;

	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size) {
		perror("pfmon-fuzz-elf: writing the input");
		abort();
	}
	if (sym_dso_open(path, NULL, &dso, &err) == 0) {
		lookup_some(dso, entry);
		sym_dso_close(dso);
	}
	if (size && sym_dso_open_memory("[fuzz]", data, size, &dso, &err) == 0) {
		lookup_some(dso, entry);
		sym_dso_close(dso);
	}
	return 0;
}
