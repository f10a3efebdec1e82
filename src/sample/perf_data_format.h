/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The layout of perf.data (internal to perf_data_reader.c and
 * perf_data_writer.c), from tools/perf/Documentation/perf.data-file-format.txt
 * and tools/perf/util/header.h of the kernel tree.  Offsets rather than
 * structs: a file is bytes, read with memcpy at checked offsets.
 */
#ifndef PFMON_SAMPLE_PERF_DATA_FORMAT_H
#define PFMON_SAMPLE_PERF_DATA_FORMAT_H

#include <stdint.h>
#include <string.h>

/* struct perf_file_header: magic, size, attr_size, then three sections
 * (offset, size) and the feature bitmap */
#define PD_HEADER_SIZE 104
#define PD_OFF_MAGIC 0
#define PD_OFF_SIZE 8
#define PD_OFF_ATTR_SIZE 16
#define PD_OFF_ATTRS 24
#define PD_OFF_DATA 40
#define PD_OFF_EVENT_TYPES 56
#define PD_OFF_FEATURES 72
#define PD_FEAT_BITS 256
#define PD_SECTION_SIZE 16 /* struct perf_file_section: u64 offset, size */

/* the pipe layout's header is the magic and its size */
#define PD_PIPE_HEADER_SIZE 16

/* the first perf_event_attr (PERF_ATTR_SIZE_VER0) */
#define PD_ATTR_SIZE_VER0 64
/* what the writer writes: up to sample_max_stack (PERF_ATTR_SIZE_VER5),
 * which every perf since 4.x reads (a newer size makes older ones refuse) */
#define PD_ATTR_SIZE_WRITTEN 112

/* header features (enum in tools/perf/util/header.h): their bit numbers */
enum {
	PD_FEAT_TRACING_DATA = 1,
	PD_FEAT_BUILD_ID = 2,
	PD_FEAT_HOSTNAME = 3,
	PD_FEAT_OSRELEASE = 4,
	PD_FEAT_VERSION = 5,
	PD_FEAT_ARCH = 6,
	PD_FEAT_NRCPUS = 7,
	PD_FEAT_CPUID = 9,
	PD_FEAT_CMDLINE = 11,
	PD_FEAT_EVENT_DESC = 12,
	PD_FEAT_PMU_MAPPINGS = 16,
	PD_FEAT_COMPRESSED = 27,
	/* u32 count, then each capability's name and value strings */
	PD_FEAT_CPU_PMU_CAPS = 28,
};

/* strings of the header features: u32 length (a multiple of 64, the NUL
 * and padding included), then the bytes */
#define PD_NAME_ALIGN 64

/* the build-id section's records (struct perf_record_header_build_id):
 * perf_event_header, s32 pid, build_id[24] (20 bytes, their count in
 * byte 20 when misc has PD_MISC_BUILD_ID_SIZE), filename */
#define PD_BUILD_ID_REC_FIXED (8 + 4 + 24)
#define PD_MISC_BUILD_ID_SIZE (1u << 15)

/* records perf writes itself, not the kernel (PERF_RECORD_USER_TYPE_START
 * and after) */
#define PD_USER_TYPE_START 64
#define PD_RECORD_HEADER_ATTR 64         /* pipe mode: header, attr, u64 ids[] */
#define PD_RECORD_HEADER_TRACING_DATA 66 /* header, u32 size, u32 pad; size bytes follow */
#define PD_RECORD_HEADER_BUILD_ID 67     /* as a build-id section's record */
#define PD_RECORD_FINISHED_ROUND 68
#define PD_RECORD_AUXTRACE_INFO 70     /* header, u32 type, u32 reserved, u64 priv[] */
#define PD_RECORD_AUXTRACE 71
#define PD_AUXTRACE_FIXED (8 + 8 * 3 + 4 * 4) /* header, size, offset, reference, idx, tid, cpu, reserved */
#define PD_RECORD_TIME_CONV 79          /* header, u64 time_shift, time_mult, time_zero, ... */
#define PD_RECORD_HEADER_FEATURE 80      /* pipe mode: header, u64 feature, its section's bytes */
#define PD_RECORD_COMPRESSED 81          /* header, zstd bytes to header.size */
#define PD_RECORD_COMPRESSED2 83         /* header, u64 size, zstd bytes, padding */

/* native-order reads at offsets already checked */
static inline uint64_t pd_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t pd_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint16_t pd_u16(const unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#endif
