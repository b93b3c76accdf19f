/* i18n.c: the language of messages, chosen once at start. */
#include <config.h>

#include <locale.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "i18n/i18n.h"

#ifdef ENABLE_NLS
bool i18n_active;
#endif

const char *i18n_pgettext(const char *ctx_msgid, const char *msgid)
{
#ifdef ENABLE_NLS
    if (!i18n_active)
        return msgid;
    const char *t = gettext(ctx_msgid);
    return t == ctx_msgid ? msgid : t;
#else
    (void)ctx_msgid;
    return msgid;
#endif
}

const char *i18n_language(void)
{
#ifdef ENABLE_NLS
    /* gettext of the empty string is the catalogue's header, with its "Language: vi" */
    static const char empty[] = "";
    const char *head = i18n_active ? gettext(empty) : empty;
    const char *l = strstr(head, "Language: ");
    if (l) {
        l += strlen("Language: ");
        if (strncmp(l, "vi", 2) == 0)
            return "vi";
        if (strncmp(l, "ru", 2) == 0)
            return "ru";
    }
#endif
    return "en";
}

bool i18n_known(const char *name)
{
    return strcmp(name, "en") == 0 || strcmp(name, "vi") == 0 || strcmp(name, "ru") == 0;
}

#ifdef ENABLE_NLS
static bool is_c_locale(const char *name)
{
    return !name || !*name || strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0;
}

/* The C locale with UTF-8 text, under either of glibc's spellings. */
static bool is_c_utf8_locale(const char *name)
{
    return name && (strcmp(name, "C.UTF-8") == 0 || strcmp(name, "C.utf8") == 0);
}

/* The locale the environment asks for messages, as setlocale(LC_MESSAGES, "") reads it. */
static const char *env_messages_locale(void)
{
    static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return v;
    }
    return NULL;
}
#endif

#ifdef ENABLE_NLS
/* DIR/locale for the directory DIR of the running program (/proc/self/exe), when it
 * holds a catalogue of ours: the build tree's locale/ beside build/arbiter. An
 * installed program has none beside it (bindir/locale does not exist). */
static bool i18n_dir_beside_program(char *buf, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0 || (size_t)n >= size - 1)
        return false;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return false;
    static const char tail[] = "/locale";
    if ((size_t)(slash - buf) + sizeof tail + sizeof "/vi/LC_MESSAGES/" PACKAGE ".mo" > size)
        return false;
    memcpy(slash, tail, sizeof tail);
    size_t len = strlen(buf);
    static const char *const langs[] = {"vi", "ru"};
    for (size_t i = 0; i < sizeof langs / sizeof langs[0]; i++) {
        snprintf(buf + len, size - len, "/%s/LC_MESSAGES/%s.mo", langs[i], PACKAGE);
        if (access(buf, R_OK) == 0) {
            buf[len] = '\0';
            return true;
        }
    }
    return false;
}
#endif

void i18n_init(const char *lang)
{
#ifdef ENABLE_NLS
    /* Only LC_MESSAGES comes from the environment. Numbers in reports (LC_NUMERIC),
     * character classes (LC_CTYPE) and collation stay "C", so reading records and the
     * bytes of every report never depend on the locale; messages are UTF-8 in every
     * locale (bind_textdomain_codeset below), as the reports are. */
    const char *loc = setlocale(LC_MESSAGES, "");
    if (lang && strcmp(lang, "en") == 0) {
        setlocale(LC_MESSAGES, "C"); /* the messages as written in the source */
    } else {
        if (lang)
            setenv("LANGUAGE", lang, 1);
        const char *language = getenv("LANGUAGE");
        bool asked = language && *language;
        if (!asked && !loc) {
            /* LANG=vi_VN.UTF-8 on a machine where that locale was never generated:
             * setlocale fails and glibc would fall back to English; the language is
             * still known from the name, so hand it to gettext as LANGUAGE (up to the
             * codeset: "vi_VN"). */
            const char *want = env_messages_locale();
            if (!is_c_locale(want)) {
                char name[64];
                size_t n = strcspn(want, ".@");
                if (n > 0 && n < sizeof name) {
                    memcpy(name, want, n);
                    name[n] = '\0';
                    setenv("LANGUAGE", name, 1);
                    asked = true;
                }
            }
        }
        /* glibc ignores LANGUAGE while LC_MESSAGES is "C" or "POSIX" (by design: POSIX
         * fixes the C locale's output), so LANGUAGE=vi with LANG unset would stay
         * English. C.UTF-8 is the C locale with UTF-8 text, and under it glibc reads
         * LANGUAGE: switch LC_MESSAGES to it when a language was asked for. */
        if (asked && is_c_locale(setlocale(LC_MESSAGES, NULL)) &&
            !setlocale(LC_MESSAGES, "C.UTF-8"))
            setlocale(LC_MESSAGES, "C.utf8");
    }
    /* ARBITER_LOCALEDIR: catalogues somewhere else than the installed ones (the tests
     * point it at the build tree's locale/, laid out as LL/LC_MESSAGES/arbiter.mo).
     * Else a build tree's program finds the catalogues beside itself (build/locale/,
     * made by 'make'), before the installed ones: a program run where it was built
     * speaks the language of its own sources, installed or not. */
    const char *dir = getenv("ARBITER_LOCALEDIR");
    char beside[4096];
    if (!(dir && *dir) && i18n_dir_beside_program(beside, sizeof beside))
        dir = beside;
    bindtextdomain(PACKAGE, dir && *dir ? dir : LOCALEDIR);
    bind_textdomain_codeset(PACKAGE, "UTF-8");
    /* strerror's messages come from the C library's own catalogue ("libc"), converted
     * to LC_CTYPE's codeset; LC_CTYPE stays "C" (ASCII), so without this a Vietnamese
     * or Russian system error came out as "Kh?ng c? t?p tin" or transliterated. */
    bind_textdomain_codeset("libc", "UTF-8");
    textdomain(PACKAGE);
    /* Under C.UTF-8 glibc translates only for a LANGUAGE asked for (above); without
     * one every message stays as written, and skipping gettext then saves its lookups
     * (about 500 instructions and a walk of the environment per message). */
    const char *messages = setlocale(LC_MESSAGES, NULL);
    const char *language = getenv("LANGUAGE");
    i18n_active = !is_c_locale(messages) &&
                  !(is_c_utf8_locale(messages) && !(language && *language));
#else
    (void)lang;
#endif
}
