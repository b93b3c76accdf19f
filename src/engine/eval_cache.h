/* eval_cache.h: engine evaluations kept in an SQLite file, so that checking a book
 * again costs only the positions that changed. The key is the engine's name and
 * version, its options, the limit and the position (FEN without the move counters);
 * each worker opens its own connection; WAL and a busy timeout let them write at once. */
#ifndef ARBITER_ENGINE_EVAL_CACHE_H
#define ARBITER_ENGINE_EVAL_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/uci.h"

typedef struct eval_cache eval_cache;

/* Whether this build has SQLite (configure found libsqlite3). */
bool eval_cache_available(void);

/* $XDG_CACHE_HOME/arbiter/engine.sqlite (or ~/.cache/...) into buf. */
void eval_cache_default_path(char *buf, size_t size);

/* Open or create the cache file (and its directory). NULL with a sentence in err. */
eval_cache *eval_cache_open(const char *path, char *err, size_t errsize);

bool eval_cache_get(eval_cache *c, const char *key, uci_eval *out);
/* False when the write failed (the evaluation is still used, only not kept). */
bool eval_cache_put(eval_cache *c, const char *key, const uci_eval *ev);

void eval_cache_close(eval_cache *c);

#endif
