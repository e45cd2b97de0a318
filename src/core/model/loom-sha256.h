/* loom-sha256.h — SHA-256, as every file of a package is hashed.
 *
 * A package's manifest hashes every byte it holds, and an import hashes them again: GLib's
 * GChecksum computes SHA-256 in plain C at about 330 MB/s here, a sixth of an export's time.
 * Nettle uses the processor's SHA instructions when it has them (1.1 GB/s here) and plain C
 * otherwise. Same digests, same use as a GChecksum.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _LoomSha256 LoomSha256;

LoomSha256 *loom_sha256_new (void);
void        loom_sha256_update (LoomSha256 *self,
                                const void *data,
                                gsize       length);
/* The digest in lower-case hex, owned by @self; the hash is finished then, and takes no more
 * data. */
const char *loom_sha256_get_string (LoomSha256 *self);
void        loom_sha256_free (LoomSha256 *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomSha256, loom_sha256_free)

G_END_DECLS
