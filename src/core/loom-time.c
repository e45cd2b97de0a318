/* loom-time.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-time.h"

gint64
loom_time_now_ms (void)
{
  return g_get_real_time () / 1000;
}

char *
loom_time_to_iso (gint64 ms)
{
  g_autoptr(GDateTime) dt = NULL;
  g_autofree char *seconds = NULL;

  if (ms == 0)
    return NULL;

  dt = g_date_time_new_from_unix_utc (ms / 1000);
  if (dt == NULL)
    return NULL;
  seconds = g_date_time_format (dt, "%Y-%m-%dT%H:%M:%S");
  return g_strdup_printf ("%s.%03dZ", seconds, (int)(((ms % 1000) + 1000) % 1000));
}

gint64
loom_time_from_iso (const char *iso)
{
  g_autoptr(GTimeZone) utc = NULL;
  g_autoptr(GDateTime) dt = NULL;

  if (iso == NULL || *iso == '\0')
    return 0;

  utc = g_time_zone_new_utc ();
  dt = g_date_time_new_from_iso8601 (iso, utc);
  if (dt == NULL)
    return 0;
  return g_date_time_to_unix (dt) * 1000 + g_date_time_get_microsecond (dt) / 1000;
}

char *
loom_time_to_date (gint64 ms)
{
  g_autoptr(GDateTime) utc = NULL;
  g_autoptr(GDateTime) local = NULL;

  if (ms == 0)
    return NULL;
  utc = g_date_time_new_from_unix_utc (ms / 1000);
  if (utc == NULL)
    return NULL;
  local = g_date_time_to_local (utc);
  return g_date_time_format (local, "%Y-%m-%d");
}
