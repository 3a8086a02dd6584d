/* libtoggle: version, visibility and status codes shared by every header. */
#ifndef TOGGLE_COMMON_H
#define TOGGLE_COMMON_H

#include <stddef.h>
#include <stdint.h>

/** @def TOGGLE_API
 *  Marks a declaration as part of the public ABI: exported from the shared
 *  library (built with -fvisibility=hidden), empty for the library's users. */
#if defined(_WIN32) && defined(TOGGLE_BUILDING)
#define TOGGLE_API __declspec(dllexport)
#elif defined(__GNUC__) && defined(TOGGLE_BUILDING)
#define TOGGLE_API __attribute__((visibility("default")))
#else
#define TOGGLE_API
#endif

/** @def TOGGLE_DEPRECATED
 *  Marks a public function that a newer one replaces (see docs/abi.md): it
 *  keeps working, and compilers that can warn about its use do. */
#if defined(__GNUC__)
#define TOGGLE_DEPRECATED __attribute__((deprecated))
#else
#define TOGGLE_DEPRECATED
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** @file common.h
 *  @brief Version, status codes and error messages. */

/** Major version: changes only if the ABI breaks (never planned). */
#define TOGGLE_VERSION_MAJOR 1
/** Minor version: grows with every release that adds API. */
#define TOGGLE_VERSION_MINOR 1
/** Patch version: bug fixes only. */
#define TOGGLE_VERSION_PATCH 0
/** The version as one number: major * 10000 + minor * 100 + patch. */
#define TOGGLE_VERSION_NUMBER \
    (TOGGLE_VERSION_MAJOR * 10000 + TOGGLE_VERSION_MINOR * 100 + TOGGLE_VERSION_PATCH)
/** The version as a string. */
#define TOGGLE_VERSION_STRING "1.1.0"

/** Status codes. Their values are pinned forever; new ones are only added. */
enum {
    TOGGLE_OK = 0,             /**< success */
    TOGGLE_EINVAL = -1,        /**< an argument is invalid (NULL, zero or mismatched size, bad flag) */
    TOGGLE_ENOMEM = -2,        /**< out of memory, or the request exceeds the memory budget */
    TOGGLE_EUNSUPPORTED = -3,  /**< valid request the library (or the forced engine) cannot do */
    TOGGLE_EPARSE = -4,        /**< text input is malformed */
    TOGGLE_ERANGE = -5,        /**< a value is out of range (entry >= modulus, index >= size) */
    TOGGLE_EBUFSIZE = -6,      /**< a caller buffer is too small; the needed size is reported */
    TOGGLE_EOVERFLOW = -7,     /**< a result does not fit the requested integer type */
    TOGGLE_ENOSOLUTION = -8,   /**< the system has no solution (asked for one anyway) */
    TOGGLE_EIO = -9,           /**< a file could not be read or written */
    TOGGLE_ITEROVER = -10,     /**< an iterator has no more items (not an error) */
    TOGGLE_ELIMIT = -11,       /**< a step, time or size limit stopped the work */
    TOGGLE_EINTERNAL = -12,    /**< an internal invariant failed (please report it) */
    TOGGLE_ECANCELED = -13     /**< the progress callback asked to stop (1.1) */
};

/** Runtime version number, TOGGLE_VERSION_NUMBER of the library actually loaded. */
TOGGLE_API uint32_t toggle_version_number(void);

/** Runtime version string, for example "1.1.0". Static storage. */
TOGGLE_API const char *toggle_version_string(void);

/** Symbolic name of a status code ("TOGGLE_EINVAL"), or "TOGGLE_UNKNOWN".
 *  Static storage; never NULL. */
TOGGLE_API const char *toggle_status_name(int status);

/** Message describing the last failure on the calling thread, such as
 *  "row 3 has 5 entries, expected 6". Every failing call sets it; a
 *  successful call leaves it alone. Thread-local storage owned by the
 *  library, valid until the next libtoggle call on this thread; never NULL
 *  (empty string when there was no failure). */
TOGGLE_API const char *toggle_last_error(void);

/** Clear the calling thread's last error message. */
TOGGLE_API void toggle_clear_error(void);

#ifdef __cplusplus
}
#endif
#endif
