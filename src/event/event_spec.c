/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <config.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/util.h"
#include "event_spec.h"

static bool valid_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.';
}

static int check_token(const char *text, const char *tok, struct pf_error *err)
{
	if (!*tok)
		return pf_error_set(err, PF_E_EVENT_SYNTAX, text, "empty qualifier after ':'");
	for (const char *p = tok; *p; p++)
		if (!valid_name_char(*p) && *p != '=')
			return pf_error_set(err, PF_E_EVENT_SYNTAX, text, "unexpected character in event string");
	return 0;
}

static int parse_qual(const char *text, char *tok, struct event_spec *spec, struct pf_error *err)
{
	char *eq = strchr(tok, '=');
	struct event_qual *q;

	if (check_token(text, tok, err))
		return -1;
	if (spec->n_quals == EVENT_SPEC_MAX_QUALS)
		return pf_error_set(err, PF_E_EVENT_SYNTAX, text, "too many qualifiers");
	if (eq && (eq == tok || !eq[1] || strchr(eq + 1, '=')))
		return pf_error_set(err, PF_E_EVENT_SYNTAX, text, "a modifier is written name=value");
	q = &spec->quals[spec->n_quals++];
	q->key = eq ? xstrndup(tok, (size_t)(eq - tok)) : xstrdup(tok);
	q->value = eq ? xstrdup(eq + 1) : NULL;
	return 0;
}

static int parse_name(const char *text, char *name, struct event_spec *spec, struct pf_error *err)
{
	char *dot = strchr(name, '.');

	if (dot) {
		const char *umask = dot + 1;
		size_t len = strlen(umask);

		*dot = '\0';
		/* the Itanium 2 manual's unit masks may hold dots: BR_MISPRED_DETAIL.ALL.ALL_PRED */
		if (!len || umask[0] == '.' || umask[len - 1] == '.' || strstr(umask, ".."))
			return pf_error_set(err, PF_E_EVENT_SYNTAX, text, "expected NAME.UMASK");
		spec->dot_umask = xstrdup(umask);
	}
	if (!*name)
		return pf_error_set(err, PF_E_EVENT_SYNTAX, text, "missing event name");
	for (const char *p = name; *p; p++)
		if (!valid_name_char(*p))
			return pf_error_set(err, PF_E_EVENT_SYNTAX, text, "unexpected character in event name");
	spec->name = xstrdup(name);
	return 0;
}

bool event_spec_pmu_form(const char *text)
{
	size_t n = strcspn(text, "/:");

	if (text[n] != '/' || !n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!valid_name_char(text[i]))
			return false;
	return true;
}

int event_spec_parse(const char *text, struct event_spec *spec, struct pf_error *err)
{
	char *copy, *rest, *tok, *sep;
	int rc = 0;

	memset(spec, 0, sizeof(*spec));
	spec->text = xstrdup(text);
	if (!*text)
		return pf_error_set(err, PF_E_EVENT_SYNTAX, text, "empty event name");
	if (strncasecmp(text, "mem:", 4) == 0) {
		/* perf's breakpoint form: its own grammar, the model checks it */
		spec->name = xstrdup("mem");
		spec->breakpoint = true;
		return 0;
	}
	if (event_spec_pmu_form(text)) {
		spec->name = xstrdup(text);
		spec->pmu_terms = true;
		return 0;
	}
	copy = xstrdup(text);
	rest = copy;
	sep = strstr(rest, "::");
	if (sep) {
		*sep = '\0';
		if (!*rest) {
			free(copy);
			return pf_error_set(err, PF_E_EVENT_SYNTAX, text, "missing PMU name before '::'");
		}
		spec->pmu = xstrdup(rest);
		rest = sep + 2;
	}
	tok = strsep(&rest, ":");
	rc = parse_name(text, tok, spec, err);
	while (!rc && rest) {
		tok = strsep(&rest, ":");
		rc = parse_qual(text, tok, spec, err);
	}
	free(copy);
	return rc;
}

void event_spec_release(struct event_spec *spec)
{
	free(spec->text);
	free(spec->pmu);
	free(spec->name);
	free(spec->dot_umask);
	for (size_t i = 0; i < spec->n_quals; i++) {
		free(spec->quals[i].key);
		free(spec->quals[i].value);
	}
	memset(spec, 0, sizeof(*spec));
}

/* the length of the event at the start of s: up to the next comma, past
 * the commas between a PMU form's two slashes */
static size_t event_len(const char *s)
{
	const char *close;

	if (!event_spec_pmu_form(s))
		return strcspn(s, ",");
	close = strchr(strchr(s, '/') + 1, '/');
	if (!close)
		return strlen(s); /* unterminated: the model says so */
	return (size_t)(close + 1 - s) + strcspn(close + 1, ",");
}

char **event_list_split(const char *list, size_t *count, struct pf_error *err)
{
	size_t n = 0;
	char **v = xcalloc(strlen(list) / 2 + 2, sizeof(*v));
	const char *p = list;

	for (;;) {
		size_t len = event_len(p);

		if (!len) {
			str_vec_free(v);
			pf_error_set(err, PF_E_EVENT_SYNTAX, list, "empty event name in list");
			return NULL;
		}
		v[n++] = xstrndup(p, len);
		if (!p[len])
			break;
		p += len + 1;
	}
	*count = n;
	return v;
}
