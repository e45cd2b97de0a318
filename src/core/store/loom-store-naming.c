/* loom-store-naming.c — the first prompt of a session, that a suggested name starts from.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "loom-event-kinds.h"
#include "loom-store-naming.h"
#include "loom-store.h"
#include "loom-timeline-item.h"

/* The first prompt is rarely far in: a page or two of timeline covers the injected context and
 * commands that can come before it, and a session without any prompt is not read to its end. */
#define PROMPT_PAGE         64
#define PROMPT_SEARCH_LIMIT 1024

static gboolean
has_words (const char *text)
{
  for (const char *p = text; p != NULL && *p != '\0'; p = g_utf8_next_char (p))
    {
      if (!g_unichar_isspace (g_utf8_get_char (p)))
        return TRUE;
    }
  return FALSE;
}

char *
loom_store_find_first_prompt (LoomStore  *store,
                              const char *id,
                              GError    **error)
{
  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (id != NULL, NULL);

  for (guint offset = 0; offset < PROMPT_SEARCH_LIMIT; offset += PROMPT_PAGE)
    {
      g_autoptr (GListModel) page = NULL;
      guint n_items;

      if (!(page = loom_store_list_timeline (store, id, offset, PROMPT_PAGE, error)))
        return NULL;

      n_items = g_list_model_get_n_items (page);
      for (guint i = 0; i < n_items; i++)
        {
          g_autoptr (LoomTimelineItem) item = g_list_model_get_item (page, i);
          const LoomTimelineData *data = loom_timeline_item_get_data (item);

          if (data->is_message && g_strcmp0 (data->role, "user") == 0 &&
              (data->flags & LOOM_MESSAGE_NOT_A_PROMPT) == 0 && has_words (data->text))
            return g_strdup (data->text);
        }

      if (n_items < PROMPT_PAGE)
        break;
    }
  return NULL;
}
