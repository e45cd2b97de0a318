/* loom-error.h — the error domain of every core operation.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define LOOM_ERROR (loom_error_quark ())

typedef enum
{
  LOOM_ERROR_FAILED,
  LOOM_ERROR_NOT_FOUND,
  LOOM_ERROR_AMBIGUOUS,
  LOOM_ERROR_INVALID_ARGUMENT,
  LOOM_ERROR_EXISTS,
  LOOM_ERROR_NEWER_SCHEMA,
  LOOM_ERROR_CORRUPT,
  LOOM_ERROR_DATABASE,
  LOOM_ERROR_IO,
  LOOM_ERROR_PARSE,
  LOOM_ERROR_KEYRING,
} LoomError;

GQuark loom_error_quark (void);

G_END_DECLS
