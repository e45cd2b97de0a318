/* loom-error.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-error.h"

G_DEFINE_QUARK (loom - error - quark, loom_error)
