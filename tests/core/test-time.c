/* test-time.c — ISO 8601 times as the agents write them, and as GDateTime reads them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-time.h"

static gint64
reference (const char *iso)
{
  g_autoptr (GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr (GDateTime) dt = g_date_time_new_from_iso8601 (iso, utc);

  g_assert_nonnull (dt);
  return g_date_time_to_unix (dt) * 1000 + g_date_time_get_microsecond (dt) / 1000;
}

/* The fast path for "…Z" times agrees with GDateTime everywhere, fractions of any length
 * included; other shapes fall back to GDateTime. */
static void
test_from_iso_matches_gdatetime (void)
{
  static const char *const times[] = {
    "2026-11-29T18:42:28.123Z", "2026-11-29T18:42:28Z",          "2026-11-29T18:42:28.1Z",
    "2026-11-29T18:42:28.12Z",  "2026-11-29T18:42:28.123456Z",   "1970-01-01T00:00:00.000Z",
    "2024-02-29T23:59:59.999Z", "2000-03-01T00:00:00Z",          "1999-12-31T23:59:59.500Z",
    "2100-02-28T12:00:00Z",     "2026-01-01T00:00:00.000+02:00", "2025-06-30T10:15:00-07:00",
  };

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    g_assert_cmpint (loom_time_from_iso (times[i]), ==, reference (times[i]));

  g_assert_cmpint (loom_time_from_iso (NULL), ==, 0);
  g_assert_cmpint (loom_time_from_iso (""), ==, 0);
  g_assert_cmpint (loom_time_from_iso ("yesterday"), ==, 0);
  g_assert_cmpint (loom_time_from_iso ("2026-13-01T00:00:00Z"), ==, 0);
}

static void
test_round_trip (void)
{
  g_autofree char *iso = loom_time_to_iso (1764441748123);

  g_assert_cmpstr (iso, ==, "2025-11-29T18:42:28.123Z");
  g_assert_cmpint (loom_time_from_iso (iso), ==, 1764441748123);
  g_assert_null (loom_time_to_iso (0));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/time/from-iso-matches-gdatetime", test_from_iso_matches_gdatetime);
  g_test_add_func ("/time/round-trip", test_round_trip);

  return g_test_run ();
}
