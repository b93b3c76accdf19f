/* article_writer.h: an article rewritten with each [game]...[/game] block normalised.
 *
 * Everything outside the blocks is copied byte for byte from the original file, which
 * is read a second time, front to back (so the input must be a file, and the byte
 * offsets the reader gave must be those of the file: UTF-8, not transcoded). Each
 * block between its "[game]" and its "[/game]" is replaced by "[game]", the canonical
 * WXF record (wxf_writer.h; its lines end in CR LF when the block's did) and "[/game]";
 * an evaluation written after "[/game]"
 * ("[b]∞[/b]") stays as it was, so the record does not repeat it after "}END". A block
 * that never closed (unterminated-block) or holds nothing (empty-block) is copied as it
 * is, and so is one the caller asks to keep (verbatim).
 *
 * Use: open, then article_writer_game for the games of the article in order, then
 * close (which copies the text after the last block). */
#ifndef ARBITER_WRITER_ARTICLE_WRITER_H
#define ARBITER_WRITER_ARTICLE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "record/record.h"
#include "writer/wxf_writer.h"

typedef struct article_writer article_writer;

/* Start the rewrite of the article in the file path onto out. NULL with a message in
 * err when the file cannot be opened (or out of memory). */
article_writer *article_writer_open(FILE *out, const char *path, char *err, size_t errsize);

/* The text from the end of the previous block up to g's block, then the block. False
 * with a message in err on a read or write error, or when the file's bytes at g's place
 * are not a [game] block (the file changed, or was transcoded). */
bool article_writer_game(article_writer *w, const rec_game *g, const wxf_write_options *opts,
                         bool verbatim, char *err, size_t errsize);

/* Copy the rest of the article and free w (also after a failure). False with a
 * message in err on a read or write error. */
bool article_writer_close(article_writer *w, char *err, size_t errsize);

#endif
