/* File paths for the toggle tool: join, create, relate directories. */
#ifndef TOGGLE_TOOLS_PATH_H
#define TOGGLE_TOOLS_PATH_H

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

#endif
