/* loom-sha256.c — SHA-256 through Nettle (see loom-sha256.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <nettle/sha2.h>

#include "loom-sha256.h"

struct _LoomSha256
{
  struct sha256_ctx context;
  char              hex[SHA256_DIGEST_SIZE * 2 + 1]; /* empty until finished */
};

LoomSha256 *
loom_sha256_new (void)
{
  LoomSha256 *self = g_new0 (LoomSha256, 1);

  sha256_init (&self->context);
  return self;
}

void
loom_sha256_update (LoomSha256 *self,
                    const void *data,
                    gsize       length)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (self->hex[0] == '\0');

  sha256_update (&self->context, length, data);
}

const char *
loom_sha256_get_string (LoomSha256 *self)
{
  static const char digits[] = "0123456789abcdef";
  guint8            digest[SHA256_DIGEST_SIZE];

  g_return_val_if_fail (self != NULL, NULL);

  if (self->hex[0] != '\0')
    return self->hex;
  sha256_digest (&self->context, sizeof digest, digest);
  for (guint i = 0; i < sizeof digest; i++)
    {
      self->hex[2 * i] = digits[digest[i] >> 4];
      self->hex[2 * i + 1] = digits[digest[i] & 0xf];
    }
  self->hex[sizeof self->hex - 1] = '\0';
  return self->hex;
}

void
loom_sha256_free (LoomSha256 *self)
{
  g_free (self);
}
