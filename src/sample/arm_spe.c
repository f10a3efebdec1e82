/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Arm SPE packets, records and the samples of a record (arm_spe.h).
 *
 * Packet formats from the Arm Architecture Reference Manual (DDI0487,
 * "Statistical Profiling Extension"): a header byte whose bits 5:4 give
 * the payload size (1 << sz bytes, little-endian), except Padding, End
 * and the 8-byte Timestamp; address and counter packets may take an
 * extended header (a byte 0b001000ii before the short header, ii the
 * high bits of the index).  The words of a packet are perf report -D's,
 * so that the two dumps of one file can be compared line by line.
 */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "common/util.h"
#include "sample/arm_spe.h"
#include "sample/data_src.h"

/* ----- packets ----- */

/* the payload size field of a header byte */
static unsigned payload_len(uint8_t hdr)
{
	return 1u << ((hdr >> 4) & 3);
}

static uint64_t le_bytes(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* a packet of header bytes hdr_len then a payload of n bytes */
static int with_payload(const uint8_t *buf, size_t len, unsigned hdr_len, unsigned n, struct spe_packet *p)
{
	if (len < hdr_len + n)
		return 0;
	p->len = hdr_len + n;
	p->payload_len = n;
	p->payload = le_bytes(buf + hdr_len, n);
	return 1;
}

int spe_packet_get(const uint8_t *buf, size_t len, uint64_t pos, struct spe_packet *p)
{
	uint8_t hdr;
	unsigned ext = 0;

	memset(p, 0, sizeof(*p));
	if (!len)
		return 0;
	hdr = buf[0];
	p->len = 1;
	if (hdr == 0x00) {
		p->kind = SPE_PAD;
		return 1;
	}
	if (hdr == 0x01) {
		p->kind = SPE_END;
		return 1;
	}
	if (hdr == 0x71) {
		p->kind = SPE_TIMESTAMP;
		return with_payload(buf, len, 1, 8, p);
	}
	if ((hdr & 0xcf) == 0x42 || (hdr & 0xcf) == 0x43) {
		p->kind = (hdr & 0xcf) == 0x42 ? SPE_EVENTS : SPE_DATA_SOURCE;
		return with_payload(buf, len, 1, payload_len(hdr), p);
	}
	if ((hdr & 0xfc) == 0x64) {
		p->kind = SPE_CONTEXT;
		p->index = hdr & 3;
		return with_payload(buf, len, 1, payload_len(hdr), p);
	}
	if ((hdr & 0xfc) == 0x48) {
		p->kind = SPE_OP_TYPE;
		p->index = hdr & 3;
		return with_payload(buf, len, 1, payload_len(hdr), p);
	}
	if ((hdr & 0xfc) == 0x20) {
		if (len < 2)
			return 0;
		ext = 1;
		if (buf[1] == 0x00) {
			/* padding up to the next multiple of 2, 4, 8 or 16 bytes
			 * of the buffer */
			unsigned align = 2u << (hdr & 0xf);
			unsigned n = align - (unsigned)(pos & (align - 1));

			p->kind = SPE_PAD;
			p->len = n;
			return len >= n;
		}
		p->index = (hdr & 3u) << 3;
		hdr = buf[1];
	}
	if ((hdr & 0xf8) == 0xb0 || (hdr & 0xf8) == 0x98) {
		p->kind = (hdr & 0xf8) == 0xb0 ? SPE_ADDRESS : SPE_COUNTER;
		p->index |= hdr & 7;
		return with_payload(buf, len, 1 + ext, payload_len(hdr), p);
	}
	p->kind = SPE_BAD;
	p->index = 0;
	return 1;
}

/* words appended to out, always NUL-terminated */
struct words {
	char *p;
	size_t left;
};

static void say(struct words *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct words *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->left <= 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(w->p, w->left, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= w->left)
		n = (int)w->left - 1;
	w->p += n;
	w->left -= (size_t)n;
}

/* the events perf 6.1 names, then those of later architecture versions */
static const struct {
	unsigned bit;
	const char *name;
} event_names[] = {
	{ 0, "EXCEPTION-GEN" }, { 1, "RETIRED" }, { 2, "L1D-ACCESS" }, { 3, "L1D-REFILL" },
	{ 4, "TLB-ACCESS" }, { 5, "TLB-REFILL" }, { 6, "NOT-TAKEN" }, { 7, "MISPRED" },
	{ 8, "LLC-ACCESS" }, { 9, "LLC-REFILL" }, { 10, "REMOTE-ACCESS" }, { 11, "ALIGNMENT" },
	{ 17, "SVE-PARTIAL-PRED" }, { 18, "SVE-EMPTY-PRED" },
	{ 16, "TXN" }, { 19, "L2D-ACCESS" }, { 20, "L2D-MISS" }, { 21, "CACHE-DATA-MODIFIED" },
	{ 22, "RECENTLY-FETCHED" }, { 23, "DATA-SNOOPED" }, { 24, "STREAMING-SVE" }, { 25, "SMCU" },
};

/* the event bits named above */
static uint64_t named_events(void)
{
	uint64_t m = 0;

	for (size_t i = 0; i < ARRAY_SIZE(event_names); i++)
		m |= 1ull << event_names[i].bit;
	return m;
}

static void desc_events(struct words *w, uint64_t v)
{
	say(w, "EV");
	for (size_t i = 0; i < ARRAY_SIZE(event_names); i++)
		if (v >> event_names[i].bit & 1)
			say(w, " %s", event_names[i].name);
}

/* a load, store or atomic's operation byte */
static void desc_ldst(struct words *w, unsigned v)
{
	static const struct {
		unsigned value, mask;
		const char *name;
	} sub[] = {
		{ 0x04, 0xfe, "SIMD-FP" }, { 0x00, 0xfe, "GP-REG" }, { 0x10, 0xfe, "UNSPEC-REG" },
		{ 0x30, 0xfe, "NV-SYSREG" }, { 0x14, 0xfe, "MTE-TAG" }, { 0x20, 0xfe, "MEMCPY" },
		{ 0x25, 0xff, "MEMSET" },
	};

	say(w, "%s", v & 1 ? "ST" : "LD");
	if ((v & 0xe2) == 0x02) { /* atomic, acquire/release, exclusive */
		if (v & 0x04)
			say(w, " AT");
		if (v & 0x08)
			say(w, " EXCL");
		if (v & 0x10)
			say(w, " AR");
	}
	for (size_t i = 0; i < ARRAY_SIZE(sub); i++)
		if ((v & sub[i].mask) == sub[i].value) {
			say(w, " %s", sub[i].name);
			break;
		}
	if ((v & 0x0a) == 0x08) { /* SVE: effective vector length */
		say(w, " EVLEN %u", 32u << ((v >> 4) & 7));
		if (v & 0x04)
			say(w, " PRED");
		if (v & 0x80)
			say(w, " SG");
	}
}

static bool desc_op(struct words *w, const struct spe_packet *p)
{
	unsigned v = (unsigned)p->payload;

	switch (p->index) {
	case SPE_OP_OTHER:
		if ((v & 0x89) == 0x08) {
			say(w, "SVE-OTHER EVLEN %u", 32u << ((v >> 4) & 7));
			if (v & 0x02)
				say(w, " FP");
			if (v & 0x04)
				say(w, " PRED");
		} else {
			say(w, "OTHER %s", v & 1 ? "COND-SELECT" : "INSN-OTHER");
		}
		return true;
	case SPE_OP_LDST:
		desc_ldst(w, v);
		return true;
	case SPE_OP_BRANCH:
		say(w, "B");
		if (v & 1)
			say(w, " COND");
		if (v & 2)
			say(w, " IND");
		return true;
	default:
		return false;
	}
}

static bool desc_addr(struct words *w, const struct spe_packet *p)
{
	static const char *const names[] = { "PC", "TGT", "VA", "PA", "PBT" };
	uint64_t v = p->payload, a = v & ((1ull << 56) - 1);

	switch (p->index) {
	case SPE_ADDR_PC:
	case SPE_ADDR_TARGET:
	case SPE_ADDR_PREV_TARGET:
		say(w, "%s 0x%" PRIx64 " el%u ns=%u", names[p->index], a, (unsigned)(v >> 61 & 3),
		    (unsigned)(v >> 63));
		return true;
	case SPE_ADDR_DATA_VA:
		say(w, "VA 0x%" PRIx64, v);
		return true;
	case SPE_ADDR_DATA_PA:
		say(w, "PA 0x%" PRIx64 " ns=%u ch=%u pat=%x", a, (unsigned)(v >> 63), (unsigned)(v >> 62 & 1),
		    (unsigned)(v >> 56 & 0xf));
		return true;
	default:
		return false;
	}
}

bool spe_packet_desc(const struct spe_packet *p, char *out, size_t n)
{
	static const char *const kind_names[] = {
		[SPE_PAD] = "PAD", [SPE_END] = "END", [SPE_TIMESTAMP] = "TS", [SPE_EVENTS] = "EV",
		[SPE_DATA_SOURCE] = "DATA-SOURCE", [SPE_CONTEXT] = "CONTEXT", [SPE_OP_TYPE] = "OP-TYPE",
		[SPE_ADDRESS] = "ADDR", [SPE_COUNTER] = "LAT", [SPE_BAD] = "BAD",
	};
	static const char *const lat_names[] = { "TOT", "ISSUE", "XLAT" };
	struct words w = { out, n };
	bool known = true;

	if (n)
		out[0] = '\0';
	switch (p->kind) {
	case SPE_PAD:
	case SPE_END:
		say(&w, "%s", kind_names[p->kind]);
		break;
	case SPE_BAD:
		say(&w, "Bad packet!");
		return false;
	case SPE_TIMESTAMP:
	case SPE_DATA_SOURCE:
		say(&w, "%s %" PRIu64, kind_names[p->kind], p->payload);
		break;
	case SPE_EVENTS:
		desc_events(&w, p->payload);
		break;
	case SPE_CONTEXT:
		say(&w, "CONTEXT 0x%" PRIx64 " el%u", p->payload, p->index + 1);
		break;
	case SPE_OP_TYPE:
		known = desc_op(&w, p);
		break;
	case SPE_ADDRESS:
		known = desc_addr(&w, p);
		break;
	case SPE_COUNTER:
		/* an unknown index keeps the words of a counter, as perf's */
		say(&w, "LAT %u %s", (unsigned)(p->payload & 0xffff),
		    p->index < ARRAY_SIZE(lat_names) ? lat_names[p->index] : "");
		known = p->index < ARRAY_SIZE(lat_names);
		return known;
	}
	if (!known) {
		w = (struct words){ out, n };
		say(&w, "%s 0x%" PRIx64 " (%u)", kind_names[p->kind], p->payload, p->index);
	}
	return known;
}

/* ----- records ----- */

uint64_t spe_code_addr(uint64_t payload)
{
	uint64_t a = payload & ((1ull << 56) - 1);
	unsigned el = (unsigned)(payload >> 61 & 3);

	if ((payload >> 63) && (el == 1 || el == 2))
		a |= 0xffull << 56;
	return a;
}

uint64_t spe_data_addr(uint64_t payload)
{
	uint64_t a = payload & ((1ull << 56) - 1);

	if ((a >> 52 & 0xf) == 0xf)
		a |= 0xffull << 56;
	return a;
}

/* what the record keeps of a packet; what it cannot use is counted */
static void take(struct spe_decoder *d, const struct spe_packet *p, struct spe_unknown *u)
{
	struct spe_record *r = &d->cur;

	d->open = true;
	switch (p->kind) {
	case SPE_EVENTS: {
		/* bits past the payload do not exist: zero anyway */
		uint64_t odd = p->payload & ~named_events();

		r->events = p->payload;
		if (odd) {
			u->event_bits++;
			u->event_bit_mask |= odd;
		}
		break;
	}
	case SPE_DATA_SOURCE:
		r->source = p->payload;
		break;
	case SPE_CONTEXT:
		r->context = (uint32_t)p->payload;
		r->has_context = true;
		break;
	case SPE_OP_TYPE:
		if (p->index > SPE_OP_BRANCH) {
			u->op_class++;
			break;
		}
		r->has_op = true;
		r->op_class = (uint8_t)p->index;
		r->op = (uint8_t)p->payload;
		break;
	case SPE_ADDRESS:
		if (p->index == SPE_ADDR_PC)
			r->pc = spe_code_addr(p->payload);
		else if (p->index == SPE_ADDR_TARGET)
			r->target = spe_code_addr(p->payload);
		else if (p->index == SPE_ADDR_DATA_VA)
			r->va = spe_data_addr(p->payload);
		else if (p->index == SPE_ADDR_DATA_PA)
			r->pa = p->payload & ((1ull << 56) - 1);
		else if (p->index != SPE_ADDR_PREV_TARGET) {
			u->addr_index++;
			u->addr_index_mask |= 1u << p->index;
		}
		break;
	case SPE_COUNTER:
		if (p->index < 3) {
			r->lat[p->index] = (uint16_t)p->payload;
		} else {
			u->counter_index++;
			u->counter_index_mask |= 1u << p->index;
		}
		break;
	case SPE_BAD:
		u->bad_headers++;
		break;
	default:
		break;
	}
}

void spe_decode(struct spe_decoder *d, const uint8_t *buf, size_t len, uint64_t base,
		struct spe_unknown *u, void (*emit)(void *ctx, const struct spe_record *rec), void *ctx)
{
	size_t pos = 0;

	while (pos < len) {
		struct spe_packet p;

		if (!spe_packet_get(buf + pos, len - pos, base + pos, &p)) {
			u->cut++;
			return;
		}
		pos += p.len;
		if (p.kind == SPE_PAD)
			continue;
		if (p.kind == SPE_END || p.kind == SPE_TIMESTAMP) {
			if (p.kind == SPE_TIMESTAMP)
				d->cur.timestamp = p.payload;
			u->records++;
			emit(ctx, &d->cur);
			memset(&d->cur, 0, sizeof(d->cur));
			d->open = false;
			continue;
		}
		take(d, &p, u);
	}
}

void spe_dump(FILE *out, const uint8_t *buf, size_t len, uint64_t base, struct spe_unknown *u)
{
	size_t pos = 0;
	char desc[160];

	fprintf(out, ". ... ARM SPE data: size %#zx bytes\n", len);
	while (pos < len) {
		struct spe_packet p;
		size_t n;
		unsigned i;

		if (!spe_packet_get(buf + pos, len - pos, base + pos, &p)) {
			u->cut++;
			p.len = 1; /* said byte by byte, as perf does */
			snprintf(desc, sizeof(desc), "Bad packet!");
		} else {
			if (p.kind == SPE_PAD) /* a run of padding on one line */
				while (p.len < 16 && pos + p.len < len && !buf[pos + p.len])
					p.len++;
			struct spe_decoder scratch = { 0 };

			spe_packet_desc(&p, desc, sizeof(desc));
			take(&scratch, &p, u); /* counts what is not known */
		}
		n = p.len;
		fprintf(out, ".  %08" PRIx64 ": ", (uint64_t)pos);
		for (i = 0; i < n && i < 16; i++)
			fprintf(out, " %02x", buf[pos + i]);
		for (; i < 16; i++)
			fputs("   ", out);
		fprintf(out, " %s\n", desc);
		pos += n;
	}
}

static void list_bits(struct words *w, uint64_t mask)
{
	const char *sep = " ";

	for (unsigned b = 0; b < 64; b++)
		if (mask >> b & 1) {
			say(w, "%s%u", sep, b);
			sep = ",";
		}
}

void spe_unknown_note(const struct spe_unknown *u, char *out, size_t n)
{
	struct words w = { out, n };
	bool first = true;

	if (!n)
		return;
	out[0] = '\0';
#define PART(cond, ...)                          \
	do {                                     \
		if (!(cond))                     \
			break;                   \
		if (!first)                      \
			say(&w, ", ");           \
		first = false;                   \
		say(&w, __VA_ARGS__);            \
	} while (0)
	PART(u->bad_headers, "%" PRIu64 " reserved header byte%s", u->bad_headers, u->bad_headers == 1 ? "" : "s");
	PART(u->cut, "%" PRIu64 " packet%s cut by the end of a buffer", u->cut, u->cut == 1 ? "" : "s");
	if (u->addr_index) {
		PART(true, "%" PRIu64 " address packet%s of index", u->addr_index, u->addr_index == 1 ? "" : "s");
		list_bits(&w, u->addr_index_mask);
	}
	if (u->counter_index) {
		PART(true, "%" PRIu64 " counter packet%s of index", u->counter_index,
		     u->counter_index == 1 ? "" : "s");
		list_bits(&w, u->counter_index_mask);
	}
	PART(u->op_class, "%" PRIu64 " operation type packet%s of class 3", u->op_class, u->op_class == 1 ? "" : "s");
	if (u->event_bits) {
		PART(true, "%" PRIu64 " record%s with event bit", u->event_bits, u->event_bits == 1 ? "" : "s");
		list_bits(&w, u->event_bit_mask);
	}
	PART(u->lost_aux, "%" PRIu64 " AUX buffer%s the kernel flagged truncated or partial (trace lost)",
	     u->lost_aux, u->lost_aux == 1 ? "" : "s");
#undef PART
}

/* ----- synthesized samples ----- */

static const char *const synth_names[SPE_S_COUNT] = {
	"l1d-miss", "l1d-access", "llc-miss", "llc-access", "tlb-miss", "tlb-access",
	"branch-miss", "remote-access", "memory", "instructions",
};

const char *spe_synth_name(enum spe_synth s)
{
	return s < SPE_S_COUNT ? synth_names[s] : NULL;
}

/* the events of 2 bytes and more: bits 8 and up exist only there, and a
 * record whose events packet was short has them 0 */
unsigned spe_synth_events(const struct spe_record *rec, uint64_t data_src)
{
	static const struct {
		uint64_t ev;
		enum spe_synth s;
	} by_event[] = {
		{ SPE_EV_L1D_REFILL, SPE_S_L1D_MISS }, { SPE_EV_L1D_ACCESS, SPE_S_L1D_ACCESS },
		{ SPE_EV_LLC_MISS, SPE_S_LLC_MISS }, { SPE_EV_LLC_ACCESS, SPE_S_LLC_ACCESS },
		{ SPE_EV_TLB_WALK, SPE_S_TLB_MISS }, { SPE_EV_TLB_ACCESS, SPE_S_TLB_ACCESS },
		{ SPE_EV_MISPRED, SPE_S_BRANCH_MISS }, { SPE_EV_REMOTE, SPE_S_REMOTE_ACCESS },
	};
	unsigned out = 1u << SPE_S_INSTRUCTIONS;

	for (size_t i = 0; i < ARRAY_SIZE(by_event); i++)
		if (rec->events & by_event[i].ev)
			out |= 1u << by_event[i].s;
	if (data_src)
		out |= 1u << SPE_S_MEMORY;
	return out;
}

static uint64_t ds(uint64_t v, unsigned shift)
{
	return v << shift;
}

/* Neoverse N1, N2, V1: implementer Arm (0x41), the part number; any
 * variant and revision */
static bool neoverse(uint64_t midr)
{
	static const unsigned parts[] = { 0xd0c, 0xd49, 0xd40 };
	unsigned part = (unsigned)(midr >> 4 & 0xfff);

	if ((midr >> 24 & 0xff) != 0x41)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		if (part == parts[i])
			return true;
	return false;
}

/* the Neoverse data-source packet's values (their technical reference
 * manuals): where a load's data came from */
static uint64_t neoverse_source(const struct spe_record *rec)
{
	const uint64_t hit = PERF_MEM_LVL_HIT;

	if (rec->op & 1) /* a store: the packet says nothing of it */
		return ds(PERF_MEM_LVL_NA, DATA_SRC_LVL_SHIFT) | ds(PERF_MEM_LVLNUM_NA, DATA_SRC_LVLNUM_SHIFT) |
		       ds(PERF_MEM_SNOOP_NA, DATA_SRC_SNOOP_SHIFT);
	switch (rec->source) {
	case 0x0: /* L1D */
		return ds(PERF_MEM_LVL_L1 | hit, DATA_SRC_LVL_SHIFT) | ds(PERF_MEM_LVLNUM_L1, DATA_SRC_LVLNUM_SHIFT) |
		       ds(PERF_MEM_SNOOP_NONE, DATA_SRC_SNOOP_SHIFT);
	case 0x8: /* L2 */
		return ds(PERF_MEM_LVL_L2 | hit, DATA_SRC_LVL_SHIFT) | ds(PERF_MEM_LVLNUM_L2, DATA_SRC_LVLNUM_SHIFT) |
		       ds(PERF_MEM_SNOOP_NONE, DATA_SRC_SNOOP_SHIFT);
	case 0x9: /* a peer core's cache */
		return ds(PERF_MEM_LVL_L2 | hit, DATA_SRC_LVL_SHIFT) | ds(PERF_MEM_LVLNUM_L2, DATA_SRC_LVLNUM_SHIFT) |
		       ds(DATA_SRC_SNOOPX_PEER, DATA_SRC_SNOOPX_SHIFT);
	case 0xa: /* the local cluster, a peer cluster: cache to cache */
	case 0xc:
		return ds(PERF_MEM_LVL_L3 | hit, DATA_SRC_LVL_SHIFT) | ds(PERF_MEM_LVLNUM_L3, DATA_SRC_LVLNUM_SHIFT) |
		       ds(DATA_SRC_SNOOPX_PEER, DATA_SRC_SNOOPX_SHIFT);
	case 0xb: /* the system cache, taken as L3 */
		return ds(PERF_MEM_LVL_L3 | hit, DATA_SRC_LVL_SHIFT) | ds(PERF_MEM_LVLNUM_L3, DATA_SRC_LVLNUM_SHIFT) |
		       ds(PERF_MEM_SNOOP_HIT, DATA_SRC_SNOOP_SHIFT);
	case 0xd: /* the other socket, at a level it does not say */
		return ds(PERF_MEM_LVL_NA, DATA_SRC_LVL_SHIFT) | ds(PERF_MEM_LVLNUM_NA, DATA_SRC_LVLNUM_SHIFT) |
		       ds(1, DATA_SRC_REMOTE_SHIFT) | ds(DATA_SRC_SNOOPX_PEER, DATA_SRC_SNOOPX_SHIFT);
	case 0xe: /* DRAM */
		return ds(PERF_MEM_LVL_LOC_RAM | hit, DATA_SRC_LVL_SHIFT) |
		       ds(PERF_MEM_LVLNUM_RAM, DATA_SRC_LVLNUM_SHIFT) | ds(PERF_MEM_SNOOP_NONE, DATA_SRC_SNOOP_SHIFT);
	default:
		return 0;
	}
}

/* other CPUs: the level from the cache events alone */
static uint64_t generic_source(const struct spe_record *rec)
{
	uint64_t lvl = 0, v;

	if (rec->events & (SPE_EV_LLC_ACCESS | SPE_EV_LLC_MISS))
		lvl = PERF_MEM_LVL_L3 | (rec->events & SPE_EV_LLC_MISS ? PERF_MEM_LVL_MISS : PERF_MEM_LVL_HIT);
	else if (rec->events & (SPE_EV_L1D_ACCESS | SPE_EV_L1D_REFILL))
		lvl = PERF_MEM_LVL_L1 | (rec->events & SPE_EV_L1D_REFILL ? PERF_MEM_LVL_MISS : PERF_MEM_LVL_HIT);
	v = ds(lvl, DATA_SRC_LVL_SHIFT);
	if (rec->events & SPE_EV_REMOTE)
		v |= ds(1, DATA_SRC_REMOTE_SHIFT);
	return v;
}

uint64_t spe_data_src(const struct spe_record *rec, uint64_t midr)
{
	uint64_t v;

	if (!rec->has_op || rec->op_class != SPE_OP_LDST)
		return 0;
	v = ds(rec->op & 1 ? PERF_MEM_OP_STORE : PERF_MEM_OP_LOAD, DATA_SRC_OP_SHIFT);
	v |= neoverse(midr) ? neoverse_source(rec) : generic_source(rec);
	if (rec->events & (SPE_EV_TLB_ACCESS | SPE_EV_TLB_WALK))
		v |= ds(PERF_MEM_TLB_WK | (rec->events & SPE_EV_TLB_WALK ? PERF_MEM_TLB_MISS : PERF_MEM_TLB_HIT),
			DATA_SRC_TLB_SHIFT);
	return v;
}

uint64_t spe_midr_parse(const char *cpuid)
{
	char *end;
	unsigned long long v;

	if (!cpuid)
		return 0;
	v = strtoull(cpuid, &end, 16);
	return end == cpuid ? 0 : (uint64_t)v;
}
