/* loom-timeline-loader.h — the texts a timeline row makes of whole payloads, made in a worker.
 *
 * A payload can be 50 MB: reading it from the store, parsing its JSON and finding where its
 * head ends takes seconds, which the UI thread must never spend. A LoomTimelineText is such a
 * text made ready to show: the whole of it (for Copy All) and the bounded heads a row lays
 * out. The loader makes them in a GTask thread, on a connection of its own to the store's
 * file, and keeps them while the session is shown, so that a recycled row never waits twice.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "loom-markdown-blocks.h"

G_BEGIN_DECLS

/* What a row makes of an event's payload. */
typedef enum
{
  LOOM_TIMELINE_TEXT_INPUT,  /* a call's input, as a person would have typed it */
  LOOM_TIMELINE_TEXT_OUTPUT, /* a result's whole output */
  LOOM_TIMELINE_TEXT_DIFF,   /* a file change's diff (its payload and its result's) */
  LOOM_TIMELINE_TEXT_TASK,   /* a sub-agent's task */
} LoomTimelineTextKind;

/* Folded, a tool row shows a head of so many lines or characters, whichever comes first. */
#define LOOM_TIMELINE_OUTPUT_HEAD_LINES  12
#define LOOM_TIMELINE_OUTPUT_HEAD_CHARS  2400
#define LOOM_TIMELINE_INPUT_HEAD_LINES   40
#define LOOM_TIMELINE_INPUT_HEAD_CHARS   6000
#define LOOM_TIMELINE_DIFF_HEAD_LINES    60
#define LOOM_TIMELINE_DIFF_HEAD_CHARS    12000
/* Unfolded, a label still lays out only so much at once: GtkLabel takes seconds on 10,000
 * lines, and Pango half a second on 100,000 characters each of the times GTK measures it.
 * The rest is one "Copy All" away. */
#define LOOM_TIMELINE_ALL_LINES          1000
#define LOOM_TIMELINE_ALL_CHARS          32768
/* A payload this small is read and made on the UI thread, well within a frame. */
#define LOOM_TIMELINE_SYNC_PAYLOAD_BYTES (256 * 1024)

typedef struct
{
  char *text;         /* the whole text, valid UTF-8; NULL when the payload gave none */
  gsize length;       /* of @text, in bytes */
  guint n_lines;      /* of @text */
  char *head;         /* its folded head, NULL when all of it fits */
  char *most;         /* the most of it shown unfolded, NULL when all of it fits */
  guint n_most_lines; /* of @most, or of @text when @most is NULL */
} LoomTimelineText;

/* Takes @text (NULL for none) and finds its heads: @head_lines and @head_chars folded,
 * LOOM_TIMELINE_ALL_LINES and LOOM_TIMELINE_ALL_CHARS unfolded. Any thread. */
LoomTimelineText *loom_timeline_text_new (char *text,
                                          guint head_lines,
                                          gsize head_chars);
/* Takes @text, and finds no heads: a text to copy whole. */
LoomTimelineText *loom_timeline_text_new_whole (char *text);
/* What @kind makes of @payload (and, for a diff, of its result's @result_payload). Any
 * thread: nothing here touches GTK or the store. */
LoomTimelineText *loom_timeline_text_prepare (LoomTimelineTextKind kind,
                                              const char          *payload,
                                              const char          *result_payload);
LoomTimelineText *loom_timeline_text_ref (LoomTimelineText *text);
void              loom_timeline_text_unref (LoomTimelineText *text);
/* The whole text, sharing its memory: for the clipboard. NULL when there is none. */
GBytes           *loom_timeline_text_get_bytes (LoomTimelineText *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomTimelineText, loom_timeline_text_unref)

#define LOOM_TYPE_TIMELINE_LOADER (loom_timeline_loader_get_type ())

G_DECLARE_FINAL_TYPE (LoomTimelineLoader, loom_timeline_loader, LOOM, TIMELINE_LOADER, GObject)

LoomTimelineLoader *loom_timeline_loader_new (void);
/* The store the payloads are read from (NULL: none). Forgets every text kept, and loads
 * still running for the store before give results no one keeps. */
void                loom_timeline_loader_set_store_path (LoomTimelineLoader *self,
                                                         const char         *path);
/* The text @kind of event @event_id, if it was made before; else NULL. */
LoomTimelineText   *loom_timeline_loader_lookup (LoomTimelineLoader  *self,
                                                 LoomTimelineTextKind kind,
                                                 gint64               event_id);
/* Keeps @text (a reference is taken) as @kind of @event_id; returns it. */
LoomTimelineText   *loom_timeline_loader_insert (LoomTimelineLoader  *self,
                                                 LoomTimelineTextKind kind,
                                                 gint64               event_id,
                                                 LoomTimelineText    *text);
/* Reads the payload of @event_id (and for a diff that of @result_id, else 0) in a worker
 * thread and makes @kind of it. A payload that cannot be read makes an empty text. */
void                loom_timeline_loader_load_async (LoomTimelineLoader  *self,
                                                     LoomTimelineTextKind kind,
                                                     gint64               event_id,
                                                     gint64               result_id,
                                                     GCancellable        *cancellable,
                                                     GAsyncReadyCallback  callback,
                                                     gpointer             user_data);
/* The text made, kept by the loader unless the store changed meanwhile (transfer full). */
LoomTimelineText   *loom_timeline_loader_load_finish (LoomTimelineLoader *self,
                                                      GAsyncResult       *result,
                                                      GError            **error);
/* A message's Markdown, parsed to blocks in a worker: md4c reads all it is given before the
 * first block comes out, and a message shown whole gives it megabytes. */
typedef struct
{
  LoomMarkdownBlock *document;
  gsize              n_left_out; /* bytes of the message the blocks do not show */
} LoomTimelineMarkdown;

LoomTimelineMarkdown *loom_timeline_markdown_ref (LoomTimelineMarkdown *markdown);
void                  loom_timeline_markdown_unref (LoomTimelineMarkdown *markdown);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LoomTimelineMarkdown, loom_timeline_markdown_unref)

/* The blocks of message @message_id parsed before, or NULL. */
LoomTimelineMarkdown *loom_timeline_loader_lookup_markdown (LoomTimelineLoader *self,
                                                            gint64              message_id);
/* Parses the head of @text (which @owner keeps alive: it is given, and let go of with
 * @owner_free once done) in a worker, as
 * loom_markdown_render_head() would: at most @max_source bytes of it, control characters
 * stripped and, with @strip_tags, the harness's tags; blocks of about @max_chars characters
 * and @max_lines lines. Kept as message @message_id's. */
void                  loom_timeline_loader_parse_markdown_async (LoomTimelineLoader *self,
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
                                                                 gpointer            user_data);
LoomTimelineMarkdown *loom_timeline_loader_parse_markdown_finish (LoomTimelineLoader *self,
                                                                  GAsyncResult       *result,
                                                                  GError            **error);

/* For tests: while held, loads wait in their worker before they read, so that a test sees
 * what the UI thread does meanwhile. */
void  loom_timeline_loader_hold_for_testing (gboolean held);
/* How many loads have finished in a worker, for tests. */
guint loom_timeline_loader_get_n_loaded (LoomTimelineLoader *self);

G_END_DECLS
