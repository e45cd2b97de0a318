/* fuzz-search-query.c — the search box's query language on any text: the parser gives a query
 * or an error that says what to change, searching a real store with it never fails with an SQL
 * or FTS5 error (loom-search.h), and the lexer the filter popover edits the text with reads
 * every byte and gives back what a filter is set to (loom-search-query-text.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-fuzz.h"
#include "loom-import.h"
#include "loom-search-private.h"
#include "loom-search-query-text.h"
#include "loom-session.h"
#include "loom-store.h"

#define SESSION "5f0c9a52-1b7e-4c55-9d0e-3a8b2f6d1c01"

/* Words and filters for the queries to find, in the records Claude Code writes. */
static const char transcript[] =
  "{\"type\":\"user\",\"uuid\":\"00000000-0000-4000-8000-000000000001\",\"parentUuid\":null,"
  "\"sessionId\":\"" SESSION "\",\"timestamp\":\"2026-11-20T10:00:00.000Z\","
  "\"cwd\":\"/home/ada/src/loom\",\"version\":\"2.1.81\",\"isSidechain\":false,"
  "\"userType\":\"external\",\"message\":{\"role\":\"user\",\"content\":"
  "\"Run the schema migration: parserWrite parser1073 café 東京 “quoted” -dash OR and\"}}\n"
  "{\"type\":\"assistant\",\"uuid\":\"00000000-0000-4000-9000-000000000002\","
  "\"parentUuid\":\"00000000-0000-4000-8000-000000000001\",\"sessionId\":\"" SESSION "\","
  "\"timestamp\":\"2026-11-20T10:00:30.000Z\",\"cwd\":\"/home/ada/src/loom\","
  "\"version\":\"2.1.81\",\"isSidechain\":false,\"userType\":\"external\","
  "\"requestId\":\"req_1\",\"message\":{\"model\":\"claude-sonnet-4-5\",\"id\":\"msg_1\","
  "\"type\":\"message\",\"role\":\"assistant\",\"content\":["
  "{\"type\":\"text\",\"text\":\"The migration ran; schema version 6.\"},"
  "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"Bash\","
  "\"input\":{\"command\":\"meson test -C _build migration\"}}],"
  "\"stop_reason\":\"tool_use\",\"usage\":{\"input_tokens\":10,\"output_tokens\":5}}}\n"
  "{\"type\":\"user\",\"uuid\":\"00000000-0000-4000-8000-000000000003\","
  "\"parentUuid\":\"00000000-0000-4000-9000-000000000002\",\"sessionId\":\"" SESSION "\","
  "\"timestamp\":\"2026-11-20T10:01:00.000Z\",\"cwd\":\"/home/ada/src/loom\","
  "\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
  "\"tool_use_id\":\"toolu_1\",\"is_error\":true,\"content\":\"1 FAIL migration\"}]}}\n";

static LoomStore *store;
static char      *session_uuid;

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_autofree char *db = NULL;
  g_autofree char *path = NULL;
  g_autoptr (LoomImportStats) stats = loom_import_stats_new ();
  g_autoptr (GListModel) sessions = NULL;
  g_autoptr (LoomSession) session = NULL;
  g_autoptr (GError) error = NULL;
  LoomSessionQuery  query = { 0 };
  const char       *paths[2] = { NULL, NULL };
  LoomImportOptions options = { "claude-code", paths };

  loom_fuzz_init ();
  db = g_build_filename (loom_fuzz_tmpdir (), "history.db", NULL);
  path = g_build_filename (loom_fuzz_tmpdir (), ".claude", "projects", "-home-ada-src-loom",
                           SESSION ".jsonl", NULL);
  loom_fuzz_write_file (path, (const uint8_t *)transcript, strlen (transcript));
  paths[0] = path;

  store = loom_store_open (db, &error);
  g_assert_no_error (error);
  g_assert_true (loom_import_run (store, &options, NULL, NULL, NULL, stats, &error));
  g_assert_no_error (error);

  query.collection = LOOM_COLLECTION_EVERYTHING;
  sessions = loom_store_list_sessions (store, &query, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_list_model_get_n_items (sessions), ==, 1);
  session = g_list_model_get_item (sessions, 0);
  session_uuid = g_strdup (loom_session_get_uuid (session));
  return 0;
}

/* Stands in for the index's terms: a few that begin with the word, odd bytes and all. */
static GPtrArray *
expand (const char *word,
        gpointer    data,
        GError    **error)
{
  GPtrArray *terms;

  if (*word == '\0' || (guchar)*word % 3 == 0)
    return NULL;
  terms = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (terms, g_strdup (word));
  g_ptr_array_add (terms, g_strconcat (word, "\"s", NULL));
  g_ptr_array_add (terms, g_strconcat (word, "écrit", NULL));
  return terms;
}

static void
assert_search_error (GError *error)
{
  /* What the person typed is at fault, and the message says so; never SQL's own words. */
  if (error == NULL)
    return;
  g_assert_error (error, LOOM_ERROR, LOOM_ERROR_INVALID_ARGUMENT);
}

/* The tokens lie in order with only white space between them; a filter set is read back, and
 * the text rebuilt from the tokens means to the parser what the text did. */
static void
check_text (const char *text)
{
  g_autoptr (GArray) tokens = loom_search_query_text_tokenize (text);
  g_autofree char *edited = NULL;
  g_autofree char *value = NULL;
  g_autofree char *has = NULL;
  gboolean         unclosed = FALSE;
  gsize            covered = 0;

  for (guint i = 0; i < tokens->len; i++)
    {
      const LoomSearchToken *token = &g_array_index (tokens, LoomSearchToken, i);

      g_assert_cmpuint (token->start, >=, covered);
      g_assert_cmpuint (token->end, >, token->start);
      for (gsize b = covered; b < token->start; b++)
        g_assert_true (g_ascii_isspace (text[b]));
      g_assert_nonnull (token->value);
      unclosed |= token->unclosed;
      covered = token->end;
    }
  for (gsize b = covered; text[b] != '\0'; b++)
    g_assert_true (g_ascii_isspace (text[b]));

  /* An open quote swallows what is written after it; the parser refuses that text anyway. */
  if (unclosed)
    return;
  edited = loom_search_query_text_set_filter (text, "folder", "a \"b\" c");
  value = loom_search_query_text_get_filter (edited, "folder");
  g_assert_cmpstr (value, ==, "a b c");

  if (!(has = loom_search_query_text_get_filter (text, "has")))
    {
      g_autofree char *rebuilt = loom_search_query_text_set_filter (text, "has", NULL);
      g_autoptr (LoomSearchQuery) query = loom_search_query_parse (text, NULL);
      g_autoptr (LoomSearchQuery) again = loom_search_query_parse (rebuilt, NULL);

      g_assert_true ((query == NULL) == (again == NULL));
      if (query != NULL)
        {
          g_assert_cmpstr (query->match, ==, again->match);
          g_assert_cmpstr (query->where->str, ==, again->where->str);
        }
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *)data, size);
  g_autoptr (LoomSearchQuery) query = NULL;
  g_autoptr (GListModel) hits = NULL;
  g_autoptr (GListModel) in_session = NULL;
  g_autoptr (GListModel) positions = NULL;
  g_autoptr (GError) error = NULL;
  const gboolean    *prefix = NULL;
  const char *const *words;
  gboolean           native = FALSE;
  guint              n_words = 0;

  check_text (text);

  query = loom_search_query_parse (text, &error);
  if (query == NULL)
    {
      assert_search_error (error);
      g_assert_nonnull (error);
      return 0;
    }
  g_assert_no_error (error);

  words = loom_search_query_get_words (query, &prefix, &n_words);
  for (guint i = 0; i < n_words; i++)
    {
      g_assert_nonnull (words[i]);
      g_assert_true (g_utf8_validate (words[i], -1, NULL));
      (void)prefix[i];
    }
  if (loom_search_query_get_match (query) != NULL)
    g_assert_true (g_utf8_validate (loom_search_query_get_match (query), -1, NULL));
  if (!loom_search_query_expand_prefixes (query, expand, NULL, &native, &error))
    assert_search_error (error);
  g_clear_error (&error);

  hits = loom_store_search (store, text, 0, 20, &error);
  assert_search_error (error);
  g_clear_error (&error);
  in_session = loom_store_search_session (store, session_uuid, text, 20, &error);
  assert_search_error (error);
  g_clear_error (&error);
  positions = loom_store_search_session_positions (store, session_uuid, text, 20, &error);
  assert_search_error (error);
  return 0;
}
