/* loom-search-marker.c — the words of a search marked wherever a label shows them.
 *
 * What counts as a match is the core's to say, as it says it in the snippets of the search
 * results (loom-search-marks.h): the text is read with the index's own tokenizer, so that
 * "cafe" marks "Café", "config" the middle of "loadConfig", and one Chinese character the same
 * character in a sentence. The words come from the query's text as the core's parser reads it
 * (loom-search-query-text.h).
 *
 * A label is marked with Pango attributes, a background and a text colour from libadwaita's
 * palette that read the same on the light and the dark style, without changing the text's size:
 * marking a row never moves what is around it. The label's own attributes are kept aside, to be
 * put back when the marks go.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "loom-search-marker.h"
#include "loom-search-marks.h"
#include "loom-search-query-text.h"

struct _LoomSearchMarker
{
  GObject parent_instance;

  char            *query;
  LoomSearchMarks *marks;

  GdkRGBA  background;
  GdkRGBA  foreground;
  gboolean has_colors;
};

G_DEFINE_FINAL_TYPE (LoomSearchMarker, loom_search_marker, G_TYPE_OBJECT)

/* What a marked label had before: its own attributes, put back when the marks go. */
typedef struct
{
  PangoAttrList *own;
} LabelMarks;

static GQuark
label_marks_quark (void)
{
  return g_quark_from_static_string ("loom-search-marks");
}

static GQuark
label_skip_quark (void)
{
  return g_quark_from_static_string ("loom-search-marks-skip");
}

static void
label_marks_free (gpointer data)
{
  LabelMarks *marks = data;

  g_clear_pointer (&marks->own, pango_attr_list_unref);
  g_free (marks);
}

static void
loom_search_marker_finalize (GObject *object)
{
  LoomSearchMarker *self = LOOM_SEARCH_MARKER (object);

  g_clear_pointer (&self->marks, loom_search_marks_free);
  g_free (self->query);

  G_OBJECT_CLASS (loom_search_marker_parent_class)->finalize (object);
}

static void
loom_search_marker_class_init (LoomSearchMarkerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = loom_search_marker_finalize;
}

static void
loom_search_marker_init (LoomSearchMarker *self)
{
}

LoomSearchMarker *
loom_search_marker_new (const char *query)
{
  g_autoptr (LoomSearchMarker) self = NULL;
  g_autoptr (GArray) prefix = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) words = NULL;

  g_return_val_if_fail (query != NULL, NULL);

  if (!(words = loom_search_query_text_get_words (query, &prefix)))
    return NULL;

  self = g_object_new (LOOM_TYPE_SEARCH_MARKER, NULL);
  self->query = g_strdup (query);
  if (!(self->marks = loom_search_marks_new ((const char *const *)words,
                                             (const gboolean *)(gpointer)prefix->data,
                                             g_strv_length (words), &error)))
    {
      /* The search itself needs the same tokenizer: this cannot fail where a search ran. */
      g_warning ("Cannot mark the words of “%s”: %s", query, error->message);
      return NULL;
    }
  return g_steal_pointer (&self);
}

const char *
loom_search_marker_get_query (LoomSearchMarker *self)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_MARKER (self), NULL);

  return self->query;
}

GArray *
loom_search_marker_find (LoomSearchMarker *self,
                         const char       *text)
{
  g_return_val_if_fail (LOOM_IS_SEARCH_MARKER (self), NULL);
  g_return_val_if_fail (text != NULL, NULL);

  return loom_search_marks_find (self->marks, text);
}

/* The colours of the marks: a highlighter's yellow under dark text, on either style. */
static void
resolve_colors (LoomSearchMarker *self,
                GtkWidget        *widget)
{
  GtkStyleContext *context;

  if (self->has_colors)
    return;

  context = gtk_widget_get_style_context (widget);
  if (!gtk_style_context_lookup_color (context, "yellow_2", &self->background))
    gdk_rgba_parse (&self->background, "#f8e45c");
  if (!gtk_style_context_lookup_color (context, "dark_4", &self->foreground))
    gdk_rgba_parse (&self->foreground, "#241f31");
  self->has_colors = TRUE;
}

static guint16
channel (float value)
{
  return (guint16)(CLAMP (value, 0.0f, 1.0f) * 65535.0f + 0.5f);
}

static void
insert_range (PangoAttrList  *attributes,
              PangoAttribute *attribute,
              guint           start,
              guint           end)
{
  attribute->start_index = start;
  attribute->end_index = end;
  pango_attr_list_insert (attributes, attribute);
}

/* GTK 4.8 merges the attributes set on a label into those it parsed from the label's markup,
 * and keeps them there: marks taken away would stay. A label whose marks change reads its
 * markup again, which forgets them. */
static void
forget_old_marks (GtkLabel *label)
{
  if (!gtk_label_get_use_markup (label))
    return;
  gtk_label_set_use_markup (label, FALSE);
  gtk_label_set_use_markup (label, TRUE);
}

void
loom_search_marker_mark_label (LoomSearchMarker *marker,
                               GtkLabel         *label)
{
  LabelMarks *marks;
  g_autoptr (GArray) found = NULL;
  PangoAttrList *attributes;

  g_return_if_fail (marker == NULL || LOOM_IS_SEARCH_MARKER (marker));
  g_return_if_fail (GTK_IS_LABEL (label));

  marks = g_object_get_qdata (G_OBJECT (label), label_marks_quark ());
  if (marker != NULL)
    found = loom_search_marker_find (marker, gtk_label_get_text (label));

  if (found == NULL || found->len == 0)
    {
      if (marks != NULL)
        {
          gtk_label_set_attributes (label, marks->own);
          g_object_set_qdata (G_OBJECT (label), label_marks_quark (), NULL);
          forget_old_marks (label);
        }
      return;
    }

  if (marks == NULL)
    {
      PangoAttrList *own = gtk_label_get_attributes (label);

      marks = g_new0 (LabelMarks, 1);
      marks->own = own != NULL ? pango_attr_list_ref (own) : NULL;
      g_object_set_qdata_full (G_OBJECT (label), label_marks_quark (), marks, label_marks_free);
    }
  else
    forget_old_marks (label);

  resolve_colors (marker, GTK_WIDGET (label));
  attributes = marks->own != NULL ? pango_attr_list_copy (marks->own) : pango_attr_list_new ();
  for (guint i = 0; i + 1 < found->len; i += 2)
    {
      guint start = g_array_index (found, guint, i);
      guint end = g_array_index (found, guint, i + 1);

      insert_range (attributes,
                    pango_attr_background_new (channel (marker->background.red),
                                               channel (marker->background.green),
                                               channel (marker->background.blue)),
                    start, end);
      insert_range (attributes,
                    pango_attr_foreground_new (channel (marker->foreground.red),
                                               channel (marker->foreground.green),
                                               channel (marker->foreground.blue)),
                    start, end);
    }
  gtk_label_set_attributes (label, attributes);
  pango_attr_list_unref (attributes);
}

static void
mark_tree (LoomSearchMarker *marker,
           GtkWidget        *widget,
           gboolean          is_root)
{
  /* What is not shown is marked when it is: every place that shows a label marks it. The root
   * is shown, its caller says: a revealer shows its child only once it starts to slide. */
  if (!gtk_widget_get_visible (widget) || (!is_root && !gtk_widget_get_child_visible (widget)) ||
      g_object_get_qdata (G_OBJECT (widget), label_skip_quark ()) != NULL)
    return;

  /* "Show More", "Copy All": a button's own words. */
  if (GTK_IS_BUTTON (widget) && gtk_button_get_label (GTK_BUTTON (widget)) != NULL)
    return;

  if (GTK_IS_LABEL (widget))
    {
      loom_search_marker_mark_label (marker, GTK_LABEL (widget));
      return;
    }

  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    mark_tree (marker, child, FALSE);
}

void
loom_search_marker_mark_tree (LoomSearchMarker *marker,
                              GtkWidget        *root)
{
  g_return_if_fail (marker == NULL || LOOM_IS_SEARCH_MARKER (marker));
  g_return_if_fail (GTK_IS_WIDGET (root));

  mark_tree (marker, root, TRUE);
}

void
loom_search_marker_skip (GtkWidget *label)
{
  g_return_if_fail (GTK_IS_WIDGET (label));

  g_object_set_qdata (G_OBJECT (label), label_skip_quark (), GINT_TO_POINTER (TRUE));
}
