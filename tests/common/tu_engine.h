/* The general prime engine of this build, for tests that force one:
 * FLINT, or the dense engine in a build without FLINT (meson
 * -Dflint=disabled; the test targets get TOGGLE_HAVE_FLINT from
 * tests/meson.build like the library does). */
#ifndef TOGGLE_TU_ENGINE_H
#define TOGGLE_TU_ENGINE_H

#include <toggle.h>

#ifdef TOGGLE_HAVE_FLINT
#define TU_ENGINE_PRIME TOGGLE_ENGINE_FLINT
#define TU_ENGINE_PRIME_NAME "flint"
#else
#define TU_ENGINE_PRIME TOGGLE_ENGINE_DENSE
#define TU_ENGINE_PRIME_NAME "dense"
#endif

#endif
