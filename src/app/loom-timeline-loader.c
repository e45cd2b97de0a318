/* loom-timeline-loader.c — the texts a timeline row makes of whole payloads, made in a worker.
 *
 * The window's store belongs to the UI thread. As the search worker does, the loader reads
 * in a GTask thread through a second connection to the same file, opened on first use and
 * kept; loads take turns on it. A connection belongs to one store path: when the timeline
 * shows another store, loads still running keep the old one until they end, and the UI
 * thread never waits for them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "loom-store-timeline-pages.h"
#include "loom-timeline-format.h"
#include "loom-timeline-loader.h"

/* LoomTimelineText */

static void
text_clear (LoomTimelineText *text)
{
  g_free (text->text);
  g_free (text->head);
  g_free (text->most);
}

LoomTimelineText *
loom_timeline_text_new_whole (char *text)
{
  LoomTimelineText *self = g_atomic_rc_box_new0 (LoomTimelineText);

  self->text = text;
  self->length = text != NULL ? strlen (text) : 0;
  return self;
}

LoomTimelineText *
loom_timeline_text_new (char *text,
                        guint head_lines,
                        gsize head_chars)
{
  LoomTimelineText *self = loom_timeline_text_new_whole (text);

  if (text == NULL)
    return self;
  self->head = loom_timeline_format_head (text, head_lines, head_chars, &self->n_lines);
  self->most = loom_timeline_format_head (text, LOOM_TIMELINE_ALL_LINES, LOOM_TIMELINE_ALL_CHARS,
                                          NULL);
  self->n_most_lines = self->n_lines;
  if (self->most != NULL)
    loom_timeline_format_head (self->most, G_MAXUINT, G_MAXSIZE, &self->n_most_lines);
  return self;
}

LoomTimelineText *
loom_timeline_text_prepare (LoomTimelineTextKind kind,
                            const char          *payload,
                            const char          *result_payload)
{
  switch (kind)
    {
    case LOOM_TIMELINE_TEXT_INPUT:
      return loom_timeline_text_new (loom_timeline_format_input (payload),
                                     LOOM_TIMELINE_INPUT_HEAD_LINES,
                                     LOOM_TIMELINE_INPUT_HEAD_CHARS);
    case LOOM_TIMELINE_TEXT_OUTPUT:
      return loom_timeline_text_new (loom_timeline_format_result_output (payload),
                                     LOOM_TIMELINE_OUTPUT_HEAD_LINES,
                                     LOOM_TIMELINE_OUTPUT_HEAD_CHARS);
    case LOOM_TIMELINE_TEXT_DIFF:
      return loom_timeline_text_new (loom_timeline_format_diff (payload, result_payload),
                                     LOOM_TIMELINE_DIFF_HEAD_LINES, LOOM_TIMELINE_DIFF_HEAD_CHARS);
    case LOOM_TIMELINE_TEXT_TASK:
    default:
      /* Rendered as Markdown, which finds its own head. */
      return loom_timeline_text_new_whole (loom_timeline_format_subagent_prompt (payload));
    }
}

LoomTimelineText *
loom_timeline_text_ref (LoomTimelineText *text)
{
  return g_atomic_rc_box_acquire (text);
}

void
loom_timeline_text_unref (LoomTimelineText *text)
{
  g_atomic_rc_box_release_full (text, (GDestroyNotify)text_clear);
}

GBytes *
loom_timeline_text_get_bytes (LoomTimelineText *text)
{
  g_return_val_if_fail (text != NULL, NULL);

  if (text->text == NULL)
    return NULL;
  return g_bytes_new_with_free_func (text->text, text->length,
                                     (GDestroyNotify)loom_timeline_text_unref,
                                     loom_timeline_text_ref (text));
}

/* One connection to one store file, shared by the loads that read it. */
typedef struct
{
  char      *path;
  GMutex     mutex;
  LoomStore *store; /* guarded by mutex; opened by the first load */
} Connection;

static void
connection_clear (Connection *connection)
{
  g_clear_object (&connection->store);
  g_mutex_clear (&connection->mutex);
  g_free (connection->path);
}

static Connection *
connection_new (const char *path)
{
  Connection *connection = g_atomic_rc_box_new0 (Connection);

  connection->path = g_strdup (path);
  g_mutex_init (&connection->mutex);
  return connection;
}

static void
connection_unref (Connection *connection)
{
  g_atomic_rc_box_release_full (connection, (GDestroyNotify)connection_clear);
}

/* LoomTimelineLoader */

struct _LoomTimelineLoader
{
  GObject parent_instance;

  Connection *connection; /* NULL without a store */
  GHashTable *texts;      /* (event id << 2 | kind) → LoomTimelineText */
  GHashTable *markdowns;  /* message id → LoomTimelineMarkdown */
  guint       serial;     /* counts store changes: a load of an older one is not kept */
  guint       n_loaded;
};

G_DEFINE_FINAL_TYPE (LoomTimelineLoader, loom_timeline_loader, G_TYPE_OBJECT)

typedef struct
{
  Connection          *connection;
  LoomTimelineTextKind kind;
  gint64               event_id;
  gint64               result_id;
  guint                serial;
} LoadRequest;

static void
load_request_free (LoadRequest *request)
{
  connection_unref (request->connection);
  g_free (request);
}

static gint64
text_key (LoomTimelineTextKind kind,
          gint64               event_id)
{
  return (event_id << 2) | (gint64)kind;
}

static void
loom_timeline_loader_finalize (GObject *object)
{
  LoomTimelineLoader *self = LOOM_TIMELINE_LOADER (object);

  g_clear_pointer (&self->connection, connection_unref);
  g_clear_pointer (&self->texts, g_hash_table_unref);
  g_clear_pointer (&self->markdowns, g_hash_table_unref);

  G_OBJECT_CLASS (loom_timeline_loader_parent_class)->finalize (object);
}

static void
loom_timeline_loader_class_init (LoomTimelineLoaderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = loom_timeline_loader_finalize;
}

static void
loom_timeline_loader_init (LoomTimelineLoader *self)
{
  self->texts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                       (GDestroyNotify)loom_timeline_text_unref);
  self->markdowns = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                           (GDestroyNotify)loom_timeline_markdown_unref);
}

LoomTimelineLoader *
loom_timeline_loader_new (void)
{
  return g_object_new (LOOM_TYPE_TIMELINE_LOADER, NULL);
}

void
loom_timeline_loader_set_store_path (LoomTimelineLoader *self,
                                     const char         *path)
{
  g_return_if_fail (LOOM_IS_TIMELINE_LOADER (self));

  self->serial++;
  g_hash_table_remove_all (self->texts);
  g_hash_table_remove_all (self->markdowns);
  if (self->connection != NULL && g_strcmp0 (self->connection->path, path) == 0)
    return;
  g_clear_pointer (&self->connection, connection_unref);
  if (path != NULL)
    self->connection = connection_new (path);
}

LoomTimelineText *
loom_timeline_loader_lookup (LoomTimelineLoader  *self,
                             LoomTimelineTextKind kind,
                             gint64               event_id)
{
  gint64 key = text_key (kind, event_id);

  g_return_val_if_fail (LOOM_IS_TIMELINE_LOADER (self), NULL);

  return g_hash_table_lookup (self->texts, &key);
}

LoomTimelineText *
loom_timeline_loader_insert (LoomTimelineLoader  *self,
                             LoomTimelineTextKind kind,
                             gint64               event_id,
                             LoomTimelineText    *text)
{
  gint64 *key;

  g_return_val_if_fail (LOOM_IS_TIMELINE_LOADER (self), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  key = g_new (gint64, 1);
  *key = text_key (kind, event_id);
  g_hash_table_replace (self->texts, key, loom_timeline_text_ref (text));
  return text;
}

static char *
read_payload (LoomStore *store,
              gint64     event_id)
{
  g_autoptr (GError) error = NULL;
  char *payload;

  if (event_id <= 0)
    return NULL;
  payload = loom_store_get_event_payload (store, event_id, &error);
  if (error != NULL)
    g_debug ("Could not read the payload of event %" G_GINT64_FORMAT ": %s", event_id,
             error->message);
  return payload;
}

static GMutex   hold_mutex;
static GCond    hold_cond;
static gboolean held;

void
loom_timeline_loader_hold_for_testing (gboolean hold)
{
  g_mutex_lock (&hold_mutex);
  held = hold;
  g_cond_broadcast (&hold_cond);
  g_mutex_unlock (&hold_mutex);
}

static void
wait_while_held (GCancellable *cancellable)
{
  g_mutex_lock (&hold_mutex);
  while (held && !g_cancellable_is_cancelled (cancellable))
    /* A cancellation does not signal the condition: look again now and then. */
    g_cond_wait_until (&hold_cond, &hold_mutex,
                       g_get_monotonic_time () + 10 * G_TIME_SPAN_MILLISECOND);
  g_mutex_unlock (&hold_mutex);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadRequest     *request = task_data;
  Connection      *connection = request->connection;
  g_autofree char *payload = NULL;
  g_autofree char *result_payload = NULL;
  g_autoptr (GError) error = NULL;

  wait_while_held (cancellable);
  {
    g_autoptr (GMutexLocker) locker = g_mutex_locker_new (&connection->mutex);

    if (g_task_return_error_if_cancelled (task))
      return;
    if (connection->store == NULL &&
        !(connection->store = loom_store_open (connection->path, &error)))
      g_debug ("Could not open the store to read a payload: %s", error->message);
    if (connection->store != NULL)
      {
        payload = read_payload (connection->store, request->event_id);
        if (request->kind == LOOM_TIMELINE_TEXT_DIFF && !g_cancellable_is_cancelled (cancellable))
          result_payload = read_payload (connection->store, request->result_id);
      }
  }

  if (g_task_return_error_if_cancelled (task))
    return;
  g_task_return_pointer (task, loom_timeline_text_prepare (request->kind, payload, result_payload),
                         (GDestroyNotify)loom_timeline_text_unref);
}

void
loom_timeline_loader_load_async (LoomTimelineLoader  *self,
                                 LoomTimelineTextKind kind,
                                 gint64               event_id,
                                 gint64               result_id,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr (GTask) task = NULL;
  LoadRequest *request;

  g_return_if_fail (LOOM_IS_TIMELINE_LOADER (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, loom_timeline_loader_load_async);
  if (self->connection == NULL)
    {
      g_task_return_pointer (task, loom_timeline_text_new_whole (NULL),
                             (GDestroyNotify)loom_timeline_text_unref);
      return;
    }

  request = g_new0 (LoadRequest, 1);
  request->connection = g_atomic_rc_box_acquire (self->connection);
  request->kind = kind;
  request->event_id = event_id;
  request->result_id = result_id;
  request->serial = self->serial;
  g_task_set_task_data (task, request, (GDestroyNotify)load_request_free);
  g_task_run_in_thread (task, load_thread);
}

LoomTimelineText *
loom_timeline_loader_load_finish (LoomTimelineLoader *self,
                                  GAsyncResult       *result,
                                  GError            **error)
{
  LoomTimelineText *text;
  LoadRequest      *request;

  g_return_val_if_fail (LOOM_IS_TIMELINE_LOADER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == loom_timeline_loader_load_async,
                        NULL);

  if (!(text = g_task_propagate_pointer (G_TASK (result), error)))
    return NULL;
  request = g_task_get_task_data (G_TASK (result));
  if (request != NULL)
    {
      self->n_loaded++;
      if (request->serial == self->serial)
        loom_timeline_loader_insert (self, request->kind, request->event_id, text);
    }
  return text;
}

/* Markdown */

static void
markdown_clear (LoomTimelineMarkdown *markdown)
{
  g_clear_pointer (&markdown->document, loom_markdown_block_free);
}

LoomTimelineMarkdown *
loom_timeline_markdown_ref (LoomTimelineMarkdown *markdown)
{
  return g_atomic_rc_box_acquire (markdown);
}

void
loom_timeline_markdown_unref (LoomTimelineMarkdown *markdown)
{
  g_atomic_rc_box_release_full (markdown, (GDestroyNotify)markdown_clear);
}

LoomTimelineMarkdown *
loom_timeline_loader_lookup_markdown (LoomTimelineLoader *self,
                                      gint64              message_id)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_LOADER (self), NULL);

  return g_hash_table_lookup (self->markdowns, &message_id);
}

typedef struct
{
  gint64         message_id;
  gpointer       owner;
  GDestroyNotify owner_free;
  const char    *text; /* owned by @owner */
  gboolean       strip_tags;
  gsize          max_source;
  gsize          max_chars;
  guint          max_lines;
  guint          serial;
} ParseRequest;

static void
parse_request_free (ParseRequest *request)
{
  if (request->owner_free != NULL)
    request->owner_free (request->owner);
  g_free (request);
}

static void
parse_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  ParseRequest         *request = task_data;
  g_autofree char      *prefix = NULL;
  g_autofree char      *clean = NULL;
  g_autofree char      *untagged = NULL;
  const char           *text = request->text != NULL ? request->text : "";
  gsize                 length = strlen (text);
  gsize                 parsed, shown = 0;
  LoomTimelineMarkdown *markdown;

  wait_while_held (cancellable);
  if (g_task_return_error_if_cancelled (task))
    return;

  /* As the message row does on the UI thread for a head (loom-timeline-message-row.c). */
  if (length > request->max_source)
    text = prefix = g_strndup (text, request->max_source);
  if ((clean = loom_timeline_format_strip_controls (text)))
    text = clean;
  if (request->strip_tags && (untagged = loom_timeline_format_strip_tags (text)))
    text = untagged;

  markdown = g_atomic_rc_box_new0 (LoomTimelineMarkdown);
  parsed = MIN (strlen (text), request->max_source);
  markdown->document = loom_markdown_blocks_parse_head (text, parsed, request->max_chars,
                                                        request->max_lines, &shown);
  markdown->n_left_out = strlen (text) - MIN (shown, strlen (text));
  if (prefix != NULL)
    markdown->n_left_out += length - request->max_source;

  if (g_task_return_error_if_cancelled (task))
    {
      loom_timeline_markdown_unref (markdown);
      return;
    }
  g_task_return_pointer (task, markdown, (GDestroyNotify)loom_timeline_markdown_unref);
}

void
loom_timeline_loader_parse_markdown_async (LoomTimelineLoader *self,
                                           gint64              message_id,
                                           gpointer            owner,
                                           GDestroyNotify      owner_free,
                                           const char         *text,
                                           gboolean            strip_tags,
                                           gsize               max_source,
                                           gsize               max_chars,
                                           guint               max_lines,
                                           GCancellable       *cancellable,
                                           GAsyncReadyCallback callback,
                                           gpointer            user_data)
{
  g_autoptr (GTask) task = NULL;
  ParseRequest *request;

  g_return_if_fail (LOOM_IS_TIMELINE_LOADER (self));

  request = g_new0 (ParseRequest, 1);
  request->message_id = message_id;
  request->owner = owner;
  request->owner_free = owner_free;
  request->text = text;
  request->strip_tags = strip_tags;
  request->max_source = max_source;
  request->max_chars = max_chars;
  request->max_lines = max_lines;
  request->serial = self->serial;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, loom_timeline_loader_parse_markdown_async);
  g_task_set_task_data (task, request, (GDestroyNotify)parse_request_free);
  g_task_run_in_thread (task, parse_thread);
}

LoomTimelineMarkdown *
loom_timeline_loader_parse_markdown_finish (LoomTimelineLoader *self,
                                            GAsyncResult       *result,
                                            GError            **error)
{
  LoomTimelineMarkdown *markdown;
  ParseRequest         *request;

  g_return_val_if_fail (LOOM_IS_TIMELINE_LOADER (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (
    g_task_get_source_tag (G_TASK (result)) == loom_timeline_loader_parse_markdown_async, NULL);

  if (!(markdown = g_task_propagate_pointer (G_TASK (result), error)))
    return NULL;
  request = g_task_get_task_data (G_TASK (result));
  self->n_loaded++;
  if (request->serial == self->serial)
    {
      gint64 *key = g_new (gint64, 1);

      *key = request->message_id;
      g_hash_table_replace (self->markdowns, key, loom_timeline_markdown_ref (markdown));
    }
  return markdown;
}

guint
loom_timeline_loader_get_n_loaded (LoomTimelineLoader *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_LOADER (self), 0);

  return self->n_loaded;
}
