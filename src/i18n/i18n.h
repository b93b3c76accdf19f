/* i18n.h: messages in the user's language (GNU gettext).
 *
 *   _("text")         a message, translated where it is used
 *   N_("text")        marks a message in a static table; translate it with _() on use
 *   C_("ctx", "text") a message whose translation depends on a context (a word that
 *                     reads differently in two places: "check" the noun, "check" the
 *                     command)
 *   ngettext(one, many, n)  a message with a count
 *
 * The codes of findings, YAML and JSON keys and every identifier in a report stay
 * English; only the sentences a person reads are translated. */
#ifndef ARBITER_I18N_H
#define ARBITER_I18N_H

#include <stdbool.h>

#ifdef ENABLE_NLS
#include <libintl.h>
/* Whether messages are translated at all: false under the C locale, under C.UTF-8
 * without LANGUAGE (glibc translates nothing there either) and before i18n_init (as in
 * unit tests and fuzzers), where _() is then a load and a branch:
 * gettext itself costs about 500 instructions even when it finds nothing, and the
 * notation trials build thousands of reasons nobody reads. */
extern bool i18n_active;
/* format_arg: the translation of a format is a format with the same arguments (msgfmt -c
 * checks it), so -Wformat checks _("...")'s arguments against the literal and a call
 * with none is not "a format that is not a string literal" (-Wformat-security, which
 * Debian's default flags make an error), as it is for gettext itself. */
__attribute__((format_arg(1))) static inline char *i18n_gettext(const char *s)
{
    return i18n_active ? gettext(s) : (char *)s;
}
__attribute__((format_arg(1), format_arg(2)))
static inline char *i18n_ngettext(const char *one, const char *many, unsigned long n)
{
    return i18n_active ? (ngettext)(one, many, n) : (char *)(n == 1 ? one : many);
}
#define _(s) i18n_gettext(s)
#undef ngettext /* glibc defines it as a macro when optimising */
#define ngettext(one, many, n) i18n_ngettext(one, many, n)
#define C_(ctx, s) i18n_pgettext(ctx "\004" s, s)
#else
#define _(s) (s)
#define C_(ctx, s) (s)
#define ngettext(one, many, n) ((n) == 1 ? (one) : (many))
#endif
#define N_(s) s
#define NC_(ctx, s) s

/* gettext of "ctx\004msgid" (the form msgctxt entries take in a .mo file); msgid
 * itself when there is no translation. */
const char *i18n_pgettext(const char *ctx_msgid, const char *msgid) __attribute__((format_arg(2)));

/* Choose the language of messages: lang is "vi", "ru", "en" (from --lang) or NULL (the
 * environment: LANGUAGE, LC_ALL, LC_MESSAGES, LANG). Call once, first thing in main. */
void i18n_init(const char *lang);

/* The language messages are in: "vi", "ru" or "en" (the code of the catalogue in use,
 * from its header; "en" when none is), as HTML's lang attribute takes it. */
const char *i18n_language(void);

/* Whether name is a language arbiter speaks (for --lang): "en", "vi", "ru". */
bool i18n_known(const char *name);

#endif
