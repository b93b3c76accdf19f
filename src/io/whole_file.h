/* whole_file.h: a file read whole, and a file replaced atomically (a temporary file
 * beside it, synced, then renamed over it), for the commands that rewrite files. */
#ifndef ARBITER_IO_WHOLE_FILE_H
#define ARBITER_IO_WHOLE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

/* The bytes of path, malloc'd (*len of them), or NULL with errno set. */
char *io_read_all(const char *path, size_t *len);

/* Write text to a new temporary file next to target (same folder, same extension: the
 * readers tell formats by it), with mode_of's permissions when not NULL, synced; its
 * name in name. False (nothing left behind) when it cannot. */
bool io_write_temp(const char *target, const char *text, size_t len, char *name, size_t size,
                   const struct stat *mode_of);

#endif
