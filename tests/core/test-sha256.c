/* test-sha256.c — LoomSha256 gives the digests GLib's GChecksum gives: the published vectors,
 * and texts of every length around the block size, whole and fed in uneven pieces.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-sha256.h"

static char *
hash_whole (const guint8 *data,
            gsize         length)
{
  g_autoptr (LoomSha256) sha = loom_sha256_new ();

  loom_sha256_update (sha, data, length);
  return g_strdup (loom_sha256_get_string (sha));
}

static void
test_vectors (void)
{
  static const struct
  {
    const char *text;
    const char *digest;
  } vectors[] = {
    /* FIPS 180-2, and the empty string. */
    { "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
    { "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
    { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (vectors); i++)
    {
      g_autofree char *digest = hash_whole ((const guint8 *)vectors[i].text,
                                            strlen (vectors[i].text));

      g_assert_cmpstr (digest, ==, vectors[i].digest);
    }
}

/* @length bytes of @data whole and in pieces of 1, 7 and 4,096 bytes: the GChecksum digest
 * each time, and the same string when asked again. */
static void
assert_like_gchecksum (const guint8 *data,
                       gsize         length)
{
  static const gsize pieces[] = { 1, 7, 4096 };
  g_autofree char   *expected = g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, length);
  g_autofree char   *whole = hash_whole (data, length);

  g_assert_cmpstr (whole, ==, expected);
  for (guint p = 0; p < G_N_ELEMENTS (pieces); p++)
    {
      g_autoptr (LoomSha256) sha = loom_sha256_new ();

      for (gsize at = 0; at < length; at += pieces[p])
        loom_sha256_update (sha, data + at, MIN (pieces[p], length - at));
      g_assert_cmpstr (loom_sha256_get_string (sha), ==, expected);
      g_assert_cmpstr (loom_sha256_get_string (sha), ==, expected);
    }
}

/* Every length from 0 to 300 bytes (the 64-byte blocks and their padding), and 1 MiB. */
static void
test_like_gchecksum (void)
{
  gsize   big = 1024 * 1024;
  guint8 *data = g_malloc (big);
  GRand  *rand = g_rand_new_with_seed (17);

  for (gsize i = 0; i < big; i++)
    data[i] = (guint8)g_rand_int_range (rand, 0, 256);
  for (gsize length = 0; length <= 300; length++)
    assert_like_gchecksum (data, length);
  assert_like_gchecksum (data, big);
  g_rand_free (rand);
  g_free (data);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/sha256/vectors", test_vectors);
  g_test_add_func ("/sha256/like-gchecksum", test_like_gchecksum);
  return g_test_run ();
}
