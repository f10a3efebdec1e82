/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * bench/unwind/compare FILE: the user stacks of a pfmon sample file
 * (--call-graph=dwarf) unwound twice, by pfmon's unwinder (elfutils'
 * libdwfl, src/symbol/sym_unwind.c) and by libunwind's remote API with
 * accessors written here (registers and stack from the sample, the rest of
 * memory from the mapped binaries' files, the FDE table from .eh_frame_hdr),
 * each timed: the measurement behind the choice of libdwfl.  Two passes
 * over the file: the first opens every binary and builds every cache, the
 * second shows the steady state.  x86-64 only, .eh_frame only (libunwind's
 * .debug_frame search is left out: the binaries measured have .eh_frame).
 */
#include <config.h>

#include <fcntl.h>
#include <gelf.h>
#include <libunwind.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"
#include "sample/smpl_file.h"
#include "symbol/symbol.h"

extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as, unw_word_t ip, unw_dyn_info_t *di,
					       unw_proc_info_t *pi, int need_unwind_info, void *arg);

#define MAX_FRAMES 127

/* a binary as libunwind's accessors see it */
struct module {
	char *path;
	uint64_t bias, lo, hi; /* its PT_LOADs at [lo, hi) */
	Elf *elf;
	const char *image;
	size_t size;
	GElf_Phdr ph[32];
	size_t nph;
	uint64_t hdr;         /* .eh_frame_hdr's address in the file, 0: none */
};

static struct module *mods;
static size_t nmods;

struct ctx {
	const struct sample *s;
	struct sym_maps *maps;
	uint64_t sp;
};

/* DWARF (and libunwind's x86-64) register number to perf's */
static const int dwarf_to_perf[17] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8 };

static uint64_t reg(const struct sample *s, int perf_bit, int *ok)
{
	uint64_t below = s->regs_mask & ((1ull << perf_bit) - 1);

	*ok = (s->regs_mask >> perf_bit) & 1;
	return *ok ? s->regs[__builtin_popcountll(below)] : 0;
}

static struct module *open_module(const struct sym_map *m)
{
	struct module mod = { .path = xstrdup(m->path), .lo = UINT64_MAX };
	int fd = open(m->path, O_RDONLY | O_CLOEXEC);
	size_t n;

	if (fd < 0)
		return NULL;
	mod.elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	close(fd);
	if (!mod.elf || elf_getphdrnum(mod.elf, &n) || !(mod.image = elf_rawfile(mod.elf, &mod.size)))
		return NULL;
	for (size_t i = 0; i < n && mod.nph < 32; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(mod.elf, (int)i, &ph))
			continue;
		if (ph.p_type == PT_GNU_EH_FRAME)
			mod.hdr = ph.p_vaddr;
		if (ph.p_type != PT_LOAD)
			continue;
		mod.ph[mod.nph++] = ph;
		if (m->pgoff >= ph.p_offset && m->pgoff < ph.p_offset + ph.p_filesz)
			mod.bias = m->start - (m->pgoff - ph.p_offset + ph.p_vaddr);
	}
	for (size_t i = 0; i < mod.nph; i++) {
		mod.lo = mod.ph[i].p_vaddr < mod.lo ? mod.ph[i].p_vaddr : mod.lo;
		mod.hi = mod.ph[i].p_vaddr + mod.ph[i].p_memsz > mod.hi ? mod.ph[i].p_vaddr + mod.ph[i].p_memsz : mod.hi;
	}
	mod.lo += mod.bias;
	mod.hi += mod.bias;
	mods = xrealloc(mods, (nmods + 1) * sizeof(*mods));
	mods[nmods] = mod;
	return &mods[nmods++];
}

static struct module *module_at(struct ctx *c, uint64_t addr, bool open_it)
{
	const struct sym_map *m;

	for (size_t i = 0; i < nmods; i++)
		if (addr >= mods[i].lo && addr < mods[i].hi)
			return &mods[i];
	if (!open_it || !(m = sym_maps_find(c->maps, c->s->pid, addr)) || m->path[0] != '/')
		return NULL;
	return open_module(m);
}

/* 8 bytes at a run-time address of a module, from its file */
static int read_module(const struct module *m, uint64_t addr, uint64_t *val)
{
	uint64_t v = addr - m->bias;

	for (size_t i = 0; i < m->nph; i++) {
		const GElf_Phdr *ph = &m->ph[i];

		if (v >= ph->p_vaddr && v + 8 <= ph->p_vaddr + ph->p_filesz &&
		    ph->p_offset + (v - ph->p_vaddr) + 8 <= m->size) {
			memcpy(val, m->image + ph->p_offset + (v - ph->p_vaddr), 8);
			return 0;
		}
	}
	return -1;
}

static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val, int write, void *arg)
{
	struct ctx *c = arg;
	const struct module *m;
	uint64_t off = addr - c->sp, v;

	(void)as;
	if (write)
		return -UNW_EINVAL;
	if (addr >= c->sp && off + 8 <= c->s->stack_size) {
		memcpy(val, c->s->stack + off, 8);
		return 0;
	}
	if ((m = module_at(c, addr, false)) && !read_module(m, addr, &v)) {
		*val = v;
		return 0;
	}
	return -UNW_EINVAL;
}

static int access_reg(unw_addr_space_t as, unw_regnum_t regnum, unw_word_t *val, int write, void *arg)
{
	struct ctx *c = arg;
	int ok;

	(void)as;
	if (write || regnum < 0 || regnum > 16)
		return -UNW_EBADREG;
	*val = reg(c->s, dwarf_to_perf[regnum], &ok);
	return ok ? 0 : -UNW_EBADREG;
}

static int find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi, int need, void *arg)
{
	struct ctx *c = arg;
	struct module *m = module_at(c, ip, true);
	unw_dyn_info_t di = { 0 };
	uint64_t word;

	if (!m || !m->hdr || read_module(m, m->bias + m->hdr, &word))
		return -UNW_ENOINFO;
	/* version 1, eh_frame_ptr pcrel|sdata4, fde_count udata4, table datarel|sdata4 */
	if ((word & 0xffffffff) != 0x3b031b01)
		return -UNW_ENOINFO;
	if (read_module(m, m->bias + m->hdr + 8, &word))
		return -UNW_ENOINFO;
	di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
	di.start_ip = m->lo;
	di.end_ip = m->hi;
	di.u.rti.segbase = m->bias + m->hdr;
	di.u.rti.table_data = m->bias + m->hdr + 12;
	di.u.rti.table_len = (word & 0xffffffff) * 8 / sizeof(unw_word_t);
	return UNW_OBJ(dwarf_search_unwind_table)(as, ip, &di, pi, need, arg);
}

static void put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
	(void)as, (void)pi, (void)arg;
}

static int get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *dilap, void *arg)
{
	(void)as, (void)dilap, (void)arg;
	return -UNW_ENOINFO;
}

static int access_fpreg(unw_addr_space_t as, unw_regnum_t num, unw_fpreg_t *val, int write, void *arg)
{
	(void)as, (void)num, (void)val, (void)write, (void)arg;
	return -UNW_EBADREG;
}

static int resume(unw_addr_space_t as, unw_cursor_t *cu, void *arg)
{
	(void)as, (void)cu, (void)arg;
	return -UNW_EINVAL;
}

static int get_proc_name(unw_addr_space_t as, unw_word_t addr, char *buf, size_t len, unw_word_t *offp, void *arg)
{
	(void)as, (void)addr, (void)buf, (void)len, (void)offp, (void)arg;
	return -UNW_EINVAL;
}

static unw_accessors_t accessors = {
	.find_proc_info = find_proc_info,
	.put_unwind_info = put_unwind_info,
	.get_dyn_info_list_addr = get_dyn_info_list_addr,
	.access_mem = access_mem,
	.access_reg = access_reg,
	.access_fpreg = access_fpreg,
	.resume = resume,
	.get_proc_name = get_proc_name,
};

static uint32_t unwind_libunwind(unw_addr_space_t as, struct ctx *c, uint64_t *pcs)
{
	unw_cursor_t cur;
	uint32_t n = 0;
	int ok;

	c->sp = reg(c->s, 7, &ok);
	if (!ok || unw_init_remote(&cur, as, c))
		return 0;
	do {
		unw_word_t ip;

		if (unw_get_reg(&cur, UNW_REG_IP, &ip) || !ip)
			break;
		pcs[n] = n ? ip - 1 : ip; /* as pfmon's: a return address minus one */
		n++;
	} while (n < MAX_FRAMES && unw_step(&cur) > 0);
	return n;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the machine may be loaded */
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct totals {
	uint64_t samples, dw_frames, lu_frames, same;
	double dw_time, lu_time;
};

static int pass(const char *path, struct sym_resolver *res, struct sym_unwinder *u, unw_addr_space_t as,
		struct totals *t)
{
	struct pf_error err;
	struct smpl_reader *r = smpl_reader_open(path, &err);
	struct sym_maps *maps = sym_resolver_maps(res);
	struct sample_record rec;

	if (!r) {
		fprintf(stderr, "error: %s\n", err.msg);
		return -1;
	}
	while (smpl_reader_next(r, &rec, &err) == 1) {
		const struct sample *s = &rec.sample;
		uint64_t dw[MAX_FRAMES], lu[MAX_FRAMES];
		struct sym_unwind_result out;
		struct ctx c = { .s = s, .maps = maps };
		uint32_t n;
		double t0;

		if (rec.type == SREC_MMAP && rec.mmap.filename)
			sym_maps_add(maps, rec.mmap.pid, rec.mmap.start, rec.mmap.len, rec.mmap.pgoff, rec.mmap.filename);
		else if (rec.type == SREC_FORK && rec.task.pid != rec.task.ppid)
			sym_maps_fork(maps, rec.task.ppid, rec.task.pid);
		else if (rec.type == SREC_COMM && rec.comm.exec)
			sym_maps_clear(maps, rec.comm.pid);
		if (rec.type != SREC_SAMPLE || !(s->fields & SAMPLE_F_USER_STACK) || !s->regs_abi)
			continue;
		t->samples++;
		t0 = now();
		sym_unwind(u, &(struct sym_user_state){ s->pid, s->tid, s->regs_abi, s->regs_mask, s->regs, s->stack, s->stack_size },
			   dw, MAX_FRAMES, &out);
		t->dw_time += now() - t0;
		t0 = now();
		n = unwind_libunwind(as, &c, lu);
		t->lu_time += now() - t0;
		t->dw_frames += out.n;
		t->lu_frames += n;
		t->same += n == out.n && !memcmp(dw, lu, n * sizeof(*dw));
	}
	smpl_reader_close(r);
	return 0;
}

static void print(const char *what, const struct totals *t)
{
	printf("%s: %llu samples; libdwfl %.1f us and %.1f frames per sample, libunwind %.1f us and %.1f frames;"
	       " the same frames in %.1f%% of the samples\n",
	       what, (unsigned long long)t->samples, t->dw_time / t->samples * 1e6,
	       (double)t->dw_frames / t->samples, t->lu_time / t->samples * 1e6, (double)t->lu_frames / t->samples,
	       100.0 * t->same / t->samples);
}

int main(int argc, char **argv)
{
	struct sym_resolver *res;
	struct sym_unwinder *u;
	unw_addr_space_t as;
	struct totals cold = { 0 }, warm = { 0 };

	if (argc != 2) {
		fprintf(stderr, "usage: %s SAMPLE-FILE\n", argv[0]);
		return 2;
	}
	elf_version(EV_CURRENT);
	res = sym_resolver_new(NULL);
	sym_resolver_want_lines(res, false);
	u = sym_unwinder_new(res);
	as = unw_create_addr_space(&accessors, 0);
	unw_set_caching_policy(as, UNW_CACHE_GLOBAL);
	if (pass(argv[1], res, u, as, &cold) || pass(argv[1], res, u, as, &warm))
		return 1;
	if (!cold.samples) {
		fprintf(stderr, "error: no sample with a user stack in '%s'\n", argv[1]);
		return 1;
	}
	print("first pass", &cold);
	print("second pass", &warm);
	unw_destroy_addr_space(as);
	sym_unwinder_free(u);
	sym_resolver_free(res);
	for (size_t i = 0; i < nmods; i++) {
		elf_end(mods[i].elf);
		free(mods[i].path);
	}
	free(mods);
	return 0;
}
