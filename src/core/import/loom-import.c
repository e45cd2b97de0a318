/* loom-import.c — importing agent files, each one incrementally.
 *
 * Per file a cursor remembers where the last pass stopped and what the file looked like then
 * (device, inode, size, mtime and a hash of a sample of the imported prefix). A file that did not
 * change is skipped without being read; a file that grew is read from where the last pass
 * stopped; a file that shrank, was replaced, changed without growing or whose prefix changed was
 * rewritten, and is read again from its start after what it gave before is cleared. A file new
 * to the store that the cursor of a file now gone recognises (take_over_moved ()) moved, and
 * takes that cursor and its sessions along. Files are written in batches, one
 * transaction each (see begin_batch ()), so an interrupted import never leaves half a file
 * behind.
 *
 * Which files a pass imports is loom-import-collect.c's business.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loom-error.h"
#include "loom-import-private.h"

#define BATCH_BYTES        (64 * 1024 * 1024)
#define BATCH_MICROSECONDS (G_USEC_PER_SEC / 2)

LoomImportStats *
loom_import_stats_new (void)
{
  LoomImportStats *stats = g_new0 (LoomImportStats, 1);

  stats->warnings = g_ptr_array_new_with_free_func (g_free);
  stats->failed_paths = g_ptr_array_new_with_free_func (g_free);
  stats->waiting = g_ptr_array_new_with_free_func (g_free);
  return stats;
}

void
loom_import_stats_free (LoomImportStats *stats)
{
  if (stats == NULL)
    return;
  g_clear_pointer (&stats->warnings, g_ptr_array_unref);
  g_clear_pointer (&stats->failed_paths, g_ptr_array_unref);
  g_clear_pointer (&stats->waiting, g_ptr_array_unref);
  g_free (stats);
}

/* ——— Cursors ——— */

/* A file that grew is read on from its cursor only if the bytes the cursor saw are still
 * there: its start and the bytes just before the cursor are hashed with the length.
 *
 * The start is the whole first line, up to a megabyte, and at least 4 KiB. Codex writes its
 * session_meta line again when a session is resumed, and that line carries the instructions
 * the model was given, often 20 KB of them: a new commit or branch written after the first
 * 4 KiB went unseen, and the file was read on as if only appended to. A first line is read
 * whole only when a file has grown, which is seldom more than once a second.
 *
 * Earlier versions hashed a fixed 4 KiB ("2:") and, first, 64 KiB twice (no prefix); their
 * hashes are still checked their way, and the next pass writes the new kind. */
#define SAMPLE_BYTES          (4 * 1024)
#define SAMPLE_BYTES_V1       (64 * 1024)
#define FIRST_LINE_LIMIT      (1024 * 1024)
#define SAMPLE_HASH_PREFIX    "3:"
#define SAMPLE_HASH_PREFIX_V2 "2:"

static gboolean
hash_range (GChecksum *checksum,
            int        fd,
            guint64    start,
            guint64    end)
{
  guchar buffer[16 * 1024];

  while (start < end)
    {
      gsize   want = (gsize)MIN ((guint64)sizeof buffer, end - start);
      ssize_t n = pread (fd, buffer, want, (off_t)start);

      if (n <= 0)
        return FALSE;
      g_checksum_update (checksum, buffer, n);
      start += (guint64)n;
    }
  return TRUE;
}

/* Hashes the file's first line with its newline, at least @floor and at most @limit bytes of
 * it: read once, hashed as it is read. */
static gboolean
hash_first_line (GChecksum *checksum,
                 int        fd,
                 guint64    floor,
                 guint64    limit)
{
  guchar  buffer[16 * 1024];
  guint64 at = 0, end = limit;

  while (at < end)
    {
      ssize_t n = pread (fd, buffer, (gsize)MIN ((guint64)sizeof buffer, end - at), (off_t)at);
      const guchar *newline;

      if (n <= 0)
        return FALSE;
      if (end == limit && (newline = memchr (buffer, '\n', (gsize)n)) != NULL)
        end = MIN (MAX (at + (guint64)(newline - buffer) + 1, floor), limit);
      n = (ssize_t)MIN ((guint64)n, end - at);
      g_checksum_update (checksum, buffer, n);
      at += (guint64)n;
    }
  return TRUE;
}

/* @head_bytes: 0 for the first line (the current kind), else a fixed sample. */
static char *
sample_hash_sized (const char *path,
                   guint64     offset,
                   gsize       head_bytes,
                   gsize       tail_bytes)
{
  g_autoptr (GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA256);
  g_autofree char *length = g_strdup_printf ("%" G_GUINT64_FORMAT, offset);
  guint64          tail_start = offset > tail_bytes ? offset - tail_bytes : 0;
  gboolean         ok;
  int              fd;

  if ((fd = open (path, O_RDONLY | O_CLOEXEC)) < 0)
    return NULL;
  ok = (head_bytes > 0 ? hash_range (checksum, fd, 0, MIN ((guint64)head_bytes, offset))
                       : hash_first_line (checksum, fd, MIN ((guint64)SAMPLE_BYTES, offset),
                                          MIN ((guint64)FIRST_LINE_LIMIT, offset))) &&
       hash_range (checksum, fd, tail_start, offset);
  close (fd);
  if (!ok)
    return NULL;

  g_checksum_update (checksum, (const guchar *)length, -1);
  return g_strdup (g_checksum_get_string (checksum));
}

static char *
sample_hash (const char *path,
             guint64     offset)
{
  g_autofree char *hash = sample_hash_sized (path, offset, 0, SAMPLE_BYTES);

  return hash != NULL ? g_strconcat (SAMPLE_HASH_PREFIX, hash, NULL) : NULL;
}

/* Whether the bytes up to @offset are those the cursor's @saved hash was taken of. */
static gboolean
sample_matches (const char *path,
                guint64     offset,
                const char *saved)
{
  g_autofree char *hash = NULL;

  if (saved == NULL)
    return FALSE;
  if (g_str_has_prefix (saved, SAMPLE_HASH_PREFIX))
    {
      hash = sample_hash (path, offset);
      return g_strcmp0 (hash, saved) == 0;
    }
  if (g_str_has_prefix (saved, SAMPLE_HASH_PREFIX_V2))
    {
      g_autofree char *v2 = sample_hash_sized (path, offset, SAMPLE_BYTES, SAMPLE_BYTES);

      return v2 != NULL && strcmp (saved + strlen (SAMPLE_HASH_PREFIX_V2), v2) == 0;
    }
  hash = sample_hash_sized (path, offset, SAMPLE_BYTES_V1, SAMPLE_BYTES_V1);
  return g_strcmp0 (hash, saved) == 0;
}

static gint64
mtime_of (const struct stat *st)
{
  return (gint64)st->st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st->st_mtim.tv_nsec;
}

static gboolean
save_cursor (LoomStoreWriter    *writer,
             const char         *path,
             const LoomImporter *importer,
             const struct stat  *st,
             guint64             offset,
             guint64             line,
             JsonObject         *state,
             GError            **error)
{
  g_autofree char *hash = sample_hash (path, offset);
  g_autoptr (JsonNode) node = json_node_new (JSON_NODE_OBJECT);
  g_autofree char *state_text = NULL;
  LoomStoreCursor  cursor = {
    0,
  };

  json_node_set_object (node, state);
  state_text = loom_json_to_string (node);

  cursor.device = (guint64)st->st_dev;
  cursor.inode = (guint64)st->st_ino;
  cursor.size = (guint64)st->st_size;
  cursor.mtime = mtime_of (st);
  cursor.offset = offset;
  cursor.line = line;
  cursor.prefix_hash = hash;
  cursor.state = state_text;
  return loom_store_writer_save_cursor (writer, path, importer->name, &cursor, error);
}

static JsonObject *
parse_state (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonNode *root;

  if (text == NULL || !json_parser_load_from_data (parser, text, -1, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  return root != NULL && JSON_NODE_HOLDS_OBJECT (root)
           ? json_object_ref (json_node_get_object (root))
           : NULL;
}

typedef enum
{
  MODE_UNCHANGED,
  MODE_APPEND,
  MODE_RESET,
} Mode;

static gboolean
is_whole_document (const LoomImportCandidate *candidate)
{
  return candidate->importer->whole_document || g_str_has_suffix (candidate->path, ".json");
}

static Mode
decide_mode (const LoomImportCandidate *candidate,
             const LoomStoreCursor     *cursor,
             const struct stat         *st)
{
  gint64 mtime = mtime_of (st);

  if (!cursor->found)
    return MODE_RESET;
  if (cursor->device == (guint64)st->st_dev && cursor->inode == (guint64)st->st_ino &&
      cursor->size == (guint64)st->st_size && cursor->mtime == mtime)
    return MODE_UNCHANGED;
  if (is_whole_document (candidate))
    return MODE_RESET;
  if (cursor->inode != (guint64)st->st_ino || (guint64)st->st_size < cursor->offset)
    return MODE_RESET;
  /* Changed but no longer: an append grows a file, so its bytes were written over in place (or
   * it was only touched). The sample below sees a few kilobytes of them, and what changed may
   * lie anywhere: only the content read again is sure. */
  if ((guint64)st->st_size == cursor->size)
    return MODE_RESET;

  if (!sample_matches (candidate->path, cursor->offset, cursor->prefix_hash))
    return MODE_RESET;
  return MODE_APPEND;
}

/* ——— Importing ——— */

/* A store made before paths were resolved (loom-import-paths.c) keyed the file by the path
 * it was reached by: its cursor and sessions move to the resolved one, or the file would be
 * read again from its start as a new one. */
static gboolean
take_over_cursor (LoomStoreWriter *writer,
                  const char      *spelled,
                  const char      *path,
                  LoomStoreCursor *cursor,
                  GError         **error)
{
  if (!loom_store_writer_load_cursor (writer, spelled, cursor, error))
    return FALSE;
  if (!cursor->found)
    return TRUE;
  return loom_store_writer_rename_file (writer, spelled, path, error);
}

/* Gone, not merely out of reach: a folder that cannot be listed, a drive that answers with an
 * error, leaves its sessions as they are. */
static gboolean
is_gone (const char *path)
{
  struct stat st;

  return stat (path, &st) != 0 && (errno == ENOENT || errno == ENOTDIR);
}

/* Files the cursor of one file under both its keys (see index_cursors ()). */
static void
index_cursor (const char *path,
              const char *source,
              gint64      device,
              gint64      inode,
              gpointer    data)
{
  GHashTable      *index = data;
  g_autofree char *name = g_path_get_basename (path);
  char            *keys[] = {
    g_strdup_printf ("%s\n%s", source, name),
    g_strdup_printf ("%s\n%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, source, device, inode),
  };

  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      GPtrArray *paths = g_hash_table_lookup (index, keys[k]);

      if (paths == NULL)
        {
          paths = g_ptr_array_new_with_free_func (g_free);
          g_hash_table_insert (index, g_strdup (keys[k]), paths);
        }
      g_ptr_array_add (paths, g_strdup (path));
      g_free (keys[k]);
    }
}

/* The cursors of a pass by their files' names and by "device:inode", for a file that moved:
 * read once, when a pass first meets a file without a cursor. Values are arrays of paths. */
static GHashTable *
index_cursors (LoomStoreWriter *writer,
               GError         **error)
{
  g_autoptr (GHashTable) index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify)g_ptr_array_unref);

  if (!loom_store_writer_foreach_cursor (writer, index_cursor, index, error))
    return NULL;
  return g_steal_pointer (&index);
}

/* Whether the file at @path is the one @cursor was saved for at a path now gone: the bytes the
 * cursor vouched for are there. */
static gboolean
same_content (const char            *path,
              const struct stat     *st,
              const LoomStoreCursor *cursor)
{
  return cursor->found && (guint64)st->st_size >= cursor->offset &&
         sample_matches (path, cursor->offset, cursor->prefix_hash);
}

/* A file without a cursor may be one that moved (Codex moves a rollout to archived_sessions/
 * when it is archived, and back): a cursor of the same format at a path now gone, of a file
 * with the same name or the same device and inode, whose bytes are this file's. Its cursor and
 * sessions move here, and the file is read on from where it was, not again. */
static gboolean
take_over_moved (LoomStoreWriter           *writer,
                 const LoomImportCandidate *candidate,
                 const struct stat         *st,
                 GHashTable               **cursors,
                 LoomStoreCursor           *cursor,
                 GError                   **error)
{
  g_autofree char *name = g_path_get_basename (candidate->path);
  g_autofree char *by_name = g_strdup_printf ("%s\n%s", candidate->importer->name, name);
  g_autofree char *by_inode = g_strdup_printf ("%s\n%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT,
                                               candidate->importer->name, (gint64)st->st_dev,
                                               (gint64)st->st_ino);
  const char      *keys[] = { by_inode, by_name };

  if (*cursors == NULL && !(*cursors = index_cursors (writer, error)))
    return FALSE;
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    {
      GPtrArray *paths = g_hash_table_lookup (*cursors, keys[k]);

      for (guint i = 0; paths != NULL && i < paths->len; i++)
        {
          const char     *from = g_ptr_array_index (paths, i);
          LoomStoreCursor old;
          gboolean        moved;

          if (strcmp (from, candidate->path) == 0 || !is_gone (from))
            continue;
          /* Read again, not trusted from the index: a batch undone since took it back. */
          if (!loom_store_writer_load_cursor (writer, from, &old, error))
            return FALSE;
          moved = same_content (candidate->path, st, &old);
          loom_store_cursor_clear (&old);
          if (!moved)
            continue;
          return loom_store_writer_move_file (writer, from, candidate->path, (guint64)st->st_dev,
                                              (guint64)st->st_ino, TRUE, error) &&
                 loom_store_writer_load_cursor (writer, candidate->path, cursor, error);
        }
    }
  return TRUE;
}

static gboolean
import_one (LoomStoreWriter           *writer,
            const LoomImportCandidate *candidate,
            GHashTable               **cursors,
            LoomImportStats           *stats,
            GError                   **error)
{
  g_autoptr (LoomImportFile) file = NULL;
  g_autoptr (JsonObject) state = NULL;
  LoomStoreCursor cursor;
  struct stat     st;
  Mode            mode;
  guint64         offset, line;

  if (stat (candidate->path, &st) != 0)
    {
      int saved_errno = errno;
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "%s: %s", candidate->path,
                   g_strerror (saved_errno));
      return FALSE;
    }

  if (!loom_store_writer_load_cursor (writer, candidate->path, &cursor, error))
    return FALSE;
  if (!cursor.found && candidate->spelled != NULL &&
      !take_over_cursor (writer, candidate->spelled, candidate->path, &cursor, error))
    return FALSE;
  if (!cursor.found && !take_over_moved (writer, candidate, &st, cursors, &cursor, error))
    return FALSE;
  mode = decide_mode (candidate, &cursor, &st);
  /* Saved by a version that keyed some sessions by their file's name: read on from the cursor,
   * which finds nothing new, for the format to check the file's identity (a whole document
   * needs no such look: its formats took the id from its content already). */
  if (mode == MODE_UNCHANGED && !is_whole_document (candidate) &&
      (cursor.state == NULL || strstr (cursor.state, "\"" LOOM_IMPORT_STATE_IDS "\"") == NULL))
    mode = MODE_APPEND;
  if (mode == MODE_UNCHANGED)
    {
      stats->files_unchanged++;
      loom_store_cursor_clear (&cursor);
      return TRUE;
    }

  offset = mode == MODE_APPEND ? cursor.offset : 0;
  line = mode == MODE_APPEND ? cursor.line : 0;
  if (mode == MODE_APPEND)
    state = parse_state (cursor.state);
  loom_store_cursor_clear (&cursor);

  /* No savepoint of its own: a file that fails takes its batch's transaction with it, and
   * import_all () reads the batch again without it. A whole document clears its rows itself,
   * once it knows the document is intact (loom_import_file_read_document ()). */
  if (mode == MODE_RESET && !g_str_has_suffix (candidate->path, ".json") &&
      !loom_store_writer_clear_file (writer, candidate->path, error))
    return FALSE;

  file = loom_import_file_new (writer, candidate->importer, stats, candidate->path,
                               mode == MODE_RESET, offset, line, state, error);
  if (file == NULL || !candidate->importer->import_file (file, error) || file->failed_to_read ||
      !loom_import_file_finish (file, error))
    {
      if (file != NULL && file->failed_to_read && error != NULL && *error == NULL)
        g_set_error (error, LOOM_ERROR, LOOM_ERROR_IO, "%s could not be read to its end",
                     candidate->path);
      return FALSE;
    }

  if (file->reader != NULL)
    {
      offset = loom_jsonl_reader_get_offset (file->reader);
      line = loom_jsonl_reader_get_lines_consumed (file->reader);
    }
  else
    {
      offset = (guint64)st.st_size;
      line = 0;
    }

  json_object_set_int_member (file->state, LOOM_IMPORT_STATE_IDS, 1);
  if (!save_cursor (writer, candidate->path, candidate->importer, &st, offset, line, file->state,
                    error))
    return FALSE;

  stats->files_imported++;
  stats->bytes += (guint64)st.st_size - (mode == MODE_APPEND ? cursor.offset : 0);
  return TRUE;
}

typedef struct
{
  GPtrArray *prefixes;
  GPtrArray *gone;
} GoneBelow;

static void
check_gone_below (const char *path,
                  gpointer    data)
{
  GoneBelow *below = data;

  for (guint r = 0; r < below->prefixes->len; r++)
    {
      if (g_str_has_prefix (path, g_ptr_array_index (below->prefixes, r)) && is_gone (path))
        {
          g_ptr_array_add (below->gone, g_strdup (path));
          break;
        }
    }
}

/* The files below @roots that have a cursor but are gone. */
static gboolean
find_gone_below (LoomStoreWriter *writer,
                 GPtrArray       *roots,
                 GPtrArray       *gone,
                 GError         **error)
{
  g_autoptr (GPtrArray) prefixes = g_ptr_array_new_with_free_func (g_free);
  GoneBelow below = { prefixes, gone };

  if (roots->len == 0)
    return TRUE;
  for (guint r = 0; r < roots->len; r++)
    g_ptr_array_add (prefixes, g_strconcat (g_ptr_array_index (roots, r), "/", NULL));

  return loom_store_writer_foreach_file (writer, check_gone_below, &below, error);
}

/* Those of the @deleted files that were imported, as a whole pass would find them. */
static gboolean
find_gone_named (LoomStoreWriter *writer,
                 GPtrArray       *deleted,
                 GPtrArray       *gone,
                 GError         **error)
{
  for (guint i = 0; i < deleted->len; i++)
    {
      const char *path = g_ptr_array_index (deleted, i);
      gboolean    known;

      if (!loom_store_writer_knows_file (writer, path, &known, error))
        return FALSE;
      /* Deleted and made again between the change and now: it imports next time. */
      if (known && is_gone (path))
        g_ptr_array_add (gone, g_strdup (path));
    }
  return TRUE;
}

/* A cursor of a file that is gone and that no session is named by has nothing left to keep,
 * and is dropped. Codex moves a session's file to archived_sessions/ when it is archived, and
 * back when it is unarchived: the session goes with the file, and the cursor left behind at the
 * old path, still seeing the file as it was, would take the file back for unchanged and leave
 * the session pointing at the archive, gone. Without it, the file is read again where it came
 * back to, as on its way out (nothing doubles: the rows are found by their ids). */
static gboolean
forget_cursor_of_no_session (LoomStoreWriter *writer,
                             const char      *gone,
                             GError         **error)
{
  return loom_store_writer_forget_file (writer, gone, error);
}

/* Sessions whose agent file is gone (Claude deletes transcripts after 30 days) stay, marked.
 * A whole pass looks for such files among the cursors below its @roots; a targeted pass only
 * at the @deleted files its changes named, which spares a stat() per file ever imported. */
static gboolean
mark_missing (LoomStoreWriter *writer,
              GPtrArray       *roots,
              GPtrArray       *deleted,
              LoomImportStats *stats,
              GError         **error)
{
  g_autoptr (GPtrArray) gone = g_ptr_array_new_with_free_func (g_free);

  if (!find_gone_below (writer, roots, gone, error) ||
      !find_gone_named (writer, deleted, gone, error))
    return FALSE;

  if (gone->len == 0)
    return TRUE;
  if (!loom_store_writer_begin (writer, error))
    return FALSE;
  for (guint i = 0; i < gone->len; i++)
    {
      if (!forget_cursor_of_no_session (writer, g_ptr_array_index (gone, i), error) ||
          !loom_store_writer_mark_file_missing (writer, g_ptr_array_index (gone, i),
                                                &stats->sessions_missing, error))
        goto fail;
    }
  return loom_store_writer_commit (writer, error);

fail:
  loom_store_writer_rollback (writer);
  return FALSE;
}

/* The candidate at @path, or NULL: @candidates are sorted by path. */
static const LoomImportCandidate *
find_candidate (GPtrArray  *candidates,
                const char *path)
{
  guint low = 0, high = candidates->len;

  while (low < high)
    {
      guint                      mid = low + (high - low) / 2;
      const LoomImportCandidate *candidate = g_ptr_array_index (candidates, mid);
      int                        order = strcmp (candidate->path, path);

      if (order == 0)
        return candidate;
      if (order < 0)
        low = mid + 1;
      else
        high = mid;
    }
  return NULL;
}

/* Sessions an earlier version marked missing though their file is there: back where it was
 * (deleted and restored, or a relative import's mark), or where it moved, which that version
 * did not follow (a Codex rollout archived and unarchived came back to a stale cursor taken for
 * unchanged). A whole pass looks for their files among its @candidates, by the same path, else
 * by the same name and content (see take_over_moved ()); an unchanged file is not read again,
 * so this is the only time they are found. */
static gboolean
repair_missing (LoomStoreWriter *writer,
                GPtrArray       *candidates,
                GError         **error)
{
  g_autoptr (GPtrArray) missing = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) by_name = NULL;

  if (!loom_store_writer_list_missing_files (writer, missing, error))
    return FALSE;
  if (missing->len == 0)
    return TRUE;

  by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < candidates->len; i++)
    {
      LoomImportCandidate *candidate = g_ptr_array_index (candidates, i);
      char                *name = g_path_get_basename (candidate->path);

      /* A name two candidates share is no evidence of either. */
      g_hash_table_insert (by_name, name, g_hash_table_contains (by_name, name) ? NULL : candidate);
    }

  if (!loom_store_writer_begin (writer, error))
    return FALSE;
  for (guint i = 0; i < missing->len; i++)
    {
      const char                *path = g_ptr_array_index (missing, i);
      g_autofree char           *name = g_path_get_basename (path);
      const LoomImportCandidate *candidate;
      struct stat                st;
      LoomStoreCursor            cursor, own;
      gboolean                   moved;

      if (find_candidate (candidates, path) != NULL)
        {
          if (!loom_store_writer_unmark_file_missing (writer, path, error))
            goto fail;
          continue;
        }
      if (!(candidate = g_hash_table_lookup (by_name, name)) || !is_gone (path) ||
          stat (candidate->path, &st) != 0)
        continue;
      if (!loom_store_writer_load_cursor (writer, path, &cursor, error))
        goto fail;
      moved = same_content (candidate->path, &st, &cursor);
      loom_store_cursor_clear (&cursor);
      if (!moved)
        continue;
      /* The file's own cursor, where it has one, is the one that saw it last. */
      if (!loom_store_writer_load_cursor (writer, candidate->path, &own, error))
        goto fail;
      moved = own.found;
      loom_store_cursor_clear (&own);
      if (!loom_store_writer_move_file (writer, path, candidate->path, (guint64)st.st_dev,
                                        (guint64)st.st_ino, !moved, error))
        goto fail;
    }
  return loom_store_writer_commit (writer, error);

fail:
  loom_store_writer_rollback (writer);
  return FALSE;
}

/* A batch is one transaction over consecutive files, whose new messages and events are indexed
 * for search in one go just before it commits (see schema_v2 in loom-schema.c). One commit per
 * file would flush a full-text segment each time and merge them over and over. A batch ends
 * after enough bytes or time for readers (the app's window) to see progress.
 *
 * A file that fails undoes its batch, and the batch's files are read again without it. A
 * savepoint per file would spare that, but SQLite then copies each page to a temporary file
 * before a file first changes it: 610 MB written for 40 MB of sessions. */
typedef struct
{
  gboolean        open;
  guint           first;      /* the index of its first file */
  LoomImportStats stats;      /* the stats when it began */
  guint           n_warnings; /* how many warnings they had */
  guint           n_waiting;  /* and how many of those were about a line being written */
  gint64          started;
  guint64         bytes;
} Batch;

static gboolean
begin_batch (LoomStoreWriter *writer,
             guint            first,
             LoomImportStats *stats,
             Batch           *batch,
             GError         **error)
{
  if (!loom_store_writer_begin_batch (writer, error))
    return FALSE;
  batch->open = TRUE;
  batch->first = first;
  batch->stats = *stats;
  batch->stats.warnings = NULL; /* kept in @stats, cut back to n_warnings */
  batch->n_warnings = stats->warnings->len;
  batch->n_waiting = stats->waiting->len;
  batch->started = g_get_monotonic_time ();
  batch->bytes = 0;
  return TRUE;
}

/* Rolls back the batch, and @stats to what they were when it began; returns the index of the
 * file to read again from. */
static guint
undo_batch (LoomStoreWriter *writer,
            LoomImportStats *stats,
            Batch           *batch)
{
  GPtrArray *warnings = stats->warnings;

  loom_store_writer_rollback (writer);
  *stats = batch->stats;
  g_ptr_array_set_size (warnings, batch->n_warnings);
  g_ptr_array_set_size (stats->waiting, batch->n_waiting);
  stats->warnings = warnings;
  batch->open = FALSE;
  return batch->first;
}

/* The warnings added to @stats since it had @from, moved out of it. */
static GPtrArray *
take_warnings (LoomImportStats *stats,
               guint            from)
{
  GPtrArray *taken = g_ptr_array_new_with_free_func (g_free);

  for (guint i = from; i < stats->warnings->len; i++)
    g_ptr_array_add (taken, g_steal_pointer (&g_ptr_array_index (stats->warnings, i)));
  g_ptr_array_set_size (stats->warnings, from);
  return taken;
}

/* A file that failed is read whole again by the next pass: that its last line was still being
 * written, one of the warnings it had, is no news. Drops from @failure the warnings that
 * @stats->waiting has from @from on. */
static void
drop_waiting (GPtrArray             *failure,
              const LoomImportStats *stats,
              guint                  from)
{
  for (guint i = from; i < stats->waiting->len; i++)
    {
      guint found;

      if (g_ptr_array_find_with_equal_func (failure, g_ptr_array_index (stats->waiting, i),
                                            g_str_equal, &found))
        g_ptr_array_remove_index (failure, found);
    }
}

static gboolean import_candidates (LoomStoreWriter         *writer,
                                   GPtrArray               *candidates,
                                   const LoomImportOptions *options,
                                   GPtrArray               *deleted,
                                   LoomImportProgress       progress,
                                   gpointer                 progress_data,
                                   GCancellable            *cancellable,
                                   LoomImportStats         *stats,
                                   GError                 **error);

/* The files that changed while the pass runs, imported now as a targeted pass imports them;
 * their deleted ones join @deleted, marked with the pass's. */
static gboolean
import_changed_meanwhile (LoomStoreWriter         *writer,
                          const LoomImportOptions *options,
                          GPtrArray               *deleted,
                          GCancellable            *cancellable,
                          LoomImportStats         *stats,
                          GError                 **error)
{
  g_auto (GStrv) changed = options->take_changed (options->take_changed_data);
  LoomImportOptions targeted = { options->source, NULL, (const char *const *)changed };
  g_autoptr (GPtrArray) candidates = NULL;
  g_autoptr (GPtrArray) roots = NULL;
  g_autoptr (GPtrArray) gone = NULL;

  if (changed == NULL || changed[0] == NULL)
    return TRUE;

  candidates = g_ptr_array_new_with_free_func (loom_import_candidate_free);
  roots = g_ptr_array_new_with_free_func (g_free);
  gone = g_ptr_array_new_with_free_func (g_free);
  if (!loom_import_collect (&targeted, stats, candidates, roots, gone, error))
    return FALSE;
  for (guint i = 0; i < gone->len; i++)
    g_ptr_array_add (deleted, g_strdup (g_ptr_array_index (gone, i)));
  if (!import_candidates (writer, candidates, &targeted, deleted, NULL, NULL, cancellable, stats,
                          error))
    return FALSE;
  if (options->changed_done != NULL)
    options->changed_done (options->take_changed_data);
  return TRUE;
}

/* Imports @candidates in batches (see Batch above). */
static gboolean
import_candidates (LoomStoreWriter         *writer,
                   GPtrArray               *candidates,
                   const LoomImportOptions *options,
                   GPtrArray               *deleted,
                   LoomImportProgress       progress,
                   gpointer                 progress_data,
                   GCancellable            *cancellable,
                   LoomImportStats         *stats,
                   GError                 **error)
{
  /* candidate index → its warnings, the last one why it was not imported */
  g_autoptr (GHashTable)
    failed = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify)g_ptr_array_unref);
  g_autoptr (GHashTable) cursors = NULL; /* for moved files; see take_over_moved () */
  guint64 total = 0, done = 0;
  guint   i = 0, reported = 0;
  Batch   batch = {
    FALSE,
  };

  for (guint j = 0; j < candidates->len; j++)
    total += ((LoomImportCandidate *)g_ptr_array_index (candidates, j))->size;

  while (i < candidates->len)
    {
      LoomImportCandidate *candidate = g_ptr_array_index (candidates, i);
      g_autoptr (GError) file_error = NULL;
      GPtrArray *failure;
      guint      n_warnings, n_waiting;

      if (g_cancellable_is_cancelled (cancellable))
        break;
      if (!batch.open)
        {
          if (options->take_changed != NULL &&
              !import_changed_meanwhile (writer, options, deleted, cancellable, stats, error))
            return FALSE;
          if (!begin_batch (writer, i, stats, &batch, error))
            return FALSE;
        }

      stats->files_seen++;
      n_warnings = stats->warnings->len;
      n_waiting = stats->waiting->len;
      if ((failure = g_hash_table_lookup (failed, GUINT_TO_POINTER (i))) != NULL)
        {
          stats->files_failed++;
          for (guint w = 0; w < failure->len; w++)
            g_ptr_array_add (stats->warnings, g_strdup (g_ptr_array_index (failure, w)));
        }
      else if (!import_one (writer, candidate, &cursors, stats, &file_error))
        {
          failure = take_warnings (stats, n_warnings);
          drop_waiting (failure, stats, n_waiting);
          g_ptr_array_add (failure, g_strdup_printf ("%s: not imported: %s", candidate->path,
                                                     file_error->message));
          g_hash_table_insert (failed, GUINT_TO_POINTER (i), failure);
          i = undo_batch (writer, stats, &batch);
          continue;
        }

      batch.bytes += candidate->size;
      if (batch.bytes >= BATCH_BYTES ||
          g_get_monotonic_time () - batch.started >= BATCH_MICROSECONDS || i + 1 == candidates->len)
        {
          batch.open = FALSE;
          if (!loom_store_writer_commit_batch (writer, error))
            return FALSE;
        }

      /* A batch read again reports no progress until it passes where it had come. */
      if (i++ == reported)
        {
          reported++;
          done += candidate->size;
          if (progress != NULL)
            progress (done, total, candidate->path, progress_data);
        }
    }

  /* Cancelled: what was read so far is kept, whole files only. */
  if (batch.open && !loom_store_writer_commit_batch (writer, error))
    return FALSE;
  for (guint j = 0; j < candidates->len; j++)
    {
      LoomImportCandidate *candidate = g_ptr_array_index (candidates, j);

      if (g_hash_table_contains (failed, GUINT_TO_POINTER (j)))
        /* As it was reached: the watcher matches it against the folders it watches. */
        g_ptr_array_add (stats->failed_paths,
                         g_strdup (candidate->spelled ? candidate->spelled : candidate->path));
    }
  return TRUE;
}

/* Pages of the index merged between two looks at what changed meanwhile: about 0.1 s. */
#define MERGE_STEP_PAGES 2000

/* The search index's segments are merged after an import that made most of the index
 * (loom_store_index_wants_merging ()): merging them as the batches came wrote each entry
 * several times over, a tenth of a first import of 200 MB. In steps, with what changed
 * meanwhile imported between them: merging 1.5 GB's index takes about 3 s, and a session
 * written then would wait for it. Cancelled, the merge stops where it is, in a whole index
 * that FTS5 merges further as it writes. */
static gboolean
merge_index (LoomStoreWriter         *writer,
             const LoomImportOptions *options,
             GPtrArray               *deleted,
             GCancellable            *cancellable,
             LoomImportStats         *stats,
             GError                 **error)
{
  gboolean wants, merged = TRUE;

  if (!loom_store_writer_index_wants_merging (
        writer, stats->messages + stats->events + stats->sessions_new, &wants, error))
    return FALSE;
  for (gboolean first = TRUE; wants && merged; first = FALSE)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
          !loom_store_writer_merge_index_step (writer, first, MERGE_STEP_PAGES, &merged, error))
        return FALSE;
      if (options->take_changed != NULL &&
          !import_changed_meanwhile (writer, options, deleted, cancellable, stats, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
import_all (LoomStoreWriter         *writer,
            const LoomImportOptions *options,
            LoomImportProgress       progress,
            gpointer                 progress_data,
            GCancellable            *cancellable,
            LoomImportStats         *stats,
            GError                 **error)
{
  static const LoomImportOptions default_options = { NULL, NULL, NULL };
  g_autoptr (GPtrArray) candidates = g_ptr_array_new_with_free_func (loom_import_candidate_free);
  g_autoptr (GPtrArray) roots = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) deleted = g_ptr_array_new_with_free_func (g_free);

  if (options == NULL)
    options = &default_options;

  if (!loom_import_collect (options, stats, candidates, roots, deleted, error))
    return FALSE;
  if (roots->len > 0 && !repair_missing (writer, candidates, error))
    return FALSE;

  if (!loom_store_writer_prepare_bulk (writer, error))
    return FALSE;

  if (!import_candidates (writer, candidates, options, deleted, progress, progress_data,
                          cancellable, stats, error))
    return FALSE;
  /* What changed in the last moments of the pass comes in with it. */
  if (options->take_changed != NULL &&
      !import_changed_meanwhile (writer, options, deleted, cancellable, stats, error))
    return FALSE;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  if (!merge_index (writer, options, deleted, cancellable, stats, error))
    return FALSE;

  return mark_missing (writer, roots, deleted, stats, error);
}

gboolean
loom_import_run (LoomStore               *store,
                 const LoomImportOptions *options,
                 LoomImportProgress       progress,
                 gpointer                 progress_data,
                 GCancellable            *cancellable,
                 LoomImportStats         *stats,
                 GError                 **error)
{
  g_autoptr (LoomStoreWriter) writer = NULL;
  gboolean imported;

  g_return_val_if_fail (LOOM_IS_STORE (store), FALSE);
  g_return_val_if_fail (stats != NULL, FALSE);

  writer = loom_store_writer_new (store);
  if (!loom_store_writer_hold_index_merges (writer, error))
    return FALSE;
  imported = import_all (writer, options, progress, progress_data, cancellable, stats, error);
  /* Merges resume even when the import failed. */
  if (!loom_store_writer_resume_index_merges (writer, imported ? error : NULL))
    return FALSE;
  return imported;
}

/* ——— In a thread ——— */

typedef struct
{
  char *store_path;
  char *source;
  GStrv paths;
  GStrv changed;
} ImportTaskData;

static void
import_task_data_free (gpointer data)
{
  ImportTaskData *task_data = data;

  g_free (task_data->store_path);
  g_free (task_data->source);
  g_strfreev (task_data->paths);
  g_strfreev (task_data->changed);
  g_free (task_data);
}

static void
import_thread (GTask        *task,
               gpointer      source_object,
               gpointer      data,
               GCancellable *cancellable)
{
  ImportTaskData *task_data = data;
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (LoomStore) store = NULL;
  LoomImportOptions options = { task_data->source, (const char *const *)task_data->paths,
                                (const char *const *)task_data->changed };
  GError           *error = NULL;

  /* A connection of its own: the UI thread keeps reading while this one writes. */
  if (!(store = loom_store_open (task_data->store_path, &error)) ||
      !loom_import_run (store, &options, NULL, NULL, cancellable, stats, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&stats), (GDestroyNotify)loom_import_stats_free);
}

void
loom_import_run_async (const char              *store_path,
                       const LoomImportOptions *options,
                       GCancellable            *cancellable,
                       GAsyncReadyCallback      callback,
                       gpointer                 user_data)
{
  g_autoptr (GTask) task = NULL;
  ImportTaskData *data = g_new0 (ImportTaskData, 1);

  g_return_if_fail (store_path != NULL);

  data->store_path = g_strdup (store_path);
  if (options != NULL)
    {
      data->source = g_strdup (options->source);
      data->paths = g_strdupv ((char **)options->paths);
      data->changed = g_strdupv ((char **)options->changed);
    }

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, loom_import_run_async);
  g_task_set_task_data (task, data, import_task_data_free);
  g_task_run_in_thread (task, import_thread);
}

LoomImportStats *
loom_import_run_finish (GAsyncResult *result,
                        GError      **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_import_run_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
