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

/* Files are written whole: to a temporary twin PATH.tmp, renamed over PATH
 * only once complete, so that an interrupted or failed write never leaves
 * a truncated PATH (a reader sees the old file or the new one). */
/* PATH.tmp, malloc'd; NULL when out of memory. */
char *path_tmp_name(const char *path);
/* Open PATH.tmp for writing; *tmp receives its name (malloc'd). NULL (and
 * *tmp NULL) when it cannot be opened. */
FILE *path_tmp_open(const char *path, char **tmp);
/* Close f; when ok and every write succeeded, rename tmp over path, else
 * remove tmp. Frees tmp. 0, or -1 (nothing at path changed). */
int path_tmp_commit(FILE *f, char *tmp, const char *path, int ok);
/* 0: dir is missing or empty; 1: it holds entries but not `marker`; 2: it
 * holds `marker`; -1: it cannot be read. */
int path_dir_state(const char *dir, const char *marker);
/* 1 when path is a regular file of at least one byte. */
int path_nonempty_file(const char *path);

#endif
