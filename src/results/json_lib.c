/* SPDX-License-Identifier: GPL-2.0-or-later */
/* jansson loaded on first use (see json_lib.h). */
#include <config.h>

#include <stdio.h>

#define JSON_LIB_WRAPPERS
#include "json_lib.h"

#include "common/dynlib.h"
#include "common/util.h"

/* the wrappers, with jansson's own prototypes */
__typeof__(json_loads) pf_json_loads;
__typeof__(json_object_get) pf_json_object_get;
__typeof__(json_string_value) pf_json_string_value;
__typeof__(json_integer_value) pf_json_integer_value;
__typeof__(json_number_value) pf_json_number_value;
__typeof__(json_array_size) pf_json_array_size;
__typeof__(json_array_get) pf_json_array_get;
__typeof__(json_delete) pf_json_delete;

static struct {
	__typeof__(json_loads) *loads;
	__typeof__(json_object_get) *object_get;
	__typeof__(json_string_value) *string_value;
	__typeof__(json_integer_value) *integer_value;
	__typeof__(json_number_value) *number_value;
	__typeof__(json_array_size) *array_size;
	__typeof__(json_array_get) *array_get;
	__typeof__(json_delete) *delete_;
} lib;

#define ENTRY(field, symbol) DYNLIB_SYMBOL(__typeof__(lib), field, symbol)
static const struct dynlib_symbol symbols[] = {
	ENTRY(loads, "json_loads"),
	ENTRY(object_get, "json_object_get"),
	ENTRY(string_value, "json_string_value"),
	ENTRY(integer_value, "json_integer_value"),
	ENTRY(number_value, "json_number_value"),
	ENTRY(array_size, "json_array_size"),
	ENTRY(array_get, "json_array_get"),
	ENTRY(delete_, "json_delete"),
};
#undef ENTRY

int json_lib_load(struct pf_error *err)
{
	static struct dynlib_once once;

	/* the soname pfmon was built against: its ABI */
	return dynlib_open_once(&once, "jansson", JANSSON_SONAME, symbols, ARRAY_SIZE(symbols), &lib, err);
}

/* every JSON value comes from here: the other wrappers need no check */
json_t *pf_json_loads(const char *input, size_t flags, json_error_t *error)
{
	struct pf_error err;

	if (json_lib_load(&err)) {
		if (error)
			snprintf(error->text, sizeof(error->text), "%.*s", (int)sizeof(error->text) - 1, err.msg);
		return NULL;
	}
	return lib.loads(input, flags, error);
}

json_t *pf_json_object_get(const json_t *object, const char *key)
{
	return lib.object_get(object, key);
}

const char *pf_json_string_value(const json_t *string)
{
	return lib.string_value(string);
}

json_int_t pf_json_integer_value(const json_t *integer)
{
	return lib.integer_value(integer);
}

double pf_json_number_value(const json_t *json)
{
	return lib.number_value(json);
}

size_t pf_json_array_size(const json_t *array)
{
	return lib.array_size(array);
}

json_t *pf_json_array_get(const json_t *array, size_t index)
{
	return lib.array_get(array, index);
}

void pf_json_delete(json_t *json)
{
	lib.delete_(json);
}
