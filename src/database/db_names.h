/* db_names.h: the identity of a player (or event, site) name, and the grouping of the
 * spellings of one name within a run.
 *
 * db_name_key() is pure: it folds case, accents, punctuation and spacing, the forms
 * "Surname, Given", "Surname,G", "Surname G." and traditional Chinese characters to
 * simplified ones, so that two spellings with equal keys name the same person for any
 * reader.  db_name_compatible() is the looser test "one could be the other" (an initial
 * for a given name); whether such a pair is one person depends on the rest of the run
 * (an initial that fits two full names is nobody's), which the grouping decides. */
#ifndef ARBITER_DB_NAMES_H
#define ARBITER_DB_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* Longest key kept; longer names are cut at a token boundary (PGN strings are at most
 * 255 characters, PGN standard 7). */
#define DB_NAME_KEY_MAX 256

/* Writes the key of NAME (UTF-8; a byte that is not UTF-8 is read as Latin-1) into OUT
 * (at most OUTSZ bytes, NUL-terminated) and returns its length.  The key is the name's
 * words in the written order, lower case, accents off, one space between words, the
 * comma after the surname dropped; CJK characters are kept (traditional ones made
 * simplified) with no space between them.  "?", "-", "" and names made only of
 * punctuation give the empty key (unknown: nobody). */
size_t db_name_key(const char *name, char *out, size_t outsz);

/* True when two keys may name one person: the same number of words or fewer words
 * ending in an initial, each word equal, or (after the first word, the surname) a
 * one-letter initial matching the other's word.  Equal keys are compatible; empty
 * keys are compatible with nothing. */
bool db_name_compatible(const char *key_a, const char *key_b);

/* True when KEY has a one-letter word (an initial) after its first word. */
bool db_name_has_initial(const char *key);

#endif
