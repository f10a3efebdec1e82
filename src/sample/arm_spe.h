/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Arm's Statistical Profiling Extension, the Itanium D-EAR's heir: the
 * packets an SPE unit writes into the AUX buffer (Arm Architecture
 * Reference Manual DDI0487, "Statistical Profiling Extension", packet
 * formats), their records (the packets of one sampled operation, ended by
 * a Timestamp or an End packet), and the samples perf synthesizes from a
 * record (tools/perf/util/arm-spe.c of Linux 6.1, checked against perf 6.1
 * on crafted files: tests/bats/spe.bats).
 *
 * Every read is bounded by the length given: a trace is hostile input.
 */
#ifndef PFMON_SAMPLE_ARM_SPE_H
#define PFMON_SAMPLE_ARM_SPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* PERF_RECORD_AUXTRACE_INFO's type of an SPE trace (perf's
 * PERF_AUXTRACE_ARM_SPE); priv[0] is the PMU type, priv[1] says per-CPU
 * mmaps */
#define SPE_AUXTRACE_TYPE 4
#define SPE_PRIV_PMU_TYPE 0
#define SPE_PRIV_PER_CPU 1
#define SPE_PRIV_MIN 2

enum spe_kind {
	SPE_PAD,         /* 0x00; an extended header of byte 1 0x00: alignment */
	SPE_END,         /* 0x01: a record without timestamp ends */
	SPE_TIMESTAMP,   /* 0x71: 8 bytes, ends a record */
	SPE_EVENTS,      /* 0b01ss0010 */
	SPE_DATA_SOURCE, /* 0b01ss0011: IMPLEMENTATION DEFINED */
	SPE_CONTEXT,     /* 0b011001ii: CONTEXTIDR_EL(ii+1), 4 bytes */
	SPE_OP_TYPE,     /* 0b010010cc: class cc, 1 byte */
	SPE_ADDRESS,     /* [0b001000ii] 0b10110iii: 8 bytes */
	SPE_COUNTER,     /* [0b001000ii] 0b10011iii: 2 bytes */
	SPE_BAD,         /* a reserved header: one byte skipped */
};

/* address packet indexes */
enum { SPE_ADDR_PC, SPE_ADDR_TARGET, SPE_ADDR_DATA_VA, SPE_ADDR_DATA_PA, SPE_ADDR_PREV_TARGET };
/* counter packet indexes: cycles */
enum { SPE_LAT_TOTAL, SPE_LAT_ISSUE, SPE_LAT_XLAT };
/* operation classes */
enum { SPE_OP_OTHER, SPE_OP_LDST, SPE_OP_BRANCH };

/* events packet bits */
#define SPE_EV_EXCEPTION  (1ull << 0)
#define SPE_EV_RETIRED    (1ull << 1)
#define SPE_EV_L1D_ACCESS (1ull << 2)
#define SPE_EV_L1D_REFILL (1ull << 3)
#define SPE_EV_TLB_ACCESS (1ull << 4)
#define SPE_EV_TLB_WALK   (1ull << 5)
#define SPE_EV_NOT_TAKEN  (1ull << 6)
#define SPE_EV_MISPRED    (1ull << 7)
#define SPE_EV_LLC_ACCESS (1ull << 8)
#define SPE_EV_LLC_MISS   (1ull << 9)
#define SPE_EV_REMOTE     (1ull << 10)
#define SPE_EV_ALIGNMENT  (1ull << 11)

struct spe_packet {
	enum spe_kind kind;
	unsigned len;         /* bytes, headers included */
	unsigned index;       /* address/counter index, context EL - 1, op class */
	unsigned payload_len; /* bytes */
	uint64_t payload;
};

/*
 * The packet at buf (len bytes left; at offset pos of the AUX buffer,
 * which alignment padding needs): 1, or 0 when the bytes end inside it.
 * A reserved header is SPE_BAD, one byte long.
 */
int spe_packet_get(const uint8_t *buf, size_t len, uint64_t pos, struct spe_packet *p);

/*
 * The packet's meaning in words, as perf report -D words it (Linux 6.1:
 * "PC 0x... el0 ns=1", "EV RETIRED L1D-ACCESS", "LAT 12 TOT"...), into
 * out; false when pfmon does not know all of it (a reserved index or
 * class: the words then give the raw payload and index, as perf does).
 */
bool spe_packet_desc(const struct spe_packet *p, char *out, size_t n);

/* one record: the packets of one sampled operation */
struct spe_record {
	uint64_t pc, target, va, pa; /* 0 when absent */
	uint64_t events;             /* bits of the events packet */
	uint64_t source;             /* data source packet */
	uint64_t timestamp;          /* 0: ended by End */
	uint32_t context;
	bool has_context, has_op;
	uint8_t op_class, op;        /* operation type packet */
	uint16_t lat[3];             /* total, issue, translation */
};

/* what a decoder met but could not use: said in one note, never dropped
 * without a word */
struct spe_unknown {
	uint64_t bad_headers;    /* reserved header bytes */
	uint64_t cut;            /* packets cut by the end of a buffer */
	uint64_t addr_index;     /* address packets of a reserved index */
	uint32_t addr_index_mask;
	uint64_t counter_index;  /* counter packets of a reserved index */
	uint32_t counter_index_mask;
	uint64_t op_class;       /* operation type packets of class 3 */
	uint64_t event_bits;     /* records with event bits pfmon does not name */
	uint64_t event_bit_mask;
	uint64_t lost_aux;       /* PERF_RECORD_AUX flagged truncated / partial */
	uint64_t records;        /* records decoded */
};

/* Each record of a buffer to emit; the record of a queue continues from one
 * buffer to the next (cur). */
struct spe_decoder {
	struct spe_record cur;
	bool open; /* cur has packets */
};

void spe_decode(struct spe_decoder *d, const uint8_t *buf, size_t len, uint64_t base,
		struct spe_unknown *u, void (*emit)(void *ctx, const struct spe_record *rec), void *ctx);

/* The buffer's packets, one line each: offset, bytes, meaning (perf report
 * -D's layout; runs of padding on one line, up to 16 bytes). */
void spe_dump(FILE *out, const uint8_t *buf, size_t len, uint64_t base, struct spe_unknown *u);

/* "3 reserved header bytes, 1 address packet of index 5, ..." into out,
 * empty when nothing was left undecoded */
void spe_unknown_note(const struct spe_unknown *u, char *out, size_t n);

/*
 * The samples perf synthesizes from a record: one event each (perf's
 * names), the conditions of Linux 6.1's arm-spe.c.
 */
enum spe_synth {
	SPE_S_L1D_MISS, SPE_S_L1D_ACCESS, SPE_S_LLC_MISS, SPE_S_LLC_ACCESS,
	SPE_S_TLB_MISS, SPE_S_TLB_ACCESS, SPE_S_BRANCH_MISS, SPE_S_REMOTE_ACCESS,
	SPE_S_MEMORY, SPE_S_INSTRUCTIONS, SPE_S_COUNT
};
const char *spe_synth_name(enum spe_synth s);
/* the events of rec: bit s for each synthesized event s */
unsigned spe_synth_events(const struct spe_record *rec, uint64_t data_src);

/* the PC or branch target: bits 55:0, the top byte filled with ones for a
 * non-secure EL1/EL2 address, as perf does */
uint64_t spe_code_addr(uint64_t payload);
/* the data virtual address: bits 55:0, the tag byte 0xff when 55:52 are */
uint64_t spe_data_addr(uint64_t payload);

/* perf's data_src of a record: by the Neoverse N1/N2/V1 data-source
 * encoding when the MIDR says so, else from the events alone (0: not a load
 * or store) */
uint64_t spe_data_src(const struct spe_record *rec, uint64_t midr);
/* the MIDR of a HEADER_CPUID string ("0x00000000410fd0c0"), 0 if none */
uint64_t spe_midr_parse(const char *cpuid);

#endif
