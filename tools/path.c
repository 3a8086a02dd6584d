/* File paths for the toggle tool (path.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "path.h"

char *path_join(const char *a, const char *b)
{
    size_t l = strlen(a) + strlen(b) + 2;
    char *s = malloc(l);
    if (s)
        snprintf(s, l, "%s/%s", a, b);
    return s;
}

int path_mkdirs(const char *path)
{
    char *p = strdup(path);
    if (!p)
        return -1;
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = 0;
            if (mkdir(p, 0777) && errno != EEXIST) {
                free(p);
                return -1;
            }
            *s = '/';
        }
    int rc = mkdir(p, 0777) && errno != EEXIST ? -1 : 0;
    free(p);
    return rc;
}

char *path_absolute(const char *dir)
{
    return realpath(dir, NULL);
}

char *path_relative(const char *from, const char *to)
{
    size_t i = 0, common = 0;
    for (;; i++) {
        char a = from[i], b = to[i];
        if ((a == '/' || a == 0) && (b == '/' || b == 0))
            common = i; /* both at a component boundary */
        if (a != b || a == 0)
            break;
    }
    size_t ups = 0;
    for (const char *s = from + common; *s; s++)
        ups += *s == '/';
    if (!strcmp(from, "/"))
        ups = 0;
    const char *rest = to + common;
    while (*rest == '/')
        rest++;
    char *r = malloc(ups * 3 + strlen(rest) + 2);
    if (!r)
        return NULL;
    r[0] = 0;
    for (size_t u = 0; u < ups; u++)
        strcat(r, "../");
    strcat(r, rest);
    size_t l = strlen(r);
    if (l && r[l - 1] == '/')
        r[l - 1] = 0;
    if (!*r)
        strcpy(r, ".");
    return r;
}

/* ---- writing files whole ------------------------------------------------ */

char *path_tmp_name(const char *path)
{
    size_t l = strlen(path) + 5;
    char *t = malloc(l);
    if (t)
        snprintf(t, l, "%s.tmp", path);
    return t;
}

FILE *path_tmp_open(const char *path, char **tmp)
{
    *tmp = path_tmp_name(path);
    FILE *f = *tmp ? fopen(*tmp, "wb") : NULL;
    if (!f) {
        free(*tmp);
        *tmp = NULL;
    }
    return f;
}

int path_tmp_commit(FILE *f, char *tmp, const char *path, int ok)
{
    if (!f)
        return -1;
    int rc = ok && !ferror(f) ? 0 : -1;
    if (fclose(f))
        rc = -1;
    if (!rc && rename(tmp, path))
        rc = -1;
    if (rc)
        remove(tmp);
    free(tmp);
    return rc;
}

int path_dir_state(const char *dir, const char *marker)
{
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0 : -1;
    int entries = 0, marked = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        entries = 1;
        if (marker && !strcmp(e->d_name, marker))
            marked = 1;
    }
    closedir(d);
    return marked ? 2 : entries;
}

int path_nonempty_file(const char *path)
{
    struct stat st;
    return !stat(path, &st) && S_ISREG(st.st_mode) && st.st_size > 0;
}
