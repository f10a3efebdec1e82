/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Byte-level encoding helpers of the sample file (see smpl_codec.h).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/util.h"
#include "sample/smpl_codec.h"

/*
 * zlib's crc32 is this CRC-32, computed several bytes at a time: a report
 * checks every byte of the file, and the nibble table this replaced took
 * 1 ms of a 40 ms report for 300 KB of samples.  zlib takes a uInt length.
 */
uint32_t crc32_update(uint32_t crc, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len > 0) {
		uInt n = len > (1u << 30) ? 1u << 30 : (uInt)len;

		crc = (uint32_t)crc32(crc, p, n);
		p += n;
		len -= n;
	}
	return crc;
}

void ob_reserve(struct obuf *o, size_t more)
{
	if (o->cap - o->len >= more)
		return;
	while (o->cap - o->len < more)
		o->cap = o->cap ? o->cap * 2 : 256;
	o->b = xrealloc(o->b, o->cap);
}

void ob_bytes(struct obuf *o, const void *p, size_t n)
{
	ob_reserve(o, n);
	if (n)
		memcpy(o->b + o->len, p, n);
	o->len += n;
}

void ob_u8(struct obuf *o, uint8_t v)
{
	ob_reserve(o, 1);
	o->b[o->len++] = v;
}

void ob_u16(struct obuf *o, uint16_t v)
{
	ob_u8(o, (uint8_t)v);
	ob_u8(o, (uint8_t)(v >> 8));
}

void ob_u32(struct obuf *o, uint32_t v)
{
	ob_reserve(o, 4);
	put_le32(o->b + o->len, v);
	o->len += 4;
}

void ob_u64(struct obuf *o, uint64_t v)
{
	ob_u32(o, (uint32_t)v);
	ob_u32(o, (uint32_t)(v >> 32));
}

void ob_varint(struct obuf *o, uint64_t v)
{
	ob_reserve(o, VARINT_MAX);
	while (v >= 0x80) {
		o->b[o->len++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	o->b[o->len++] = (unsigned char)v;
}

/* zigzag: small magnitudes of either sign take few bytes */
void ob_svarint(struct obuf *o, int64_t v)
{
	ob_varint(o, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void ob_str(struct obuf *o, const char *s)
{
	size_t n = s ? strlen(s) : 0;

	ob_varint(o, n);
	ob_bytes(o, s, n);
}

void ob_free(struct obuf *o)
{
	free(o->b);
	memset(o, 0, sizeof(*o));
}

uint16_t get_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t get_le64(const unsigned char *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
	p[2] = (unsigned char)(v >> 16);
	p[3] = (unsigned char)(v >> 24);
}

int ib_u8(struct ibuf *i, uint8_t *v)
{
	if (ib_left(i) < 1)
		return -1;
	*v = *i->p++;
	return 0;
}

int ib_varint_long(struct ibuf *i, uint64_t *v)
{
	uint64_t r = 0;
	unsigned shift = 0;
	const unsigned char *p = i->p;

	while (p < i->end) {
		unsigned char b = *p++;

		/* the tenth byte may only hold the top bit of a u64 */
		if (shift == 63 && b > 1)
			return -1;
		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = r;
			i->p = p;
			return 0;
		}
		shift += 7;
		if (shift > 63)
			return -1;
	}
	return -1;
}

int ib_varint32(struct ibuf *i, uint32_t *v)
{
	uint64_t x;

	if (ib_varint(i, &x) || x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

int ib_svarint(struct ibuf *i, int64_t *v)
{
	uint64_t x;

	if (ib_varint(i, &x))
		return -1;
	*v = (int64_t)((x >> 1) ^ (~(x & 1) + 1));
	return 0;
}

int ib_str(struct ibuf *i, const char **s, size_t *len)
{
	uint64_t n;

	if (ib_varint(i, &n) || n > ib_left(i) || memchr(i->p, 0, (size_t)n))
		return -1;
	*s = (const char *)i->p;
	*len = (size_t)n;
	i->p += n;
	return 0;
}
