/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The resolver: the one cache between samples and the symbol tables.
 *
 * A profile has millions of samples but only thousands of distinct
 * addresses, so every (dso, address) is symbolized once and its answer kept
 * (perf's --sort srcline paid an addr2line round trip per sample).  Answers
 * live in fixed-size chunks, so a pointer handed out stays valid while the
 * hash table that indexes them grows.
 */
#include <config.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "common/util.h"
#include "symbol/sym_internal.h"

#define CHUNK 4096

/* 16 bytes, four to a cache line: with mostly distinct addresses every
 * probe is a cache miss, so the slot size is the cost. */
struct cache_slot {
	uint64_t addr;
	uint32_t dso; /* index in dsos + 1; 0: no mapping covered the ip */
	uint32_t res; /* result number + 1; 0: empty slot */
};

struct sym_resolver {
	char *debug_root;
	struct sym_maps *maps;
	struct sym_dso **dsos; /* first-use order */
	size_t nr_dsos, cap_dsos;
	struct hashtab dso_index; /* of struct dso_slot, by path */
	struct sym_dso *last_dso; /* memo: samples come in runs from one binary */
	const char *last_map_path; /* its path as the maps interned it, or NULL */
	struct sym_dso *kernel;   /* "[kernel]", once a kernel address is seen */
	struct sym_kernel_symbol *recorded; /* kernel symbols given instead of kallsyms */
	size_t nr_recorded, cap_recorded;
	struct kallsyms_prefetch *prefetch; /* kallsyms being read in a thread */
	char *kallsyms;           /* a kallsyms file to read instead of the running kernel's */
	bool use_vdso;            /* [vdso] is pfmon's own image */
	bool no_lines;            /* answers without source lines */
	bool demangle;            /* answers with demangled names */
	bool perf_maps;           /* anonymous code named by its JIT's /tmp/perf-PID.map */
	uint64_t perf_map_queries; /* addresses looked up in such a map */
	struct sym_demangler demangler;
	struct sym_strset dtype_names; /* of sym_resolve_dtype's answers: one name, one pointer */
	struct expected_file *expected; /* what files were when recorded */
	size_t nr_expected, cap_expected;
	struct hashtab cache; /* of struct cache_slot */
	struct sym_result **chunks; /* CHUNK results each: pointers stay put */
	size_t nr_results;
	uint64_t queries;
};

static struct sym_dso *join_prefetch(struct sym_resolver *r);

struct expected_file {
	char *path;
	struct sym_file_id id;
};

struct sym_resolver *sym_resolver_new(const char *debug_root)
{
	struct sym_resolver *r = xcalloc(1, sizeof(*r));

	r->debug_root = xstrdup(sym_debug_root(debug_root));
	r->maps = sym_maps_new();
	return r;
}

void sym_resolver_free(struct sym_resolver *r)
{
	if (!r)
		return;
	if (r->prefetch)
		sym_dso_close(join_prefetch(r));
	for (size_t i = 0; i < r->nr_dsos; i++)
		sym_dso_close(r->dsos[i]);
	for (size_t i = 0; i < (r->nr_results + CHUNK - 1) / CHUNK; i++)
		free(r->chunks[i]);
	free(r->chunks);
	hashtab_release(&r->cache);
	hashtab_release(&r->dso_index);
	free(r->dsos);
	for (size_t i = 0; i < r->nr_recorded; i++) {
		free((char *)r->recorded[i].name);
		free((char *)r->recorded[i].module);
	}
	free(r->recorded);
	free(r->kallsyms);
	for (size_t i = 0; i < r->nr_expected; i++)
		free(r->expected[i].path);
	free(r->expected);
	sym_maps_free(r->maps);
	sym_demangler_release(&r->demangler);
	sym_strset_free(&r->dtype_names);
	free(r->debug_root);
	free(r);
}

void sym_resolver_demangle(struct sym_resolver *r, bool demangle)
{
	r->demangle = demangle;
}

void sym_resolver_want_lines(struct sym_resolver *r, bool lines)
{
	r->no_lines = !lines;
}

struct sym_maps *sym_resolver_maps(struct sym_resolver *r)
{
	return r->maps;
}

/* the dsos by path: the dso's own path, so no copy */
struct dso_slot {
	const char *path; /* NULL: empty slot */
	struct sym_dso *dso;
};

static bool dso_used(const void *slot)
{
	return ((const struct dso_slot *)slot)->path != NULL;
}

static bool dso_match(const void *slot, const void *key)
{
	return strcmp(((const struct dso_slot *)slot)->path, key) == 0;
}

static uint64_t dso_hash(const void *slot)
{
	return hash_str(((const struct dso_slot *)slot)->path);
}

static const struct hashtab_ops dso_ops = {
	.slot_size = sizeof(struct dso_slot),
	.min_cap = 32,
	.load_pct = 50,
	.used = dso_used,
	.match = dso_match,
	.hash = dso_hash,
};

static struct sym_dso *add_dso(struct sym_resolver *r, struct sym_dso *dso)
{
	struct dso_slot *slot;
	bool added;

	if (r->nr_dsos == r->cap_dsos) {
		r->cap_dsos = r->cap_dsos ? r->cap_dsos * 2 : 16;
		r->dsos = xrealloc(r->dsos, r->cap_dsos * sizeof(*r->dsos));
	}
	dso->id = (uint32_t)r->nr_dsos + 1;
	r->dsos[r->nr_dsos++] = dso;
	/* a path already indexed keeps its first dso, the one lookups find */
	slot = hashtab_insert(&r->dso_index, &dso_ops, hash_str(dso->path), dso->path, &added);
	if (added)
		*slot = (struct dso_slot){ dso->path, dso };
	return dso;
}

/* A mapping name that is not a file ([vdso], [heap], //anon): a stub,
 * except the vDSO when the caller says it is the running kernel's. */
static struct sym_dso *open_pseudo(const struct sym_resolver *r, const char *name)
{
	struct pf_error err;
	struct sym_dso *dso;

	if (strcmp(name, "[vdso]") != 0)
		return sym_dso_stub(name, "not a file");
	if (!r->use_vdso)
		return sym_dso_stub(name, "only the running kernel's vDSO can be read");
	if (sym_dso_open_vdso(&dso, &err) != 0)
		return sym_dso_stub(name, err.msg);
	return dso;
}

/* a binary's identity when recorded, or NULL (a linear search: it runs
 * once per binary opened) */
static const struct sym_file_id *expected_id(const struct sym_resolver *r, const char *path)
{
	for (size_t i = 0; i < r->nr_expected; i++)
		if (strcmp(r->expected[i].path, path) == 0)
			return &r->expected[i].id;
	return NULL;
}

void sym_resolver_expect(struct sym_resolver *r, const char *path, const struct sym_file_id *id)
{
	if (expected_id(r, path))
		return;
	if (r->nr_expected == r->cap_expected) {
		r->cap_expected = r->cap_expected ? r->cap_expected * 2 : 16;
		r->expected = xrealloc(r->expected, r->cap_expected * sizeof(*r->expected));
	}
	r->expected[r->nr_expected++] = (struct expected_file){ xstrdup(path), *id };
}

/*
 * dso, just opened from path (NULL: it could not be, for reason), unless it
 * is not the binary recorded there: then the recorded one by its build-id
 * from the debug root, named path still, or a stub that names nothing and
 * says why.
 */
static struct sym_dso *checked_dso(struct sym_resolver *r, const char *path, struct sym_dso *dso,
				   const char *reason)
{
	const struct sym_file_id *want = expected_id(r, path);
	struct sym_dso *found;
	char *why = NULL, *where;
	bool opened = dso != NULL;

	if (dso && (!want || sym_dso_is(dso, want, &why)))
		return dso;
	sym_dso_close(dso);
	found = want ? sym_dso_by_build_id(r->debug_root, want) : NULL;
	if (!found && !opened) {
		free(why);
		return sym_dso_stub(path, reason); /* gone, and not found elsewhere */
	}
	if (found) {
		where = found->path;
		found->path = xstrdup(path);
		if (!found->debug_path)
			found->debug_path = where;
		else
			free(where);
		free(why);
		return found;
	}
	dso = sym_dso_stub(path, why);
	dso->wrong_file = true;
	free(why);
	return dso;
}

/* The dso for path, opened on first use.  A file that cannot be read
 * (deleted, permission) becomes a stub that still answers binary+offset
 * and is listed with its reason. */
/* perf's name of a JIT's map of its code */
#define PERF_MAP_FORMAT "/tmp/perf-%u.map"

static bool is_perf_map(const char *path)
{
	unsigned pid;
	char tail[8];

	return sscanf(path, "/tmp/perf-%u%7s", &pid, tail) == 2 && !strcmp(tail, ".map");
}

/* where a JIT puts its code: mappings of no file (perf's anonymous kinds) */
static bool is_anon_code(const char *path)
{
	return !strncmp(path, "//anon", 6) || !strncmp(path, "[anon", 5) || !strcmp(path, "/dev/zero") ||
	       !strncmp(path, "/anon_hugepage", 14) || is_perf_map(path);
}

void sym_resolver_use_perf_maps(struct sym_resolver *r, bool use)
{
	r->perf_maps = use;
}

uint64_t sym_resolver_perf_map_queries(const struct sym_resolver *r)
{
	return r->perf_map_queries;
}

static struct sym_dso *find_or_open_dso(struct sym_resolver *r, const char *path,
				       bool from_map)
{
	const struct dso_slot *known = hashtab_find(&r->dso_index, &dso_ops, hash_str(path), path);
	struct pf_error err;
	struct sym_dso *dso;

	if (known)
		return known->dso;
	if (from_map && path[0] != '/')
		return add_dso(r, open_pseudo(r, path));
	if (!from_map && is_perf_map(path))
		return add_dso(r, sym_dso_open_perfmap(path));
	if (sym_dso_open(path, r->debug_root, &dso, &err) != 0)
		return add_dso(r, checked_dso(r, path, NULL, err.msg));
	return add_dso(r, checked_dso(r, path, dso, NULL));
}

/* Samples come in runs from one binary: try the last one before hashing. */
/* A map's path is interned for the maps' lifetime, which is the
 * resolver's: the same pointer is the same path, with no strcmp a sample. */
static struct sym_dso *get_dso(struct sym_resolver *r, const char *path, bool from_map)
{
	if (from_map && r->last_dso && path == r->last_map_path)
		return r->last_dso;
	if (!r->last_dso || strcmp(r->last_dso->path, path) != 0)
		r->last_dso = find_or_open_dso(r, path, from_map);
	r->last_map_path = from_map ? path : NULL;
	return r->last_dso;
}

struct sym_dso *sym_resolver_map_dso(struct sym_resolver *r, const char *path)
{
	return get_dso(r, path, true);
}

/* addresses differ in few low bits: the finalizer spreads them */
static uint64_t cache_key_hash(uint64_t addr, uint32_t dso)
{
	return hash_u64(hash_combine(addr, dso));
}

static bool cache_used(const void *slot)
{
	return ((const struct cache_slot *)slot)->res != 0;
}

static bool cache_match(const void *slot, const void *key)
{
	const struct cache_slot *s = slot, *k = key;

	return s->addr == k->addr && s->dso == k->dso;
}

static uint64_t cache_hash(const void *slot)
{
	const struct cache_slot *s = slot;

	return cache_key_hash(s->addr, s->dso);
}

static const struct hashtab_ops cache_ops = {
	.slot_size = sizeof(struct cache_slot),
	.min_cap = 1024,
	.load_pct = 75,
	.used = cache_used,
	.match = cache_match,
	.hash = cache_hash,
};

static struct sym_result *result(const struct sym_resolver *r, uint32_t n)
{
	return &r->chunks[(n - 1) / CHUNK][(n - 1) % CHUNK];
}

static uint32_t new_result(struct sym_resolver *r)
{
	if (r->nr_results % CHUNK == 0) {
		size_t nc = r->nr_results / CHUNK;

		r->chunks = xrealloc(r->chunks, (nc + 1) * sizeof(*r->chunks));
		r->chunks[nc] = xmalloc(CHUNK * sizeof(struct sym_result));
	}
	return (uint32_t)++r->nr_results;
}

#define DATA_KEY 0x80000000u /* data lookups: a key space of their own */

/* The cached answer for (dso, addr), computing it on first sight. */
static const struct sym_result *lookup(struct sym_resolver *r, struct sym_dso *dso,
				       uint64_t addr, bool data)
{
	struct cache_slot key = { addr, (dso ? dso->id : 0) | (data ? DATA_KEY : 0), 0 }, *slot;
	struct sym_result *res;
	bool added;

	r->queries++;
	slot = hashtab_insert(&r->cache, &cache_ops, cache_key_hash(addr, key.dso), &key, &added);
	if (!added)
		return result(r, slot->res);
	*slot = (struct cache_slot){ addr, key.dso, new_result(r) };
	res = result(r, slot->res);
	if (dso && data)
		sym_dso_lookup_data(dso, addr, res);
	else if (dso && r->no_lines)
		sym_dso_lookup_func(dso, addr, res);
	else if (dso)
		sym_dso_lookup(dso, addr, res);
	else
		*res = (struct sym_result){ .addr = addr, .offset = addr };
	if (r->demangle) /* once per answer, and the demangler once per name */
		res->func = sym_demangle(&r->demangler, res->func);
	return res;
}

/* a mapping of no file: "[heap]", "[stack]", "//anon", "[anon:name]" */
static bool anonymous(const char *path)
{
	return path[0] == '[' ? strcmp(path, "[vdso]") != 0 : !strncmp(path, "//anon", 6);
}

/* the dso of mapping m and ip's address in its ELF space */
static struct sym_dso *map_dso(struct sym_resolver *r, const struct sym_map *m, uint64_t ip, uint64_t *addr)
{
	struct sym_dso *dso = get_dso(r, m->path, true);
	/* An anonymous mapping ([heap], [stack], //anon) has no file: the
	 * kernel's pgoff of one is its address in pages, so an offset into it
	 * is from its start, never the address itself labelled an offset. */
	uint64_t off = ip - m->start + (anonymous(m->path) ? 0 : m->pgoff);

	/* ET_EXEC runs where it was linked; ET_DYN (PIE, .so) is wherever the
	 * loader put it, so go through the file offset and its segment.  A
	 * stub reports the file offset: that is what binary+offset means. */
	if (dso->open_error)
		*addr = off;
	else
		*addr = dso->is_dyn ? sym_dso_offset_to_addr(dso, off) : ip;
	return dso;
}

static const struct sym_result *resolve(struct sym_resolver *r, uint32_t pid, uint64_t ip,
				      bool data)
{
	const struct sym_map *m = sym_maps_find(r->maps, pid, ip);
	struct sym_dso *dso;
	uint64_t addr;

	if (!data && r->perf_maps && (!m || is_anon_code(m->path))) {
		char path[64];

		snprintf(path, sizeof(path), PERF_MAP_FORMAT, (unsigned)pid);
		r->perf_map_queries++;
		return lookup(r, get_dso(r, path, false), ip, false);
	}
	if (!m)
		return lookup(r, NULL, ip, data);
	dso = map_dso(r, m, ip, &addr);
	return lookup(r, dso, addr, data);
}

const struct sym_result *sym_resolve(struct sym_resolver *r, uint32_t pid, uint64_t ip)
{
	return resolve(r, pid, ip, false);
}

const struct sym_result *sym_resolve_data(struct sym_resolver *r, uint32_t pid, uint64_t addr)
{
	return resolve(r, pid, addr, true);
}

void sym_resolve_dtype(struct sym_resolver *r, uint32_t pid, uint64_t ip, uint64_t addr, struct sym_dtype *out)
{
	const struct sym_map *code = sym_maps_find(r->maps, pid, ip), *data = sym_maps_find(r->maps, pid, addr);
	struct sym_dso *code_dso = NULL, *data_dso = NULL;
	uint64_t pc = 0, daddr = 0;

	if (code && !anonymous(code->path))
		code_dso = map_dso(r, code, ip, &pc);
	if (data && !anonymous(data->path))
		data_dso = map_dso(r, data, addr, &daddr);
	sym_dso_dtype(code_dso, pc, data_dso, daddr, &r->dtype_names, out);
}

const struct sym_result *sym_resolve_file(struct sym_resolver *r, const char *path,
					  uint64_t addr)
{
	return lookup(r, get_dso(r, path, false), addr, false);
}

int sym_resolver_disasm(struct sym_resolver *r, const char *path, uint64_t addr, struct sym_disasm *d,
			struct pf_error *err)
{
	return sym_dso_disasm(get_dso(r, path, false), addr, d, err);
}

/* kallsyms read by a thread of its own: it touches nothing else */
struct kallsyms_prefetch {
	pthread_t thread;
	struct sym_kallsyms *ks;
	struct pf_error err;
	int rc;
};

static void *prefetch_main(void *arg)
{
	struct kallsyms_prefetch *pf = arg;

	pf->rc = sym_kallsyms_load_default(NULL, &pf->ks, &pf->err);
	return NULL;
}

void sym_resolver_prefetch_kernel(struct sym_resolver *r)
{
	struct kallsyms_prefetch *pf;

	if (r->kernel || r->nr_recorded || r->prefetch || r->kallsyms)
		return;
	pf = xcalloc(1, sizeof(*pf));
	if (pthread_create(&pf->thread, NULL, prefetch_main, pf)) {
		free(pf); /* no thread: kallsyms is read when needed, as without prefetching */
		return;
	}
	r->prefetch = pf;
}

/* the prefetched kallsyms as the kernel dso (waiting for the thread) */
static struct sym_dso *join_prefetch(struct sym_resolver *r)
{
	struct kallsyms_prefetch *pf = r->prefetch;
	struct sym_dso *dso;

	pthread_join(pf->thread, NULL);
	dso = sym_dso_kernel_loaded(pf->rc ? NULL : pf->ks, pf->rc ? pf->err.msg : NULL);
	free(pf);
	r->prefetch = NULL;
	return dso;
}

/* kallsyms is read only if a kernel address comes, and no symbols were given */
static struct sym_dso *kernel_dso(struct sym_resolver *r)
{
	if (!r->kernel && r->nr_recorded)
		r->kernel = add_dso(r, sym_dso_kernel_table(r->recorded, r->nr_recorded));
	else if (!r->kernel && r->prefetch)
		r->kernel = add_dso(r, join_prefetch(r));
	else if (!r->kernel)
		r->kernel = add_dso(r, sym_dso_kernel(r->kallsyms));
	return r->kernel;
}

void sym_resolver_use_kallsyms(struct sym_resolver *r, const char *path)
{
	free(r->kallsyms);
	r->kallsyms = xstrdup(path);
}

void sym_resolver_add_kernel_symbol(struct sym_resolver *r, const struct sym_kernel_symbol *s)
{
	if (r->nr_recorded == r->cap_recorded) {
		r->cap_recorded = r->cap_recorded ? r->cap_recorded * 2 : 64;
		r->recorded = xrealloc(r->recorded, r->cap_recorded * sizeof(*r->recorded));
	}
	r->recorded[r->nr_recorded++] = (struct sym_kernel_symbol){
		s->addr, s->end, xstrdup(s->name), s->module ? xstrdup(s->module) : NULL };
}

size_t sym_resolver_kernel_symbols_used(struct sym_resolver *r, struct sym_kernel_symbol **out)
{
	const struct sym_kallsyms *ks = r->kernel ? r->kernel->kallsyms : NULL;
	size_t n = 0;

	*out = NULL;
	for (size_t i = 0; ks && i < ks->nr; i++)
		n += ks->used[i];
	if (!n)
		return 0;
	*out = xmalloc(n * sizeof(**out));
	n = 0;
	for (size_t i = 0; i < ks->nr; i++)
		if (ks->used[i])
			(*out)[n++] = (struct sym_kernel_symbol){ ks->syms[i].addr, ks->syms[i].end,
								  ks->syms[i].name, ks->syms[i].module };
	return n;
}

const struct sym_result *sym_resolve_kernel(struct sym_resolver *r, uint64_t ip)
{
	return lookup(r, kernel_dso(r), ip, false);
}

bool sym_resolver_kernel_symbols(struct sym_resolver *r)
{
	return kernel_dso(r)->kallsyms != NULL;
}

void sym_resolver_use_vdso(struct sym_resolver *r, bool use)
{
	r->use_vdso = use;
}

size_t sym_resolver_nr_dsos(const struct sym_resolver *r)
{
	return r->nr_dsos;
}

void sym_resolver_dso_info(const struct sym_resolver *r, size_t i, struct sym_dso_info *info)
{
	sym_dso_info(r->dsos[i], info);
}

uint64_t sym_resolver_unique(const struct sym_resolver *r)
{
	return r->cache.len;
}

uint64_t sym_resolver_queries(const struct sym_resolver *r)
{
	return r->queries;
}
