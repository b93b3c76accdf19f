/* nag.h: Numeric Annotation Glyphs and the symbols written for them.
 *
 * PGN (section 10 of the 1994 standard) numbers annotations $0..$255. Readers also meet
 * suffix annotations ("!", "?!") and evaluation symbols, in ASCII ("+-", "=+") and in
 * Unicode ("±", "⩲", "∞"): nag_from_symbol maps each to its number. Writers go the other
 * way with nag_symbol (Unicode, as lichess and ChessBase print them) or nag_symbol_ascii
 * (plain ASCII, for export format; NULL where there is none, so write "$n").
 *
 * Extensions above 139 that are used widely are included: $140 "∆" (with the idea),
 * $146 "N" (novelty). Every other number passes through unchanged as "$n". */
#ifndef ARBITER_RECORD_NAG_H
#define ARBITER_RECORD_NAG_H

#include <stddef.h>

#define NAG_MAX 255

/* The NAG for a suffix annotation or evaluation symbol of len bytes (UTF-8), or -1 when
 * the text is not one we know. */
int nag_from_symbol(const char *text, size_t len);

/* The preferred symbol for NAG n, Unicode allowed ("!", "±", "⩲", "N"), or NULL. */
const char *nag_symbol(int n);

/* An ASCII symbol for NAG n ("!", "+/-", "+=") or NULL when only "$n" will do. */
const char *nag_symbol_ascii(int n);

/* A short English meaning for NAG n ("White has a decisive advantage"), or NULL for
 * numbers the standard leaves unassigned and no common convention names. */
const char *nag_meaning(int n);

#endif
