/* File paths for the toggle tool: join, create, relate directories. */
#ifndef TOGGLE_TOOLS_PATH_H
#define TOGGLE_TOOLS_PATH_H

#include <stdio.h>

/* "a/b", malloc'd; NULL when out of memory. */
char *path_join(const char *a, const char *b);
/* Create a directory and its missing parents (mkdir -p); 0 or -1 (errno set). */
int path_mkdirs(const char *path);
/* The absolute, normalised path of an existing directory (realpath),
 * malloc'd; NULL when it does not exist or out of memory. */
char *path_absolute(const char *dir);
/* Relative path from directory `from` to directory `to` (both absolute and
 * normalised, as realpath gives them): "." when equal. malloc'd; NULL when out
 * of memory. */
char *path_relative(const char *from, const char *to);

/* Writing a user's file. Every command that writes a file goes through
 * these, so that no command loses or clobbers one:
 * - the bytes go to a unique temporary beside the target (PATH.XXXXXX,
 *   created with O_EXCL: never an existing name, never through a symbolic
 *   link), which is flushed and fsync'd and only then renamed over PATH;
 *   a full disk, an error or a kill mid-write leaves the old PATH intact;
 * - a target that exists and is not a regular file (a directory, device,
 *   FIFO, socket) is never replaced; a symbolic link is replaced only as a
 *   link (its target is never written);
 * - an existing file is replaced only when the caller says so (--force, or
 *   a command whose documented contract is to rewrite its own file). */

/* Call once at start-up, before any thread: reads the process umask for the
 * temporaries' mode. */
void path_init(void);
/* 0 when PATH may be written: absent, or a regular file or symbolic link
 * and `replace` set (*existed then 1). -1 otherwise, with why (at most len
 * bytes) saying what stands in the way. existed may be NULL. */
int path_target_check(const char *path, int replace, int *existed, char *why, size_t len);
/* A fresh unique temporary beside PATH, created empty (O_EXCL) and closed,
 * for a writer that opens it by name (the library's toggle_render_file);
 * malloc'd; NULL (errno set) when it cannot be created. */
char *path_tmp_name(const char *path);
/* Create a unique temporary beside PATH and open it for writing; *tmp
 * receives its name (malloc'd). NULL (errno set, *tmp NULL) on failure. */
FILE *path_tmp_open(const char *path, char **tmp);
/* Finish a write: when ok and every write succeeded, flush, fsync and
 * close f, rename tmp over path and fsync its directory; else close f and
 * remove tmp. Frees tmp. 0, or -1 with errno set (nothing at path
 * changed). */
int path_tmp_commit(FILE *f, char *tmp, const char *path, int ok);
/* Rename a finished temporary written by name (path_tmp_name) over path,
 * after fsync; removes it on failure. Frees tmp. 0 or -1 (errno set). */
int path_tmp_finish(char *tmp, const char *path, int ok);
/* Write len bytes to path whole (path_tmp_open + path_tmp_commit).
 * 0, or -1 with errno set. */
int path_write_whole(const char *path, const void *buf, size_t len);

/* 0: dir is missing or empty; 1: it holds entries but not `marker`; 2: it
 * holds `marker`; -1: it cannot be read. */
int path_dir_state(const char *dir, const char *marker);
/* 1 when path is a regular file of at least one byte. */
int path_nonempty_file(const char *path);

#endif
