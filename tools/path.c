/* File paths for the toggle tool (path.h). */
#define _XOPEN_SOURCE 700 /* realpath, mkstemp, fchmod, strndup */
#define _DEFAULT_SOURCE /* O_DIRECTORY, O_NOFOLLOW */
#include <fcntl.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static mode_t file_mode = 0644;

void path_init(void)
{
    mode_t m = umask(022);
    umask(m);
    file_mode = (mode_t)(0666 & ~m);
}

int path_target_check(const char *path, int replace, int *existed, char *why, size_t len)
{
    struct stat st;
    if (existed)
        *existed = 0;
    if (lstat(path, &st)) {
        if (errno == ENOENT)
            return 0;
        snprintf(why, len, "cannot check '%s': %s", path, strerror(errno));
        return -1;
    }
    const char *kind = S_ISDIR(st.st_mode)    ? "a directory"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : NULL;
    if (kind) {
        snprintf(why, len, "'%s' is %s, not a regular file: not replaced", path, kind);
        return -1;
    }
    if (!replace) {
        snprintf(why, len, "'%s' exists: not replaced (give --force to replace it)", path);
        return -1;
    }
    if (existed)
        *existed = 1;
    return 0;
}

/* PATH.XXXXXX created with O_EXCL (mkstemp), mode as a new file's; the
 * descriptor, or -1 (errno set) with *tmp NULL. */
static int tmp_create(const char *path, char **tmp)
{
    size_t l = strlen(path) + 8;
    *tmp = malloc(l);
    if (!*tmp) {
        errno = ENOMEM;
        return -1;
    }
    snprintf(*tmp, l, "%s.XXXXXX", path);
    int fd = mkstemp(*tmp);
    if (fd < 0 || fchmod(fd, file_mode)) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            unlink(*tmp);
        }
        free(*tmp);
        *tmp = NULL;
        errno = e;
        return -1;
    }
    return fd;
}

char *path_tmp_name(const char *path)
{
    char *tmp;
    int fd = tmp_create(path, &tmp);
    if (fd >= 0)
        close(fd);
    return tmp;
}

FILE *path_tmp_open(const char *path, char **tmp)
{
    int fd = tmp_create(path, tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!f && fd >= 0) {
        int e = errno;
        close(fd);
        unlink(*tmp);
        free(*tmp);
        *tmp = NULL;
        errno = e;
    }
    return f;
}

/* fsync the directory holding path, so that the rename survives a crash. */
static void sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    int fd = dir ? open(dir, O_RDONLY | O_DIRECTORY) : -1;
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

/* Rename tmp over path when rc is 0 (then fsync the directory), else
 * remove tmp; frees tmp; errno e on failure. rc, or -1 when the rename
 * failed. */
static int tmp_settle(int rc, int e, char *tmp, const char *path)
{
    if (!rc && rename(tmp, path)) {
        rc = -1;
        e = errno;
    }
    if (rc)
        unlink(tmp);
    else
        sync_dir(path);
    free(tmp);
    errno = rc ? e : 0;
    return rc;
}

int path_tmp_commit(FILE *f, char *tmp, const char *path, int ok)
{
    if (!f)
        return -1;
    int rc = ok && !ferror(f) && !fflush(f) && !fsync(fileno(f)) ? 0 : -1;
    int e = rc ? errno : 0;
    if (fclose(f) && !rc) {
        rc = -1;
        e = errno;
    }
    return tmp_settle(rc, e ? e : EIO, tmp, path);
}

int path_tmp_finish(char *tmp, const char *path, int ok)
{
    int rc = -1, e = EIO;
    int fd = ok ? open(tmp, O_RDONLY | O_NOFOLLOW) : -1;
    if (fd >= 0) {
        rc = fsync(fd) ? -1 : 0;
        e = errno;
        close(fd);
    }
    return tmp_settle(rc, e, tmp, path);
}

int path_write_whole(const char *path, const void *buf, size_t len)
{
    char *tmp;
    FILE *f = path_tmp_open(path, &tmp);
    if (!f)
        return -1;
    return path_tmp_commit(f, tmp, path, fwrite(buf, 1, len, f) == len);
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
