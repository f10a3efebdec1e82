/* SPDX-License-Identifier: GPL-2.0-or-later */
/* protoc-c's code for profile.proto, calling protobuf-c through
 * protobuf_lib.h (the library loaded on first use, not linked). */
#include <config.h>

#include "protobuf_lib.h"

#include "profile.pb-c.c"
