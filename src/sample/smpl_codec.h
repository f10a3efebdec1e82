/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Byte-level encoding of the pfmon sample file: explicit little-endian
 * integers, LEB128 varints, zigzag signed varints and CRC-32.  Nothing here
 * depends on the host's byte order or struct layout.
 */
#ifndef PFMON_SAMPLE_SMPL_CODEC_H
#define PFMON_SAMPLE_SMPL_CODEC_H

#include <stddef.h>
#include <stdint.h>

/* the longest LEB128 encoding of a u64 */
#define VARINT_MAX 10

/* CRC-32 (IEEE 802.3, reflected 0xEDB88320, as zlib and gzip) */
uint32_t crc32_update(uint32_t crc, const void *buf, size_t len);
static inline uint32_t crc32_buf(const void *buf, size_t len)
{
	return crc32_update(0, buf, len);
}

/* growing output buffer */
struct obuf {
	unsigned char *b;
	size_t len, cap;
};

void ob_reserve(struct obuf *o, size_t more);
void ob_bytes(struct obuf *o, const void *p, size_t n);
void ob_u8(struct obuf *o, uint8_t v);
void ob_u16(struct obuf *o, uint16_t v);
void ob_u32(struct obuf *o, uint32_t v);
void ob_u64(struct obuf *o, uint64_t v);
void ob_varint(struct obuf *o, uint64_t v);
void ob_svarint(struct obuf *o, int64_t v);
void ob_str(struct obuf *o, const char *s); /* varint length, bytes, no NUL */
void ob_free(struct obuf *o);

/* bounded input: every getter returns -1 rather than read past end */
struct ibuf {
	const unsigned char *p, *end;
};

static inline size_t ib_left(const struct ibuf *i)
{
	return (size_t)(i->end - i->p);
}

int ib_u8(struct ibuf *i, uint8_t *v);
int ib_varint_long(struct ibuf *i, uint64_t *v); /* also -1 on an over-long encoding */

/* Most of a sample file's numbers are deltas of one byte: those without a
 * call (a report decodes some ten a sample; 8% of its instructions). */
static inline int ib_varint(struct ibuf *i, uint64_t *v)
{
	if (i->p < i->end && !(*i->p & 0x80)) {
		*v = *i->p++;
		return 0;
	}
	return ib_varint_long(i, v);
}
int ib_varint32(struct ibuf *i, uint32_t *v);   /* also -1 when > UINT32_MAX */
int ib_svarint(struct ibuf *i, int64_t *v);
/* a string: varint length then bytes; *s points into the buffer, not
 * NUL-terminated; -1 if it overruns or holds a NUL */
int ib_str(struct ibuf *i, const char **s, size_t *len);

uint16_t get_le16(const unsigned char *p);
uint32_t get_le32(const unsigned char *p);
uint64_t get_le64(const unsigned char *p);
void put_le32(unsigned char *p, uint32_t v);

#endif
