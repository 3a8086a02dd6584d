/* libtoggle: the umbrella header. Include this one. */
#ifndef TOGGLE_H
#define TOGGLE_H

#include "toggle/common.h"
#include "toggle/graph.h"
#include "toggle/system.h"
#include "toggle/solution.h"
#include "toggle/space.h"
#include "toggle/grid.h"
#include "toggle/render.h"
#include "toggle/symmetry.h"
#include "toggle/guard.h"
#include "toggle/steps.h"

#endif
