/* loom-backup-archive-verify.c — a container checked against the manifest it begins with.
 *
 * What a sweep needs before it archives a session: every byte of the backup read back and
 * found to be the package its manifest describes, without writing anything. The manifest is
 * the package's own (loom-export-package.c): "files" lists every other file, the sub-agents'
 * manifests included, each with its "path", "size" and "sha256". Its checks are those of
 * loom-package-import.c's, on a stream rather than a folder; they are kept here, small, because
 * the import's are woven into reading the rest of its manifest from a folder.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "loom-backup-archive-private.h"
#include "loom-error.h"
#include "loom-json-value.h"
#include "loom-sha256.h"

#define MANIFEST           "manifest.json"
/* A manifest lists files, not contents: anything larger is not one of ours. */
#define MANIFEST_MAX_BYTES (64 * 1024 * 1024)

typedef struct
{
  guint64  size;
  char     sha256[65];
  gboolean seen;
} Listed;

static gboolean
is_sha256_hex (const char *text)
{
  if (text == NULL || strlen (text) != 64)
    return FALSE;
  for (const char *p = text; *p; p++)
    {
      if (!g_ascii_isxdigit (*p))
        return FALSE;
    }
  return TRUE;
}

/* The manifest's bytes, grown as they arrive: its size field alone allocates nothing. */
static GByteArray *
read_manifest (LoomBackupArchiveReader *reader,
               guint64                  size,
               guint8                  *buffer,
               GCancellable            *cancellable,
               GError                 **error)
{
  g_autoptr (GByteArray) bytes = g_byte_array_new ();
  gssize n;

  if (size > MANIFEST_MAX_BYTES)
    {
      loom_backup_archive_set_corrupt (error, loom_backup_archive_reader_get_name (reader),
                                       MANIFEST,
                                       loom_backup_archive_reader_get_entry_offset (reader),
                                       "it is larger than any package’s manifest");
      return NULL;
    }
  while ((n = loom_backup_archive_reader_read (reader, buffer, LOOM_BACKUP_ARCHIVE_CHUNK,
                                               cancellable, error)) > 0)
    g_byte_array_append (bytes, buffer, (guint)n);
  return n == 0 ? g_steal_pointer (&bytes) : NULL;
}

/* The files the manifest lists, path → Listed; NULL with @error. */
static GHashTable *
parse_manifest (LoomBackupArchiveReader *reader,
                GByteArray              *text,
                guint64                  offset,
                GError                 **error)
{
  g_autoptr (LoomJsonDoc) doc = loom_json_doc_new ();
  g_autoptr (GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GError) parse_error = NULL;
  const char     *name = loom_backup_archive_reader_get_name (reader);
  const LoomJson *root, *files;

  /* The parser copies bytes above 0x7f as they are: its callers validate. */
  if (!g_utf8_validate ((const char *)text->data, (gssize)text->len, NULL))
    {
      loom_backup_archive_set_corrupt (error, name, MANIFEST, offset, "it is not UTF-8");
      return NULL;
    }
  root = loom_json_doc_parse (doc, (const char *)text->data, text->len, &parse_error);
  if (root == NULL || !loom_json_is_object (root) ||
      loom_json_member_int (root, "format_version", 0) < 1 ||
      !(files = loom_json_member_array (root, "files")))
    {
      loom_backup_archive_set_corrupt (error, name, MANIFEST, offset, "it is not a manifest%s%s",
                                       parse_error != NULL ? ": " : "",
                                       parse_error != NULL ? parse_error->message : "");
      return NULL;
    }
  for (gsize i = 0; i < loom_json_length (files); i++)
    {
      const LoomJson *file = loom_json_element (files, i);
      const char     *path = loom_json_member_string (file, "path");
      const char     *sha256 = loom_json_member_string (file, "sha256");
      gint64          size = loom_json_member_int (file, "size", -1);
      const char     *why = NULL;
      Listed         *entry;

      /* Strings from the parser are UTF-8 without a NUL: a path can be named. */
      if (path == NULL)
        why = "a file without a path";
      else if (loom_backup_archive_path_problem (path, strlen (path)) != NULL ||
               g_str_equal (path, MANIFEST))
        why = "a path outside the package";
      else if (!is_sha256_hex (sha256) ||
               loom_json_type (loom_json_member (file, "size")) != LOOM_JSON_INT || size < 0)
        why = "a file without a size and a SHA-256";
      else if (g_hash_table_contains (listed, path))
        why = "a file twice";
      if (why != NULL)
        {
          loom_backup_archive_set_corrupt (error, name, MANIFEST, offset, "it lists %s, “%s”", why,
                                           path != NULL ? path : "");
          return NULL;
        }
      entry = g_new0 (Listed, 1);
      entry->size = (guint64)size;
      for (guint j = 0; j < 64; j++)
        entry->sha256[j] = g_ascii_tolower (sha256[j]);
      g_hash_table_insert (listed, g_strdup (path), entry);
    }
  return g_steal_pointer (&listed);
}

/* Streams the current file through SHA-256 and compares it with what @listed says of it. */
static gboolean
check_file (LoomBackupArchiveReader *reader,
            const char              *path,
            guint64                  size,
            const Listed            *listed,
            guint8                  *buffer,
            GCancellable            *cancellable,
            GError                 **error)
{
  g_autoptr (LoomSha256) checksum = loom_sha256_new ();
  const char *name = loom_backup_archive_reader_get_name (reader);
  guint64     offset = loom_backup_archive_reader_get_entry_offset (reader);
  gssize      n;

  /* Its size is known before a byte of it is read. */
  if (size != listed->size)
    return loom_backup_archive_set_corrupt (error, name, path, offset,
                                            "it is not the size the manifest lists");
  while ((n = loom_backup_archive_reader_read (reader, buffer, LOOM_BACKUP_ARCHIVE_CHUNK,
                                               cancellable, error)) > 0)
    loom_sha256_update (checksum, buffer, (gsize)n);
  if (n < 0)
    return FALSE;
  if (strcmp (loom_sha256_get_string (checksum), listed->sha256) != 0)
    return loom_backup_archive_set_corrupt (error, name, path, offset,
                                            "it does not match the manifest’s SHA-256");
  return TRUE;
}

gboolean
loom_backup_archive_verify (GInputStream *stream,
                            const char   *name,
                            guint        *n_files,
                            GCancellable *cancellable,
                            GError      **error)
{
  g_autoptr (LoomBackupArchiveReader) reader = NULL;
  g_autoptr (GHashTable) listed = NULL;
  g_autoptr (GByteArray) text = NULL;
  g_autofree guint8  *buffer = NULL;
  GHashTableIter      iter;
  gpointer            key, value;
  LoomBackupEntryKind kind;
  const char         *path;
  guint64             size;
  const char         *missing = NULL;
  guint               n = 0;
  GError             *local = NULL;

  g_return_val_if_fail (G_IS_INPUT_STREAM (stream), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  reader = loom_backup_archive_reader_new (stream, name);
  name = loom_backup_archive_reader_get_name (reader);
  buffer = g_malloc (LOOM_BACKUP_ARCHIVE_CHUNK);

  if (!loom_backup_archive_reader_next (reader, &kind, &path, &size, cancellable, &local))
    {
      if (local != NULL)
        g_propagate_error (error, local);
      else
        loom_backup_archive_set_corrupt (error, name, NULL, 0, "it holds no package");
      return FALSE;
    }
  if (kind != LOOM_BACKUP_ENTRY_FILE || !g_str_equal (path, MANIFEST))
    return loom_backup_archive_set_corrupt (error, name, path,
                                            loom_backup_archive_reader_get_entry_offset (reader),
                                            "it does not begin with “%s”", MANIFEST);
  if (!(text = read_manifest (reader, size, buffer, cancellable, error)) ||
      !(listed = parse_manifest (reader, text, loom_backup_archive_reader_get_entry_offset (reader),
                                 error)))
    return FALSE;
  g_clear_pointer (&text, g_byte_array_unref);
  n++;

  while (loom_backup_archive_reader_next (reader, &kind, &path, &size, cancellable, &local))
    {
      Listed *entry;

      if (kind == LOOM_BACKUP_ENTRY_FOLDER)
        continue;
      if (!(entry = g_hash_table_lookup (listed, path)))
        return loom_backup_archive_set_corrupt (
          error, name, path, loom_backup_archive_reader_get_entry_offset (reader),
          "the manifest does not list it");
      if (!check_file (reader, path, size, entry, buffer, cancellable, error))
        return FALSE;
      entry->seen = TRUE;
      n++;
    }
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }

  /* The first missing path in byte order, so that the same backup gives the same message. */
  g_hash_table_iter_init (&iter, listed);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (!((Listed *)value)->seen && (missing == NULL || strcmp (key, missing) < 0))
        missing = key;
    }
  if (missing != NULL)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_CORRUPT,
                   "The backup “%s” lacks “%s”, which its manifest lists", name, missing);
      return FALSE;
    }
  if (n_files != NULL)
    *n_files = n;
  return TRUE;
}
