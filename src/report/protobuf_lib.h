/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * protobuf-c, loaded on first use (common/dynlib.h): only a pprof profile
 * is packed by it, and a linked protobuf-c cost every run, a count of
 * task-clock too, its mapping and relocations at start.  Include this
 * before "profile.pb-c.h": the functions the generated code calls, and its
 * one data symbol (the empty string of its string fields' defaults), are
 * renamed to pfmon's own, which call through the loaded library, so the
 * generated code stays as protoc-c writes it.  Call protobuf_lib_load()
 * before packing.
 */
#ifndef PFMON_REPORT_PROTOBUF_LIB_H
#define PFMON_REPORT_PROTOBUF_LIB_H

#ifndef PROTOBUF_LIB_WRAPPERS /* protobuf_lib.c defines the wrappers under these names */
#define protobuf_c_message_get_packed_size pf_protobuf_c_message_get_packed_size
#define protobuf_c_message_pack pf_protobuf_c_message_pack
#define protobuf_c_message_pack_to_buffer pf_protobuf_c_message_pack_to_buffer
#define protobuf_c_message_unpack pf_protobuf_c_message_unpack
#define protobuf_c_message_free_unpacked pf_protobuf_c_message_free_unpacked
#define protobuf_c_empty_string pf_protobuf_c_empty_string
#endif

#include <protobuf-c/protobuf-c.h>

#include "common/error.h"

/* 0 once protobuf-c is loaded (the first call loads it), or -1 with err
 * naming the library and why it cannot be loaded */
int protobuf_lib_load(struct pf_error *err);

#endif
