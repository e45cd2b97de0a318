/* loom-timeline-context.c — what the rows of one timeline share.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "loom-session-row.h"
#include "loom-store-timeline-pages.h"
#include "loom-timeline-context.h"
#include "loom-timeline-loader.h"

struct _LoomTimelineContext
{
  GObject parent_instance;

  LoomStore          *store;
  LoomSession        *session;
  GHashTable         *states;   /* item key → two bits per LoomTimelineState */
  GHashTable         *payloads; /* event id → payload, or NULL */
  LoomTimelineLoader *loader;
  GHashTable         *deferred; /* rows waiting to be built */
  LoomSearchMarker   *marker;
  guint               marker_serial;
  gboolean            show_reasoning;
  gint64              highlight;
};

G_DEFINE_FINAL_TYPE (LoomTimelineContext, loom_timeline_context, G_TYPE_OBJECT)

enum
{
  OPEN_SESSION,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
loom_timeline_context_finalize (GObject *object)
{
  LoomTimelineContext *self = (LoomTimelineContext *)object;

  g_clear_object (&self->store);
  g_clear_object (&self->session);
  g_clear_object (&self->marker);
  g_clear_pointer (&self->states, g_hash_table_unref);
  g_clear_pointer (&self->payloads, g_hash_table_unref);
  g_clear_object (&self->loader);
  g_clear_pointer (&self->deferred, g_hash_table_unref);

  G_OBJECT_CLASS (loom_timeline_context_parent_class)->finalize (object);
}

static void
loom_timeline_context_class_init (LoomTimelineContextClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = loom_timeline_context_finalize;

  signals[OPEN_SESSION] = g_signal_new ("open-session", G_TYPE_FROM_CLASS (klass),
                                        G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                        G_TYPE_STRING);
}

static void
loom_timeline_context_init (LoomTimelineContext *self)
{
  self->states = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->payloads = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->deferred = g_hash_table_new (NULL, NULL);
  self->loader = loom_timeline_loader_new ();
  self->highlight = -1;
}

LoomTimelineContext *
loom_timeline_context_new (void)
{
  return g_object_new (LOOM_TYPE_TIMELINE_CONTEXT, NULL);
}

void
loom_timeline_context_set_session (LoomTimelineContext *self,
                                   LoomStore           *store,
                                   LoomSession         *session)
{
  g_return_if_fail (LOOM_IS_TIMELINE_CONTEXT (self));

  g_set_object (&self->store, store);
  g_set_object (&self->session, session);
  g_hash_table_remove_all (self->states);
  g_hash_table_remove_all (self->payloads);
  loom_timeline_loader_set_store_path (self->loader,
                                       store != NULL ? loom_store_get_path (store) : NULL);
  self->highlight = -1;
}

LoomTimelineLoader *
loom_timeline_context_get_loader (LoomTimelineContext *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (self), NULL);
  return self->loader;
}

void
loom_timeline_context_set_session_data (LoomTimelineContext *self,
                                        LoomSession         *session)
{
  g_return_if_fail (LOOM_IS_TIMELINE_CONTEXT (self));
  g_return_if_fail (LOOM_IS_SESSION (session));

  g_set_object (&self->session, session);
}

LoomStore *
loom_timeline_context_get_store (LoomTimelineContext *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (self), NULL);
  return self->store;
}

LoomSession *
loom_timeline_context_get_session (LoomTimelineContext *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (self), NULL);
  return self->session;
}

const char *
loom_timeline_context_get_agent_name (LoomTimelineContext *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (self), NULL);

  if (self->session == NULL)
    return _ ("Agent");
  return loom_session_row_agent_name (loom_session_get_source (self->session));
}

char *
loom_timeline_context_display_path (LoomTimelineContext *self,
                                    const char          *path)
{
  const char *cwd;
  gsize       length;

  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (self), NULL);

  if (path == NULL)
    return NULL;
  if (self->session == NULL || (cwd = loom_session_get_cwd (self->session)) == NULL)
    return g_strdup (path);

  length = strlen (cwd);
  while (length > 1 && cwd[length - 1] == '/')
    length--;
  if (length > 1 && strncmp (path, cwd, length) == 0 && path[length] == '/' &&
      path[length + 1] != '\0')
    return g_strdup (path + length + 1);
  return g_strdup (path);
}

static gint64
item_key (LoomTimelineItem *item)
{
  const LoomTimelineData *data = loom_timeline_item_get_data (item);

  return (data->id << 1) | (data->is_message ? 1 : 0);
}

/* Each state takes two bits of the stored value: whether it was set, and to what. */
gboolean
loom_timeline_context_get_state (LoomTimelineContext *self,
                                 LoomTimelineItem    *item,
                                 LoomTimelineState    state,
                                 gboolean             fallback)
{
  gint64 key;
  guint  bits;

  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (self), fallback);
  g_return_val_if_fail (LOOM_IS_TIMELINE_ITEM (item), fallback);

  key = item_key (item);
  bits = GPOINTER_TO_UINT (g_hash_table_lookup (self->states, &key));
  if (!(bits & (2u << (2 * state))))
    return fallback;
  return (bits & (1u << (2 * state))) != 0;
}

void
loom_timeline_context_set_state (LoomTimelineContext *self,
                                 LoomTimelineItem    *item,
                                 LoomTimelineState    state,
                                 gboolean             value)
{
  gint64  key;
  gint64 *stored_key;
  guint   bits;

  g_return_if_fail (LOOM_IS_TIMELINE_CONTEXT (self));
  g_return_if_fail (LOOM_IS_TIMELINE_ITEM (item));

  key = item_key (item);
  bits = GPOINTER_TO_UINT (g_hash_table_lookup (self->states, &key));
  bits |= 2u << (2 * state);
  if (value)
    bits |= 1u << (2 * state);
  else
    bits &= ~(1u << (2 * state));

  stored_key = g_new (gint64, 1);
  *stored_key = key;
  g_hash_table_replace (self->states, stored_key, GUINT_TO_POINTER (bits));
}

gboolean
loom_timeline_context_get_show_reasoning (LoomTimelineContext *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (self), FALSE);
  return self->show_reasoning;
}

void
loom_timeline_context_set_show_reasoning (LoomTimelineContext *self,
                                          gboolean             show)
{
  g_return_if_fail (LOOM_IS_TIMELINE_CONTEXT (self));
  self->show_reasoning = !!show;
}

gint64
loom_timeline_context_get_highlight (LoomTimelineContext *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (self), -1);
  return self->highlight;
}

void
loom_timeline_context_set_highlight (LoomTimelineContext *self,
                                     gint64               seq)
{
  g_return_if_fail (LOOM_IS_TIMELINE_CONTEXT (self));
  self->highlight = seq;
}

LoomSearchMarker *
loom_timeline_context_get_marker (LoomTimelineContext *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (self), NULL);
  return self->marker;
}

guint
loom_timeline_context_get_marker_serial (LoomTimelineContext *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (self), 0);
  return self->marker_serial;
}

void
loom_timeline_context_set_marker (LoomTimelineContext *self,
                                  LoomSearchMarker    *marker)
{
  g_return_if_fail (LOOM_IS_TIMELINE_CONTEXT (self));
  g_return_if_fail (marker == NULL || LOOM_IS_SEARCH_MARKER (marker));

  if (g_set_object (&self->marker, marker))
    self->marker_serial++;
}

void
loom_timeline_context_mark (LoomTimelineContext *self,
                            GtkWidget           *root)
{
  g_return_if_fail (LOOM_IS_TIMELINE_CONTEXT (self));
  g_return_if_fail (GTK_IS_WIDGET (root));

  loom_search_marker_mark_tree (self->marker, root);
}

const char *
loom_timeline_context_get_payload (LoomTimelineContext *self,
                                   gint64               event_id)
{
  g_autoptr (GError) error = NULL;
  gpointer payload = NULL;
  gint64  *key;

  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (self), NULL);

  if (g_hash_table_lookup_extended (self->payloads, &event_id, NULL, &payload))
    return payload;
  if (self->store == NULL)
    return NULL;

  payload = loom_store_get_event_payload (self->store, event_id, &error);
  if (error != NULL)
    g_debug ("Could not read the payload of event %" G_GINT64_FORMAT ": %s", event_id,
             error->message);
  key = g_new (gint64, 1);
  *key = event_id;
  g_hash_table_insert (self->payloads, key, payload);
  return payload;
}

void
loom_timeline_context_defer_build (LoomTimelineContext *self,
                                   GtkWidget           *row)
{
  g_return_if_fail (LOOM_IS_TIMELINE_CONTEXT (self));
  g_return_if_fail (GTK_IS_WIDGET (row));

  g_hash_table_add (self->deferred, row);
}

void
loom_timeline_context_cancel_build (LoomTimelineContext *self,
                                    GtkWidget           *row)
{
  g_return_if_fail (LOOM_IS_TIMELINE_CONTEXT (self));

  g_hash_table_remove (self->deferred, row);
}

GPtrArray *
loom_timeline_context_take_deferred (LoomTimelineContext *self)
{
  GPtrArray     *rows;
  GHashTableIter iter;
  gpointer       row;

  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (self), NULL);

  rows = g_ptr_array_new_full (g_hash_table_size (self->deferred), NULL);
  g_hash_table_iter_init (&iter, self->deferred);
  while (g_hash_table_iter_next (&iter, &row, NULL))
    g_ptr_array_add (rows, row);
  g_hash_table_remove_all (self->deferred);
  return rows;
}

void
loom_timeline_context_open_session (LoomTimelineContext *self,
                                    const char          *uuid)
{
  g_return_if_fail (LOOM_IS_TIMELINE_CONTEXT (self));
  g_return_if_fail (uuid != NULL);

  g_signal_emit (self, signals[OPEN_SESSION], 0, uuid);
}

char *
loom_timeline_format_time (gint64 ms)
{
  g_autoptr (GDateTime) when = NULL;

  if (ms <= 0 || !(when = g_date_time_new_from_unix_local (ms / 1000)))
    return g_strdup ("");
  return g_date_time_format (when, "%H:%M");
}

#define TOOLTIP_KEY "loom-timeline-tooltip"

static gboolean
on_query_tooltip_cb (GtkWidget  *widget,
                     int         x,
                     int         y,
                     gboolean    keyboard_mode,
                     GtkTooltip *tooltip,
                     gpointer    user_data)
{
  const char *text = g_object_get_data (G_OBJECT (widget), TOOLTIP_KEY);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

void
loom_timeline_set_tooltip (GtkWidget  *widget,
                           const char *text)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (text != NULL && *text == '\0')
    text = NULL;
  if (g_strcmp0 (text, g_object_get_data (G_OBJECT (widget), TOOLTIP_KEY)) == 0 &&
      gtk_widget_get_has_tooltip (widget) == (text != NULL))
    return;

  if (g_signal_handler_find (widget, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, on_query_tooltip_cb, NULL) ==
      0)
    g_signal_connect (widget, "query-tooltip", G_CALLBACK (on_query_tooltip_cb), NULL);
  g_object_set_data_full (G_OBJECT (widget), TOOLTIP_KEY, g_strdup (text), g_free);
  gtk_widget_set_has_tooltip (widget, text != NULL);
}

char *
loom_timeline_format_date_time (gint64 ms)
{
  g_autoptr (GDateTime) when = NULL;

  if (ms <= 0 || !(when = g_date_time_new_from_unix_local (ms / 1000)))
    return g_strdup ("");
  /* Translators: a message's full date and time, for its tooltip (strftime format). */
  return g_date_time_format (when, _ ("%A, %B %-d, %Y, %H:%M:%S"));
}
