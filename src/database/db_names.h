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



/* ------------------------------------------------------------------ the run's names
 *
 * The spellings of the run, counted before the games are checked (a pre-pass over the
 * tag sections of the inputs, db_names_scan), then grouped (db_names_group): the
 * spellings whose keys are equal, and a spelling with an initial ("Carlsen, M") with
 * the one full name of its surname it fits ("Carlsen, Magnus"), when only one fits.
 * After grouping the table is read-only, so db_names_check may run in any thread and
 * gives every game the same findings for -j1 and -jN. Memory: one entry per distinct
 * spelling. */

#include <stdint.h>
#include <stdio.h>

#include "record/record.h"

typedef enum db_name_field { DB_NAME_PLAYER, DB_NAME_EVENT, DB_NAME_SITE, DB_NAME_FIELDS } db_name_field;

typedef struct db_names db_names;

db_names *db_names_new(void);
void db_names_free(db_names *t);

/* The field of tag NAME (White, Black, Red: player; Event; Site), or -1. */
int db_name_field_of(const char *tag);

/* Count one use of SPELLING (UTF-8) in FIELD. */
void db_names_add(db_names *t, db_name_field field, const char *spelling);

/* Count the White, Black, Red, Event and Site tags of the text input at PATH (its tag
 * lines "[Name "value"]"; Latin-1 values are read as the PGN reader reads them).
 * False when it cannot be read (stdin or a pipe cannot be read twice: not scanned). */
bool db_names_scan(db_names *t, const char *path);

/* db_names_scan of the N inputs at PATHS, up to JOBS files read at once (0: one per
 * core); the uses counted are those of scanning them one after another. The text of
 * a compressed input is kept for reading its games (input_keep_text: free what is
 * left with input_kept_free). */
void db_names_scan_all(db_names *t, char *const *paths, int n, int jobs);

/* Read a scid spelling file (.ssp): "@PLAYER", "@EVENT", "@SITE" sections; a line is a
 * canonical name ("#" starts its comment), "= alias" lines follow it; "%" lines
 * (ratings, biographies, substitutions) and other sections are skipped. False with a
 * message in ERR when the file cannot be read. */
bool db_names_load_spelling(db_names *t, const char *path, char *err, size_t errsize);

/* Group the spellings counted (call once, after every add and scan). */
void db_names_group(db_names *t);

/* The twin keys (db_names_twin_key) of a game's first White, Red, Black, Event and
 * Site tags, as db_names_check found their entries; NULL when the tag is missing or
 * empty or the table has no entry for it. db_keys_of_game takes them instead of
 * looking each name up a second time. */
typedef struct db_game_names {
    const char *white, *red, *black, *event, *site;
    uint16_t white_len, red_len, black_len, event_len, site_len;  /* their strlen */
} db_game_names;

/* Add name-variant findings to game g (tags spelt otherwise than their group's
 * majority, or than the spelling file's canonical name). Returns how many. FOUND, when
 * not NULL, gets the twin keys of the game's names. */
unsigned db_names_check(const db_names *t, rec_game *g, db_game_names *found);

/* The canonical spelling of SPELLING in FIELD when its group is unambiguous and it
 * differs (the spelling file's, else the majority's), or NULL. */
const char *db_names_canonical(const db_names *t, db_name_field field, const char *spelling);

/* The key twin search compares for SPELLING in FIELD: db_name_key of its canonical
 * spelling (or of itself when it has none), worked out once at grouping; NULL when
 * the run never counted the spelling. */
const char *db_names_twin_key(const db_names *t, db_name_field field, const char *spelling);

/* The variant groups (two spellings or more): YAML document / JSON Lines object
 * "name_variants", in a stable order; nothing when there are none. */
bool db_names_write_yaml(const db_names *t, FILE *out);
bool db_names_write_jsonl(const db_names *t, FILE *out);
size_t db_names_group_count(const db_names *t);

/* For measuring (tests/bench): the group number of SPELLING in FIELD, or -1. */
long db_names_group_of(const db_names *t, db_name_field field, const char *spelling);
#endif
