/* Status names and the thread-local last-error message. */
#include <stdarg.h>
#include <stdio.h>

#include "core.h"

static _Thread_local char last_error[512];

int toggle__error(int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

int toggle__short_array(const char *name, size_t len, const char *holder, size_t need)
{
    return toggle__error(TOGGLE_EBUFSIZE, "%s has %zu entries, %s %zu", name, len, holder, need);
}

const char *toggle_last_error(void)
{
    return last_error;
}

void toggle_clear_error(void)
{
    last_error[0] = '\0';
}

const char *toggle_status_name(int status)
{
    switch (status) {
    case TOGGLE_OK: return "TOGGLE_OK";
    case TOGGLE_EINVAL: return "TOGGLE_EINVAL";
    case TOGGLE_ENOMEM: return "TOGGLE_ENOMEM";
    case TOGGLE_EUNSUPPORTED: return "TOGGLE_EUNSUPPORTED";
    case TOGGLE_EPARSE: return "TOGGLE_EPARSE";
    case TOGGLE_ERANGE: return "TOGGLE_ERANGE";
    case TOGGLE_EBUFSIZE: return "TOGGLE_EBUFSIZE";
    case TOGGLE_EOVERFLOW: return "TOGGLE_EOVERFLOW";
    case TOGGLE_ENOSOLUTION: return "TOGGLE_ENOSOLUTION";
    case TOGGLE_EIO: return "TOGGLE_EIO";
    case TOGGLE_ITEROVER: return "TOGGLE_ITEROVER";
    case TOGGLE_ELIMIT: return "TOGGLE_ELIMIT";
    case TOGGLE_EINTERNAL: return "TOGGLE_EINTERNAL";
    case TOGGLE_ECANCELED: return "TOGGLE_ECANCELED";
    default: return "TOGGLE_UNKNOWN";
    }
}

uint32_t toggle_version_number(void)
{
    return TOGGLE_VERSION_NUMBER;
}

const char *toggle_version_string(void)
{
    return TOGGLE_VERSION_STRING;
}
