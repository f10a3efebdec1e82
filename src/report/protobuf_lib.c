/* SPDX-License-Identifier: GPL-2.0-or-later */
/* protobuf-c loaded on first use (see protobuf_lib.h). */
#include <config.h>

#define PROTOBUF_LIB_WRAPPERS
#include "protobuf_lib.h"

#include "common/dynlib.h"
#include "common/util.h"

/* the wrappers, with protobuf-c's own prototypes */
__typeof__(protobuf_c_message_get_packed_size) pf_protobuf_c_message_get_packed_size;
__typeof__(protobuf_c_message_pack) pf_protobuf_c_message_pack;
__typeof__(protobuf_c_message_pack_to_buffer) pf_protobuf_c_message_pack_to_buffer;
__typeof__(protobuf_c_message_unpack) pf_protobuf_c_message_unpack;
__typeof__(protobuf_c_message_free_unpacked) pf_protobuf_c_message_free_unpacked;

/* the library compares a string field with its descriptor's default, never
 * with its own empty string: ours serves the generated descriptors alike */
const char pf_protobuf_c_empty_string[] = "";

static struct {
	__typeof__(protobuf_c_message_get_packed_size) *get_packed_size;
	__typeof__(protobuf_c_message_pack) *pack;
	__typeof__(protobuf_c_message_pack_to_buffer) *pack_to_buffer;
	__typeof__(protobuf_c_message_unpack) *unpack;
	__typeof__(protobuf_c_message_free_unpacked) *free_unpacked;
} lib;

#define ENTRY(field, symbol) DYNLIB_SYMBOL(__typeof__(lib), field, symbol)
static const struct dynlib_symbol symbols[] = {
	ENTRY(get_packed_size, "protobuf_c_message_get_packed_size"),
	ENTRY(pack, "protobuf_c_message_pack"),
	ENTRY(pack_to_buffer, "protobuf_c_message_pack_to_buffer"),
	ENTRY(unpack, "protobuf_c_message_unpack"),
	ENTRY(free_unpacked, "protobuf_c_message_free_unpacked"),
};
#undef ENTRY

int protobuf_lib_load(struct pf_error *err)
{
	static struct dynlib_once once;

	/* the soname pfmon was built against: its ABI */
	return dynlib_open_once(&once, "protobuf-c", PROTOBUF_C_SONAME, symbols, ARRAY_SIZE(symbols), &lib, err);
}

size_t pf_protobuf_c_message_get_packed_size(const ProtobufCMessage *message)
{
	return lib.get_packed_size(message);
}

size_t pf_protobuf_c_message_pack(const ProtobufCMessage *message, uint8_t *out)
{
	return lib.pack(message, out);
}

size_t pf_protobuf_c_message_pack_to_buffer(const ProtobufCMessage *message, ProtobufCBuffer *buffer)
{
	return lib.pack_to_buffer(message, buffer);
}

ProtobufCMessage *pf_protobuf_c_message_unpack(const ProtobufCMessageDescriptor *descriptor,
					       ProtobufCAllocator *allocator, size_t len, const uint8_t *data)
{
	return lib.unpack(descriptor, allocator, len, data);
}

void pf_protobuf_c_message_free_unpacked(ProtobufCMessage *message, ProtobufCAllocator *allocator)
{
	lib.free_unpacked(message, allocator);
}
