/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A zstd stream decoded piece by piece (see zstd_stream.h). */
#include <config.h>

#include <stdlib.h>
#include <zstd.h>

#include "common/dynlib.h"
#include "common/util.h"
#include "sample/zstd_stream.h"

struct libzstd {
	__typeof__(ZSTD_createDStream) *create;
	__typeof__(ZSTD_freeDStream) *free;
	__typeof__(ZSTD_initDStream) *init;
	__typeof__(ZSTD_decompressStream) *decompress;
	__typeof__(ZSTD_DStreamOutSize) *out_size;
	__typeof__(ZSTD_isError) *is_error;
	__typeof__(ZSTD_getErrorName) *error_name;
	__typeof__(ZSTD_createCCtx) *create_cctx;
	__typeof__(ZSTD_freeCCtx) *free_cctx;
	__typeof__(ZSTD_CCtx_setParameter) *set_parameter;
	__typeof__(ZSTD_compressStream2) *compress;
	__typeof__(ZSTD_CStreamOutSize) *compress_out_size;
};

#define ENTRY(field, name) DYNLIB_SYMBOL(struct libzstd, field, name)
static const struct dynlib_symbol symbols[] = {
	ENTRY(create, "ZSTD_createDStream"),   ENTRY(free, "ZSTD_freeDStream"),
	ENTRY(init, "ZSTD_initDStream"),       ENTRY(decompress, "ZSTD_decompressStream"),
	ENTRY(out_size, "ZSTD_DStreamOutSize"), ENTRY(is_error, "ZSTD_isError"),
	ENTRY(error_name, "ZSTD_getErrorName"),     ENTRY(create_cctx, "ZSTD_createCCtx"),
	ENTRY(free_cctx, "ZSTD_freeCCtx"),           ENTRY(set_parameter, "ZSTD_CCtx_setParameter"),
	ENTRY(compress, "ZSTD_compressStream2"),     ENTRY(compress_out_size, "ZSTD_CStreamOutSize"),
};
#undef ENTRY

struct zstd_stream {
	const struct libzstd *fn;
	ZSTD_DStream *ds;
};

/* the table, filled on the first call */
static const struct libzstd *libzstd(struct pf_error *err)
{
	static struct libzstd loaded;
	static struct dynlib_once once;

	return dynlib_open_once(&once, "libzstd", ZSTD_SONAME, symbols, ARRAY_SIZE(symbols), &loaded, err) ? NULL
													   : &loaded;
}

struct zstd_stream *zstd_stream_new(struct pf_error *err)
{
	const struct libzstd *fn = libzstd(err);
	struct zstd_stream *z;

	if (!fn)
		return NULL;
	z = xcalloc(1, sizeof(*z));
	z->fn = fn;
	z->ds = fn->create();
	if (!z->ds || fn->is_error(fn->init(z->ds))) {
		zstd_stream_free(z);
		pf_error_set(err, PF_E_NOMEM);
		return NULL;
	}
	return z;
}

/* room for at least want bytes at out's end */
static const char *make_room(size_t want, struct zstd_out *out)
{
	if (out->cap - out->len >= want)
		return NULL;
	if (out->len > out->max || want > out->max - out->len)
		return "the output would pass its bound";
	out->cap = out->cap ? out->cap : want;
	while (out->cap - out->len < want)
		out->cap = out->cap > out->max / 2 ? out->max : out->cap * 2;
	out->buf = xrealloc(out->buf, out->cap);
	return NULL;
}

const char *zstd_stream_decode(struct zstd_stream *z, const void *in, size_t n, struct zstd_out *out)
{
	ZSTD_inBuffer src = { in, n, 0 };

	/* until the input is used up and libzstd left room: it holds no more
	 * output for these bytes */
	for (;;) {
		const char *why = make_room(z->fn->out_size(), out);
		ZSTD_outBuffer dst;
		size_t rc;

		if (why)
			return why;
		dst = (ZSTD_outBuffer){ out->buf + out->len, out->cap - out->len, 0 };
		rc = z->fn->decompress(z->ds, &dst, &src);
		if (z->fn->is_error(rc))
			return z->fn->error_name(rc);
		out->len += dst.pos;
		if (src.pos == src.size && dst.pos < dst.size)
			return NULL;
	}
}

void zstd_stream_free(struct zstd_stream *z)
{
	if (!z)
		return;
	if (z->ds)
		z->fn->free(z->ds);
	free(z);
}

struct zstd_writer {
	const struct libzstd *fn;
	ZSTD_CCtx *cctx;
};

struct zstd_writer *zstd_writer_new(int level, struct pf_error *err)
{
	const struct libzstd *fn = libzstd(err);
	struct zstd_writer *z;

	if (!fn)
		return NULL;
	z = xcalloc(1, sizeof(*z));
	z->fn = fn;
	z->cctx = fn->create_cctx();
	if (!z->cctx || fn->is_error(fn->set_parameter(z->cctx, ZSTD_c_compressionLevel, level))) {
		zstd_writer_free(z);
		pf_error_set(err, PF_E_NOMEM);
		return NULL;
	}
	return z;
}

const char *zstd_writer_flush(struct zstd_writer *z, const void *in, size_t n, struct zstd_out *out)
{
	ZSTD_inBuffer src = { in, n, 0 };

	/* ZSTD_e_flush returns 0 once everything given is out */
	for (;;) {
		const char *why = make_room(z->fn->compress_out_size(), out);
		ZSTD_outBuffer dst;
		size_t left;

		if (why)
			return why;
		dst = (ZSTD_outBuffer){ out->buf + out->len, out->cap - out->len, 0 };
		left = z->fn->compress(z->cctx, &dst, &src, ZSTD_e_flush);
		if (z->fn->is_error(left))
			return z->fn->error_name(left);
		out->len += dst.pos;
		if (!left && src.pos == src.size)
			return NULL;
	}
}

void zstd_writer_free(struct zstd_writer *z)
{
	if (!z)
		return;
	if (z->cctx)
		z->fn->free_cctx(z->cctx);
	free(z);
}
