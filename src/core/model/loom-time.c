/* loom-time.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-time.h"

gint64
loom_time_now_ms (void)
{
  return g_get_real_time () / 1000;
}

char *
loom_time_to_iso (gint64 ms)
{
  g_autoptr (GDateTime) dt = NULL;
  g_autofree char *seconds = NULL;

  if (ms == 0)
    return NULL;

  dt = g_date_time_new_from_unix_utc (ms / 1000);
  if (dt == NULL)
    return NULL;
  seconds = g_date_time_format (dt, "%Y-%m-%dT%H:%M:%S");
  return g_strdup_printf ("%s.%03dZ", seconds, (int)(((ms % 1000) + 1000) % 1000));
}

/* Days from 1970-01-01 to the given civil date (proleptic Gregorian), after Howard Hinnant's
 * days_from_civil. */
static gint64
days_from_civil (gint64 y,
                 guint  m,
                 guint  d)
{
  gint64 era;
  guint  yoe, doy, doe;

  y -= m <= 2;
  era = (y >= 0 ? y : y - 399) / 400;
  yoe = (guint)(y - era * 400);
  doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (gint64)doe - 719468;
}

static gboolean
read_digits (const char *p,
             guint       n,
             guint      *value)
{
  *value = 0;
  for (guint i = 0; i < n; i++)
    {
      if (!g_ascii_isdigit (p[i]))
        return FALSE;
      *value = *value * 10 + (guint)(p[i] - '0');
    }
  return TRUE;
}

/* The agents write "2026-11-29T18:42:28.123Z" millions of times: parse that shape directly and
 * leave everything else to GDateTime. */
static gboolean
parse_utc_fast (const char *iso,
                gint64     *ms)
{
  guint       year, month, day, hour, minute, second, fraction = 0, digits = 0;
  const char *p = iso + 19;

  if (strlen (iso) < 20 || iso[4] != '-' || iso[7] != '-' || iso[10] != 'T' || iso[13] != ':' ||
      iso[16] != ':' || !read_digits (iso, 4, &year) || !read_digits (iso + 5, 2, &month) ||
      !read_digits (iso + 8, 2, &day) || !read_digits (iso + 11, 2, &hour) ||
      !read_digits (iso + 14, 2, &minute) || !read_digits (iso + 17, 2, &second))
    return FALSE;

  if (*p == '.')
    {
      for (p++; g_ascii_isdigit (*p); p++, digits++)
        if (digits < 3)
          fraction = fraction * 10 + (guint)(*p - '0');
      for (guint i = digits; i < 3; i++)
        fraction *= 10;
    }
  if (p[0] != 'Z' || p[1] != '\0' || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 ||
      minute > 59 || second > 60)
    return FALSE;

  *ms = ((days_from_civil (year, month, day) * 24 + hour) * 60 + minute) * 60000 +
        (gint64)second * 1000 + fraction;
  return TRUE;
}

gint64
loom_time_from_iso (const char *iso)
{
  g_autoptr (GTimeZone) utc = NULL;
  g_autoptr (GDateTime) dt = NULL;

  gint64 ms;

  if (iso == NULL || *iso == '\0')
    return 0;
  if (parse_utc_fast (iso, &ms))
    return ms;

  utc = g_time_zone_new_utc ();
  dt = g_date_time_new_from_iso8601 (iso, utc);
  if (dt == NULL)
    return 0;
  return g_date_time_to_unix (dt) * 1000 + g_date_time_get_microsecond (dt) / 1000;
}

char *
loom_time_to_date (gint64 ms)
{
  g_autoptr (GDateTime) utc = NULL;
  g_autoptr (GDateTime) local = NULL;

  if (ms == 0)
    return NULL;
  utc = g_date_time_new_from_unix_utc (ms / 1000);
  if (utc == NULL)
    return NULL;
  local = g_date_time_to_local (utc);
  return g_date_time_format (local, "%Y-%m-%d");
}
