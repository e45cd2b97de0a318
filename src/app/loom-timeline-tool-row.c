/* loom-timeline-tool-row.c — a tool call, file change or sub-agent start, folded to one line.
 *
 * Folded, a row is the tool's name and what it acted on (the command, the file). Opened, it
 * shows the input (read from the store then, and only then), the result it came with, and for
 * a file change the diff. A failed call says so in colour, with an icon and in words.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "loom-markdown.h"
#include "loom-timeline-format.h"
#include "loom-timeline-loader.h"
#include "loom-timeline-model.h"
#include "loom-timeline-tool-row.h"

/* Long outputs fold to their first lines; "Show More" brings the rest (the heads: see
 * loom-timeline-loader.h). */
#define INPUT_HEAD_LINES  LOOM_TIMELINE_INPUT_HEAD_LINES
#define INPUT_HEAD_CHARS  LOOM_TIMELINE_INPUT_HEAD_CHARS
#define ALL_LINES         LOOM_TIMELINE_ALL_LINES
#define ALL_CHARS         LOOM_TIMELINE_ALL_CHARS
/* What md4c reads of a sub-agent's task or report (see loom-timeline-message-row.c). */
#define HEAD_SOURCE       (256 * 1024)
#define ALL_SOURCE        (4 * 1024 * 1024)
#define DESCRIPTION_CHARS 120
/* The importer keeps an event's text to 64 KiB (cut on a character boundary). */
#define STORED_TEXT_BOUND (65536 - 4)

struct _LoomTimelineToolRow
{
  GtkWidget parent_instance;

  LoomTimelineContext *context;
  LoomTimelineItem    *item;

  GtkBox      *card;
  GtkImage    *chevron_image;
  GtkBox      *details_box;
  GtkImage    *icon_image;
  GtkLabel    *name_label;
  GtkButton   *open_button;
  GtkRevealer *revealer;
  GtkImage    *status_image;
  GtkLabel    *summary_label;
  GtkButton   *toggle_button;

  GCancellable *load_cancellable; /* a payload being made in a worker */
};

G_DEFINE_FINAL_TYPE (LoomTimelineToolRow, loom_timeline_tool_row, GTK_TYPE_WIDGET)

enum
{
  PROP_0,
  PROP_CONTEXT,
  PROP_EXPANDED,
  PROP_ITEM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static gboolean
is_kind (const LoomTimelineData *d,
         const char             *kind)
{
  return g_strcmp0 (d->kind, kind) == 0;
}

static gboolean
item_failed (LoomTimelineItem *item)
{
  const LoomTimelineData *d = loom_timeline_item_get_data (item);
  LoomTimelineItem       *result = loom_timeline_model_item_get_result (item);

  return d->is_error || (result != NULL && loom_timeline_item_get_data (result)->is_error);
}

static char *
capitalize (const char *word)
{
  if (word == NULL || *word == '\0')
    return g_strdup ("");
  return g_strdup_printf ("%c%s", g_ascii_toupper (word[0]), word + 1);
}

/* The bold name at the start of the row. */
static char *
title_for (const LoomTimelineData *d)
{
  if (is_kind (d, "subagent"))
    return g_strdup (_ ("Sub-agent"));
  if (d->tool_name != NULL)
    return g_strdup (d->tool_name);
  if (is_kind (d, "file_change"))
    return d->change_kind != NULL ? capitalize (d->change_kind) : g_strdup (_ ("File change"));
  if (is_kind (d, "tool_result"))
    return g_strdup (_ ("Tool result"));
  return g_strdup (_ ("Tool"));
}

/* What it acted on: the file of a change, the command or path of a call. */
static char *
summary_for (LoomTimelineContext    *context,
             const LoomTimelineData *d)
{
  g_autofree char *summary = NULL;
  g_autofree char *clean = NULL;

  if (is_kind (d, "file_change") && d->path != NULL)
    return loom_timeline_context_display_path (context, d->path);

  clean = loom_timeline_format_strip_controls (d->text);
  summary = loom_timeline_format_summary (clean != NULL ? clean : d->text);
  /* A path inside the session's folder reads best relative to it, as in the agent. */
  if (summary[0] == '/')
    return loom_timeline_context_display_path (context, summary);
  return g_steal_pointer (&summary);
}

char *
loom_timeline_tool_row_describe (LoomTimelineContext *context,
                                 LoomTimelineItem    *item)
{
  const LoomTimelineData *d = loom_timeline_item_get_data (item);
  g_autofree char        *title = title_for (d);
  g_autofree char        *summary = summary_for (context, d);
  g_autofree char        *text = NULL;

  if (g_utf8_strlen (summary, -1) > DESCRIPTION_CHARS)
    {
      g_autofree char *head = g_utf8_substring (summary, 0, DESCRIPTION_CHARS);

      g_free (summary);
      summary = g_strconcat (head, "…", NULL);
    }

  if (is_kind (d, "subagent"))
    /* Translators: the accessible label of a sub-agent's start; %s is its task. */
    text = g_strdup_printf (_ ("Sub-agent: %s"), summary);
  else if (is_kind (d, "file_change"))
    /* Translators: the first %s is the tool ("Edit"), the second the file. */
    text = g_strdup_printf (_ ("File change %s: %s"), title, summary);
  else if (is_kind (d, "tool_result"))
    text = g_strdup_printf (_ ("Tool result %s: %s"), title, summary);
  else
    /* Translators: the first %s is the tool ("Bash"), the second what it ran ("make"). */
    text = g_strdup_printf (_ ("Tool call %s: %s"), title, summary);

  if (item_failed (item))
    /* Translators: appended to a tool call's accessible label when it failed. */
    return g_strdup_printf (_ ("%s, failed"), text);
  return g_steal_pointer (&text);
}

/* Details */

static GtkWidget *
section_heading (const char *title)
{
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "caption-heading");
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_top (label, 4);
  loom_search_marker_skip (label);
  return label;
}

static GtkWidget *
code_box (const char *text,
          const char *css_class,
          gboolean    error)
{
  GtkWidget       *label = gtk_label_new (NULL);
  g_autofree char *clean = loom_timeline_format_strip_controls (text);

  /* set_text: tool output is never markup. */
  gtk_label_set_text (GTK_LABEL (label), clean != NULL ? clean : text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  loom_markdown_label_set_wrap_for (GTK_LABEL (label), clean != NULL ? clean : text);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  loom_markdown_label_set_literal_wrap (GTK_LABEL (label));
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_add_css_class (label, css_class);
  /* Not libadwaita's "error", which would colour the text itself. */
  if (error)
    gtk_widget_add_css_class (label, "failed");
  return label;
}

static GtkWidget *
diff_run_label (GString    *run,
                const char *css_class)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_text (GTK_LABEL (label), run->str);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_CHAR);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  loom_markdown_label_set_literal_wrap (GTK_LABEL (label));
  gtk_widget_add_css_class (label, "monospace");
  gtk_widget_add_css_class (label, css_class);
  g_string_truncate (run, 0);
  return label;
}

GtkWidget *
loom_timeline_diff_view_new (const char *diff)
{
  GtkWidget       *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  g_autofree char *clean = loom_timeline_format_strip_controls (diff);
  g_auto (GStrv) lines = g_strsplit (clean != NULL ? clean : diff != NULL ? diff : "", "\n", -1);
  g_autoptr (GString) run = g_string_new (NULL);
  const char *run_class = NULL;

  gtk_widget_add_css_class (box, "diff");
  gtk_accessible_update_property (GTK_ACCESSIBLE (box), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _ ("Changes"), -1);

  /* One label per run of lines of one kind keeps long diffs to a few widgets. */
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = lines[i];
      const char *line_class;

      switch (line[0])
        {
        case '+':
          line_class = "diff-added";
          break;
        case '-':
          line_class = "diff-removed";
          break;
        case '@':
          line_class = "diff-hunk";
          break;
        default:
          line_class = "diff-context";
          break;
        }

      if (run_class != NULL && g_strcmp0 (run_class, line_class) != 0)
        gtk_box_append (GTK_BOX (box), diff_run_label (run, run_class));
      if (run->len > 0)
        g_string_append_c (run, '\n');
      g_string_append (run, line);
      run_class = line_class;
    }
  if (run_class != NULL)
    gtk_box_append (GTK_BOX (box), diff_run_label (run, run_class));

  return box;
}

static void on_show_more_clicked_cb (GtkButton           *button,
                                     LoomTimelineToolRow *self);

#define WHOLE_TEXT_KEY "loom-whole-text"

/* The whole text goes to the clipboard as the bytes the row already holds: no copy of 50 MB
 * on the UI thread, and none read there (the row loaded it in a worker to show its head). */
static void
on_copy_all_clicked_cb (GtkButton *button)
{
  LoomTimelineText *whole = g_object_get_data (G_OBJECT (button), WHOLE_TEXT_KEY);
  g_autoptr (GBytes) bytes = whole != NULL ? loom_timeline_text_get_bytes (whole) : NULL;
  g_autoptr (GdkContentProvider) provider = NULL;

  if (bytes == NULL)
    return;
  provider = gdk_content_provider_new_for_bytes ("text/plain;charset=utf-8", bytes);
  gdk_clipboard_set_content (gtk_widget_get_clipboard (GTK_WIDGET (button)), provider);
}

LoomTimelineText *
loom_timeline_tool_row_get_copy_text (GtkButton *button)
{
  g_return_val_if_fail (GTK_IS_BUTTON (button), NULL);

  return g_object_get_data (G_OBJECT (button), WHOLE_TEXT_KEY);
}

static GtkWidget *
note_label (const char *text)
{
  GtkWidget *note = gtk_label_new (text);

  gtk_widget_add_css_class (note, "caption");
  gtk_widget_add_css_class (note, "dim-label");
  gtk_widget_add_css_class (note, "loom-left-out");
  /* Beside the buttons, in the room they leave: wrapped, GTK would give it its narrowest. */
  gtk_label_set_ellipsize (GTK_LABEL (note), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (note, TRUE);
  gtk_label_set_xalign (GTK_LABEL (note), 0);
  loom_search_marker_skip (note);
  return note;
}

/* A spinner and "Loading…": a payload is being read and made in a worker. */
static GtkWidget *
loading_box (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *spinner = gtk_spinner_new ();

  gtk_spinner_start (GTK_SPINNER (spinner));
  gtk_box_append (GTK_BOX (box), spinner);
  gtk_box_append (GTK_BOX (box), note_label (_ ("Loading…")));
  gtk_widget_add_css_class (box, "loom-loading");
  return box;
}

/* How much of a text shows, and how long it is: what the buttons under it say. */
typedef struct
{
  guint    n_lines; /* in the whole text (as far as it is known) */
  guint    n_shown_lines;
  guint64  size; /* of the whole text, in bytes */
  guint64  shown_size;
  gboolean estimate; /* the whole text could not be read: @size is its payload's */
  gboolean loading;  /* the whole text is being read: the button waits */
} FoldState;

/* Under folded text: "Show All 40 Lines" (or "Show More" for a huge text, with how much is
 * left); once unfolded, "Show Less", and for a text too long to lay out at once, how much
 * shows and "Copy All" (of @whole). While the whole text loads, "Show More" is insensitive
 * beside a spinner. */
static void
add_fold_buttons (LoomTimelineToolRow *self,
                  gboolean             showing_all,
                  const FoldState     *fold,
                  LoomTimelineText    *whole)
{
  GtkWidget       *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget       *button;
  g_autofree char *label = NULL;
  g_autofree char *note = NULL;
  gboolean         huge = fold->n_lines > ALL_LINES || fold->size > ALL_CHARS;

  if (showing_all)
    label = g_strdup (_ ("Show Less"));
  else if (!huge)
    /* Translators: under a folded tool output; %'u is its number of lines, grouped (1,234). */
    label = g_strdup_printf (
      g_dngettext (GETTEXT_PACKAGE, "Show All %'u Line", "Show All %'u Lines", fold->n_lines),
      fold->n_lines);
  else
    label = g_strdup (_ ("Show More"));

  button = gtk_button_new_with_label (label);
  gtk_widget_add_css_class (button, "flat");
  g_signal_connect (button, "clicked", G_CALLBACK (on_show_more_clicked_cb), self);
  gtk_widget_set_sensitive (button, !fold->loading);
  gtk_box_append (GTK_BOX (box), button);

  if (fold->loading)
    {
      gtk_box_append (GTK_BOX (box), loading_box ());
      gtk_box_append (self->details_box, box);
      return;
    }

  if (showing_all && whole != NULL && whole->text != NULL)
    {
      button = gtk_button_new_with_label (_ ("Copy All"));
      gtk_widget_add_css_class (button, "flat");
      g_object_set_data_full (G_OBJECT (button), WHOLE_TEXT_KEY, loom_timeline_text_ref (whole),
                              (GDestroyNotify)loom_timeline_text_unref);
      g_signal_connect (button, "clicked", G_CALLBACK (on_copy_all_clicked_cb), NULL);
      gtk_box_append (GTK_BOX (box), button);
    }

  if (fold->shown_size < fold->size && (showing_all || huge))
    {
      if (showing_all && fold->n_shown_lines < fold->n_lines && !fold->estimate)
        /* Translators: under a very long tool output shown in part. */
        note = g_strdup_printf (_ ("Showing the first %'u of %'u lines"), fold->n_shown_lines,
                                fold->n_lines);
      else if (showing_all && !fold->estimate)
        {
          g_autofree char *shown = g_format_size (fold->shown_size);
          g_autofree char *size = g_format_size (fold->size);

          /* Translators: under a very long tool output shown in part: "Showing the first
           * 100.0 kB of 50.0 MB". */
          note = g_strdup_printf (_ ("Showing the first %s of %s"), shown, size);
        }
      else
        note = loom_timeline_format_left_out (fold->size - fold->shown_size, fold->estimate);
      gtk_box_append (GTK_BOX (box), note_label (note));
    }
  gtk_box_append (self->details_box, box);
}

/* Adds @text, folded to its head unless @show_all, and even then no more than a label lays
 * out quickly; every head was found before (in a worker, for a payload). @size is the whole
 * text's, when @text is only the stored part of it (then @estimate: it is the payload's
 * size), else 0. @loading: the whole of it is being read. */
static void
add_folded (LoomTimelineToolRow *self,
            LoomTimelineText    *text,
            const char          *css_class,
            gboolean             error,
            gboolean             is_diff,
            guint64              size,
            gboolean             estimate,
            gboolean             show_all,
            gboolean             loading)
{
  const char *whole = text->text != NULL ? text->text : "";
  const char *shown;
  FoldState   fold = { 0 };

  fold.n_lines = text->n_lines;
  fold.n_shown_lines = text->n_lines;
  if (text->head == NULL)
    shown = whole;
  else if (!show_all)
    {
      shown = text->head;
      fold.n_shown_lines = 0; /* said only when all is shown */
    }
  else if (text->most != NULL)
    {
      shown = text->most;
      fold.n_shown_lines = text->n_most_lines;
    }
  else
    shown = whole;

  gtk_box_append (self->details_box, is_diff ? loom_timeline_diff_view_new (shown)
                                             : code_box (shown, css_class, error));

  fold.shown_size = shown == whole ? text->length : strlen (shown);
  fold.size = MAX (size, text->length);
  fold.estimate = estimate && fold.size > text->length;
  fold.loading = loading;
  if (text->head != NULL || fold.shown_size < fold.size)
    add_fold_buttons (self, show_all, &fold, text->most != NULL ? text : NULL);
}

static void on_text_loaded_cb (GObject      *source,
                               GAsyncResult *result,
                               gpointer      user_data);

/* The text @kind of event @d (with its result @r for a diff) when it is at hand: made
 * before, or of a payload small enough to read and make on the UI thread within a frame.
 * Else NULL, and the row has a worker read and make it (one at a time), to build its
 * details again once it is in. */
static LoomTimelineText *
need_text (LoomTimelineToolRow    *self,
           LoomTimelineTextKind    kind,
           const LoomTimelineData *d,
           const LoomTimelineData *r)
{
  LoomTimelineLoader *loader = loom_timeline_context_get_loader (self->context);
  LoomTimelineText   *text = loom_timeline_loader_lookup (loader, kind, d->id);
  gint64              bytes = d->payload_size +
                              (kind == LOOM_TIMELINE_TEXT_DIFF && r != NULL ? r->payload_size : 0);

  if (text != NULL)
    return text;
  if (bytes <= LOOM_TIMELINE_SYNC_PAYLOAD_BYTES)
    {
      const char *payload = loom_timeline_context_get_payload (self->context, d->id);
      const char *result_payload = NULL;
      g_autoptr (LoomTimelineText) made = NULL;

      if (kind == LOOM_TIMELINE_TEXT_DIFF && r != NULL)
        result_payload = loom_timeline_context_get_payload (self->context, r->id);
      made = loom_timeline_text_prepare (kind, payload, result_payload);
      return loom_timeline_loader_insert (loader, kind, d->id, made);
    }

  if (self->load_cancellable == NULL)
    {
      self->load_cancellable = g_cancellable_new ();
      loom_timeline_loader_load_async (loader, kind, d->id,
                                       kind == LOOM_TIMELINE_TEXT_DIFF && r != NULL ? r->id : 0,
                                       self->load_cancellable, on_text_loaded_cb, self);
    }
  return NULL;
}

static void
add_result (LoomTimelineToolRow *self,
            LoomTimelineItem    *result,
            const char          *title)
{
  const LoomTimelineData *r = loom_timeline_item_get_data (result);
  const char *stored = r->text != NULL && *r->text != '\0' ? r->text : _ ("(no output)");
  g_autoptr (LoomTimelineText) text = NULL;
  LoomTimelineText *whole = NULL;
  gboolean          cut = strlen (stored) >= STORED_TEXT_BOUND;
  gboolean show_all = loom_timeline_context_get_state (self->context, self->item,
                                                       LOOM_TIMELINE_STATE_SHOW_MORE, FALSE);
  gboolean loading = FALSE;
  guint64  size = 0;

  /* The stored text stops at its bound; asked for all of it, read the payload. Until then
   * (or when the payload says nothing more), its size tells about how much is left. */
  if (cut && show_all)
    {
      whole = need_text (self, LOOM_TIMELINE_TEXT_OUTPUT, r, NULL);
      loading = whole == NULL;
      if (whole != NULL && (whole->text == NULL || whole->length <= strlen (stored)))
        whole = NULL;
    }
  if (whole != NULL)
    text = loom_timeline_text_ref (whole);
  else
    text = loom_timeline_text_new (g_strdup (stored), LOOM_TIMELINE_OUTPUT_HEAD_LINES,
                                   LOOM_TIMELINE_OUTPUT_HEAD_CHARS);
  if (cut && whole == NULL && r->payload_size > 0)
    size = (guint64)r->payload_size;

  gtk_box_append (self->details_box, section_heading (r->is_error ? _ ("Error") : title));
  /* Until the whole is in, the stored head shows as folded. */
  add_folded (self, text, "output", r->is_error, FALSE, size, TRUE, show_all && !loading, loading);
}

static gboolean
get_show_all (LoomTimelineToolRow *self)
{
  return loom_timeline_context_get_state (self->context, self->item, LOOM_TIMELINE_STATE_SHOW_MORE,
                                          FALSE);
}

static void
add_input (LoomTimelineToolRow    *self,
           const LoomTimelineData *d)
{
  LoomTimelineText *input;

  gtk_box_append (self->details_box, section_heading (_ ("Input")));
  if ((input = need_text (self, LOOM_TIMELINE_TEXT_INPUT, d, NULL)))
    add_folded (self, input, "input", FALSE, FALSE, 0, FALSE, get_show_all (self), FALSE);
  else
    gtk_box_append (self->details_box, loading_box ());
}

static void
add_call_details (LoomTimelineToolRow    *self,
                  const LoomTimelineData *d,
                  LoomTimelineItem       *result)
{
  add_input (self, d);

  if (result != NULL)
    add_result (self, result, _ ("Output"));
  else
    gtk_box_append (self->details_box, section_heading (_ ("No result was recorded")));
}

static void
add_file_change_details (LoomTimelineToolRow    *self,
                         const LoomTimelineData *d,
                         LoomTimelineItem       *result)
{
  const LoomTimelineData *r = result != NULL ? loom_timeline_item_get_data (result) : NULL;
  LoomTimelineText       *diff = need_text (self, LOOM_TIMELINE_TEXT_DIFF, d, r);

  if (d->path != NULL)
    {
      GtkWidget *path = gtk_label_new (d->path);

      gtk_label_set_xalign (GTK_LABEL (path), 0);
      gtk_label_set_wrap (GTK_LABEL (path), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (path), PANGO_WRAP_CHAR);
      gtk_label_set_selectable (GTK_LABEL (path), TRUE);
      loom_markdown_label_set_literal_wrap (GTK_LABEL (path));
      gtk_widget_add_css_class (path, "caption");
      gtk_widget_add_css_class (path, "dim-label");
      gtk_box_append (self->details_box, path);
    }

  if (diff == NULL)
    gtk_box_append (self->details_box, loading_box ());
  else if (diff->text != NULL && *diff->text != '\0')
    add_folded (self, diff, NULL, FALSE, TRUE, 0, FALSE, get_show_all (self), FALSE);
  else
    add_input (self, d);

  /* "The file was updated" says nothing the diff does not; a failure does. */
  if (result != NULL && r->is_error)
    add_result (self, result, _ ("Output"));
}

static void on_markdown_parsed_cb (GObject      *source,
                                   GAsyncResult *result,
                                   gpointer      user_data);

/* A sub-agent's task or report, as Markdown. Its head is parsed here, within a frame; shown
 * whole, a long one is parsed in a worker, its head and a spinner shown meanwhile. @key
 * names it for the loader; @owner keeps @text alive (a LoomTimelineText, or NULL when
 * @item does). */
static void
add_markdown (LoomTimelineToolRow *self,
              gint64               key,
              const char          *text,
              LoomTimelineText    *owner,
              LoomTimelineItem    *item)
{
  LoomTimelineLoader   *loader = loom_timeline_context_get_loader (self->context);
  LoomTimelineMarkdown *markdown = NULL;
  g_autofree char      *prefix = NULL;
  g_autofree char      *clean = NULL;
  g_autofree char      *folded = NULL;
  gsize                 length = text != NULL ? strlen (text) : 0;
  gsize                 left_out = 0;
  gboolean              show_all = get_show_all (self);
  gboolean              loading = FALSE;
  const char           *head = text;
  FoldState             fold = { 0 };

  if (show_all && length > HEAD_SOURCE &&
      !(markdown = loom_timeline_loader_lookup_markdown (loader, key)))
    {
      loading = TRUE;
      show_all = FALSE;
      if (self->load_cancellable == NULL)
        {
          self->load_cancellable = g_cancellable_new ();
          if (owner != NULL)
            loom_timeline_loader_parse_markdown_async (
              loader, key, loom_timeline_text_ref (owner), (GDestroyNotify)loom_timeline_text_unref,
              text, FALSE, ALL_SOURCE, ALL_CHARS, ALL_LINES, self->load_cancellable,
              on_markdown_parsed_cb, self);
          else
            loom_timeline_loader_parse_markdown_async (
              loader, key, g_object_ref (item), g_object_unref, text, FALSE, ALL_SOURCE, ALL_CHARS,
              ALL_LINES, self->load_cancellable, on_markdown_parsed_cb, self);
        }
    }

  if (markdown != NULL)
    {
      gtk_box_append (self->details_box, loom_markdown_render_blocks (markdown->document));
      left_out = markdown->n_left_out;
    }
  else
    {
      /* Nothing past what md4c reads of a head is copied or cleaned here. */
      if (length > HEAD_SOURCE)
        head = prefix = g_strndup (text, HEAD_SOURCE);
      if ((clean = loom_timeline_format_strip_controls (head)))
        head = clean;
      if (show_all)
        gtk_box_append (self->details_box, loom_markdown_render_head (head, ALL_SOURCE, ALL_CHARS,
                                                                      ALL_LINES, &left_out));
      else
        gtk_box_append (self->details_box,
                        loom_markdown_render_head (head, HEAD_SOURCE, INPUT_HEAD_CHARS,
                                                   INPUT_HEAD_LINES, &left_out));
      if (prefix != NULL)
        left_out += length - HEAD_SOURCE;
    }

  /* Buttons when some of it is left out, or when it is unfolded from a fold. Past what a
   * label shows unfolded, the number of lines says nothing the size does not. */
  if (length <= ALL_CHARS)
    folded = loom_timeline_format_head (text, INPUT_HEAD_LINES, INPUT_HEAD_CHARS, &fold.n_lines);
  if (left_out > 0 || loading ||
      ((show_all || markdown != NULL) && (folded != NULL || length > ALL_CHARS)))
    {
      g_autoptr (LoomTimelineText) whole = NULL;

      show_all = show_all || markdown != NULL;
      fold.n_shown_lines = fold.n_lines;
      fold.size = length;
      fold.shown_size = fold.size - MIN (left_out, fold.size);
      fold.loading = loading;
      if (show_all && left_out > 0)
        whole = owner != NULL ? loom_timeline_text_ref (owner)
                              : loom_timeline_text_new_whole (g_strdup (text));
      add_fold_buttons (self, show_all, &fold, whole);
    }
}

static void
add_subagent_details (LoomTimelineToolRow    *self,
                      const LoomTimelineData *d,
                      LoomTimelineItem       *result)
{
  LoomTimelineText *prompt = need_text (self, LOOM_TIMELINE_TEXT_TASK, d, NULL);

  gtk_box_append (self->details_box, section_heading (_ ("Task")));
  /* Keyed apart from a message's Markdown: an event's id, shifted as the message row's. */
  if (prompt != NULL)
    add_markdown (self, d->id << 1, prompt->text != NULL ? prompt->text : "", prompt, NULL);
  else
    gtk_box_append (self->details_box, loading_box ());
  if (result != NULL)
    {
      const LoomTimelineData *r = loom_timeline_item_get_data (result);

      gtk_box_append (self->details_box,
                      section_heading (r->is_error ? _ ("Error") : _ ("Report")));
      add_markdown (self, r->id << 1, r->text, NULL, result);
    }
}

static void
clear_details (LoomTimelineToolRow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->details_box))))
    gtk_box_remove (self->details_box, child);
}

/* A load under way is for the item shown: a row recycled or folded drops it. */
static void
cancel_load (LoomTimelineToolRow *self)
{
  g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
}

static void
build_details (LoomTimelineToolRow *self)
{
  const LoomTimelineData *d = loom_timeline_item_get_data (self->item);
  LoomTimelineItem       *result = loom_timeline_model_item_get_result (self->item);

  clear_details (self);
  if (is_kind (d, "file_change"))
    add_file_change_details (self, d, result);
  else if (is_kind (d, "subagent"))
    add_subagent_details (self, d, result);
  else if (is_kind (d, "tool_result"))
    add_result (self, self->item, _ ("Output"));
  else
    add_call_details (self, d, result);
}

static void
on_text_loaded_cb (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  LoomTimelineToolRow *self;
  g_autoptr (LoomTimelineText) text = NULL;
  g_autoptr (GError) error = NULL;

  text = loom_timeline_loader_load_finish (LOOM_TIMELINE_LOADER (source), result, &error);
  /* Cancelled: the row was recycled, folded or disposed, and may be gone. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = LOOM_TIMELINE_TOOL_ROW (user_data);
  g_clear_object (&self->load_cancellable);
  if (text == NULL)
    {
      g_warning ("Could not load a tool call's details: %s", error->message);
      return;
    }
  /* The text is kept by the loader: the rebuild finds it (and starts the next load, if a
   * section needs one). */
  if (self->item != NULL && loom_timeline_tool_row_get_expanded (self))
    {
      build_details (self);
      loom_timeline_context_mark (self->context, GTK_WIDGET (self->details_box));
    }
}

static void
on_markdown_parsed_cb (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr (LoomTimelineMarkdown) markdown = NULL;
  g_autoptr (GError) error = NULL;
  LoomTimelineToolRow *self;

  markdown = loom_timeline_loader_parse_markdown_finish (LOOM_TIMELINE_LOADER (source), result,
                                                         &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = LOOM_TIMELINE_TOOL_ROW (user_data);
  g_clear_object (&self->load_cancellable);
  if (markdown == NULL)
    {
      g_warning ("Could not parse a sub-agent's text: %s", error->message);
      return;
    }
  if (self->item != NULL && loom_timeline_tool_row_get_expanded (self))
    {
      build_details (self);
      loom_timeline_context_mark (self->context, GTK_WIDGET (self->details_box));
    }
}

static void
on_show_more_clicked_cb (GtkButton           *button,
                         LoomTimelineToolRow *self)
{
  gboolean show_all;

  if (self->item == NULL)
    return;
  show_all = get_show_all (self);
  loom_timeline_context_set_state (self->context, self->item, LOOM_TIMELINE_STATE_SHOW_MORE,
                                   !show_all);
  /* The button is among what is rebuilt: finish its signal first. */
  g_object_ref (button);
  build_details (self);
  loom_timeline_context_mark (self->context, GTK_WIDGET (self->details_box));
  g_object_unref (button);
}

gboolean
loom_timeline_tool_row_get_loading (LoomTimelineToolRow *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_TOOL_ROW (self), FALSE);

  return self->load_cancellable != NULL;
}

/* Expanding */

gboolean
loom_timeline_tool_row_get_expanded (LoomTimelineToolRow *self)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_TOOL_ROW (self), FALSE);

  if (self->item == NULL)
    return FALSE;
  return loom_timeline_context_get_state (self->context, self->item, LOOM_TIMELINE_STATE_EXPANDED,
                                          FALSE);
}

/* Shows the state of the bound item; @animate only when a person toggled it. */
static void
sync_expanded (LoomTimelineToolRow *self,
               gboolean             animate)
{
  gboolean expanded = loom_timeline_tool_row_get_expanded (self);

  gtk_image_set_from_icon_name (self->chevron_image,
                                expanded ? "pan-down-symbolic" : "pan-end-symbolic");
  if (expanded)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->card), "expanded");
      build_details (self);
    }
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->card), "expanded");

  /* Always a slide, but instant when binding: GTK 4.8's revealer keeps the room of a hidden
   * child with the "none" transition. */
  gtk_revealer_set_transition_duration (self->revealer, animate ? 200 : 0);
  gtk_revealer_set_reveal_child (self->revealer, expanded);
  /* Folded, nothing of the details is kept: recycled rows stay light. */
  if (!expanded && !animate)
    clear_details (self);
  if (!expanded)
    cancel_load (self);

  gtk_accessible_update_state (GTK_ACCESSIBLE (self->toggle_button), GTK_ACCESSIBLE_STATE_EXPANDED,
                               expanded, -1);
}

void
loom_timeline_tool_row_set_expanded (LoomTimelineToolRow *self,
                                     gboolean             expanded)
{
  g_return_if_fail (LOOM_IS_TIMELINE_TOOL_ROW (self));

  if (self->item == NULL || loom_timeline_tool_row_get_expanded (self) == !!expanded)
    return;
  loom_timeline_context_set_state (self->context, self->item, LOOM_TIMELINE_STATE_EXPANDED,
                                   expanded);
  sync_expanded (self, gtk_widget_get_mapped (GTK_WIDGET (self)));
  if (expanded)
    loom_timeline_context_mark (self->context, GTK_WIDGET (self->details_box));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPANDED]);
}

static void
on_toggle_clicked_cb (LoomTimelineToolRow *self)
{
  g_assert (LOOM_IS_TIMELINE_TOOL_ROW (self));

  loom_timeline_tool_row_set_expanded (self, !loom_timeline_tool_row_get_expanded (self));
}

static void
on_open_clicked_cb (LoomTimelineToolRow *self)
{
  const char *uuid;

  g_assert (LOOM_IS_TIMELINE_TOOL_ROW (self));

  if (self->item != NULL && (uuid = loom_timeline_model_item_get_child_uuid (self->item)))
    loom_timeline_context_open_session (self->context, uuid);
}

void
loom_timeline_tool_row_set_item (LoomTimelineToolRow *self,
                                 LoomTimelineItem    *item)
{
  const LoomTimelineData *d;
  g_autofree char        *title = NULL;
  g_autofree char        *summary = NULL;
  g_autofree char        *date_time = NULL;
  gboolean                failed, file;

  g_return_if_fail (LOOM_IS_TIMELINE_TOOL_ROW (self));
  g_return_if_fail (item == NULL || LOOM_IS_TIMELINE_ITEM (item));

  if (!g_set_object (&self->item, item))
    return;
  cancel_load (self);

  if (item == NULL)
    {
      clear_details (self);
      gtk_revealer_set_transition_duration (self->revealer, 0);
      gtk_revealer_set_reveal_child (self->revealer, FALSE);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
      return;
    }

  d = loom_timeline_item_get_data (item);
  title = title_for (d);
  summary = summary_for (self->context, d);
  failed = item_failed (item);
  file = is_kind (d, "file_change") || is_kind (d, "tool_call") || is_kind (d, "tool_result");

  gtk_image_set_from_icon_name (
    self->icon_image, loom_timeline_format_tool_icon (d->tool_name, d->kind, d->change_kind));
  gtk_label_set_text (self->name_label, title);
  gtk_label_set_text (self->summary_label, summary);
  /* Commands and paths read best in monospace; a sub-agent's task is prose. */
  if (file)
    gtk_widget_add_css_class (GTK_WIDGET (self->summary_label), "monospace");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->summary_label), "monospace");

  gtk_widget_set_visible (GTK_WIDGET (self->status_image), failed);
  if (failed)
    gtk_widget_add_css_class (GTK_WIDGET (self->card), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->card), "error");

  gtk_widget_set_visible (GTK_WIDGET (self->open_button),
                          loom_timeline_model_item_get_child_uuid (item) != NULL);

  date_time = loom_timeline_format_date_time (d->created_at);
  loom_timeline_set_tooltip (GTK_WIDGET (self->toggle_button), date_time);
  if (failed)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->toggle_button),
                                    GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _ ("Failed"), -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (self->toggle_button),
                                   GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);

  sync_expanded (self, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ITEM]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_EXPANDED]);
}

static void
loom_timeline_tool_row_dispose (GObject *object)
{
  LoomTimelineToolRow *self = (LoomTimelineToolRow *)object;

  cancel_load (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), LOOM_TYPE_TIMELINE_TOOL_ROW);
  g_clear_object (&self->item);
  g_clear_object (&self->context);

  G_OBJECT_CLASS (loom_timeline_tool_row_parent_class)->dispose (object);
}

static void
loom_timeline_tool_row_get_property (GObject    *object,
                                     guint       prop_id,
                                     GValue     *value,
                                     GParamSpec *pspec)
{
  LoomTimelineToolRow *self = LOOM_TIMELINE_TOOL_ROW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      g_value_set_object (value, self->context);
      break;
    case PROP_EXPANDED:
      g_value_set_boolean (value, loom_timeline_tool_row_get_expanded (self));
      break;
    case PROP_ITEM:
      g_value_set_object (value, self->item);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_timeline_tool_row_set_property (GObject      *object,
                                     guint         prop_id,
                                     const GValue *value,
                                     GParamSpec   *pspec)
{
  LoomTimelineToolRow *self = LOOM_TIMELINE_TOOL_ROW (object);

  switch (prop_id)
    {
    case PROP_CONTEXT:
      self->context = g_value_dup_object (value);
      break;
    case PROP_EXPANDED:
      loom_timeline_tool_row_set_expanded (self, g_value_get_boolean (value));
      break;
    case PROP_ITEM:
      loom_timeline_tool_row_set_item (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
loom_timeline_tool_row_class_init (LoomTimelineToolRowClass *klass)
{
  GObjectClass   *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = loom_timeline_tool_row_dispose;
  object_class->get_property = loom_timeline_tool_row_get_property;
  object_class->set_property = loom_timeline_tool_row_set_property;

  properties[PROP_CONTEXT] = g_param_spec_object ("context", NULL, NULL, LOOM_TYPE_TIMELINE_CONTEXT,
                                                  G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY |
                                                    G_PARAM_STATIC_STRINGS);
  properties[PROP_EXPANDED] = g_param_spec_boolean ("expanded", NULL, NULL, FALSE,
                                                    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                      G_PARAM_STATIC_STRINGS);
  properties[PROP_ITEM] = g_param_spec_object ("item", NULL, NULL, LOOM_TYPE_TIMELINE_ITEM,
                                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY |
                                                 G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/intentloom/History/ui/"
                                                             "loom-timeline-tool-row.ui");
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, card);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, chevron_image);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, details_box);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, icon_image);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, name_label);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, open_button);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, revealer);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, status_image);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, summary_label);
  gtk_widget_class_bind_template_child (widget_class, LoomTimelineToolRow, toggle_button);
  gtk_widget_class_bind_template_callback (widget_class, on_open_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, on_toggle_clicked_cb);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GENERIC);
}

static void
loom_timeline_tool_row_init (LoomTimelineToolRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
loom_timeline_tool_row_new (LoomTimelineContext *context)
{
  g_return_val_if_fail (LOOM_IS_TIMELINE_CONTEXT (context), NULL);

  return g_object_new (LOOM_TYPE_TIMELINE_TOOL_ROW, "context", context, NULL);
}
