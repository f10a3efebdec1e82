/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A flame graph: call stacks merged into a tree of frames (each frame's
 * samples are its own and those of the frames above it), written as one
 * self-contained interactive SVG file.  The tree knows nothing of samples
 * or symbols: the profile gives it named stacks, root first.
 */
#ifndef PFMON_REPORT_FLAME_H
#define PFMON_REPORT_FLAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* what a frame is, for its colour */
enum flame_kind {
	FLAME_ALL,     /* the base: every sample */
	FLAME_PROCESS, /* a process's name: the root of its stacks */
	FLAME_USER,    /* a function of a user-space binary */
	FLAME_KERNEL,  /* a kernel function, the kernel lump or the guest kernel */
	FLAME_UNKNOWN, /* no symbol: "[unknown] (binary)" */
};

struct flame_frame {
	const char *name;
	const char *binary; /* the binary's (or kernel module's) name; NULL: none */
	enum flame_kind kind;
};

struct flame;

struct flame *flame_new(void);
void flame_free(struct flame *f);
/* count samples of the stack frames[0] (root) .. frames[n - 1] (leaf) */
void flame_add(struct flame *f, const struct flame_frame *frames, size_t n, uint64_t count);

struct flame_svg_opts {
	const char *title;
	const char *subtitle; /* NULL: none */
};

/* The SVG document: the same tree gives the same bytes. */
void flame_write_svg(struct flame *f, const struct flame_svg_opts *o, FILE *out);

#endif
