/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * jansson, loaded on first use (common/dynlib.h): pfmon reads JSON only
 * for --merge and --metrics-from, and a linked jansson cost every run,
 * a count of task-clock too, its mapping and relocations at start.
 * Include this instead of <jansson.h>: each jansson function pfmon calls
 * is renamed to a wrapper calling through the loaded library, those
 * jansson's own inline functions and macros call too (json_decref calls
 * json_delete, json_array_foreach json_array_get), so callers keep
 * jansson's names.  json_loads loads the library on its first call; a
 * reader calls json_lib_load() first to say why it cannot, naming it.
 */
#ifndef PFMON_RESULTS_JSON_LIB_H
#define PFMON_RESULTS_JSON_LIB_H

#ifndef JSON_LIB_WRAPPERS /* json_lib.c defines the wrappers under these names */
#define json_loads pf_json_loads
#define json_object_get pf_json_object_get
#define json_string_value pf_json_string_value
#define json_integer_value pf_json_integer_value
#define json_number_value pf_json_number_value
#define json_array_size pf_json_array_size
#define json_array_get pf_json_array_get
#define json_delete pf_json_delete
#endif

#include <jansson.h>

#include "common/error.h"

/* 0 once jansson is loaded (the first call loads it), or -1 with err
 * naming the library and why it cannot be loaded */
int json_lib_load(struct pf_error *err);

#endif
