/* loom-search-tokenizer.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-search-terms.h"
#include "loom-search-tokenizer.h"

/* What the tokenizer is registered with, once per connection. */
typedef struct
{
  fts5_api          *api;
  LoomSearchTermLog *log; /* the terms indexed, or NULL */
} Module;

typedef struct
{
  fts5_tokenizer     inner;
  Fts5Tokenizer     *inner_instance;
  LoomSearchTermLog *log;
} LoomTokenizer;

typedef struct
{
  void *context;
  int (*emit) (void *,
               int,
               const char *,
               int,
               int,
               int);
  int                flags;
  const char        *text;
  LoomSearchTermLog *log; /* set while indexing */
} TokenizeCall;

fts5_api *
loom_search_get_fts5_api (sqlite3 *db)
{
  fts5_api     *api = NULL;
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (db, "SELECT fts5(?1)", -1, &stmt, NULL) != SQLITE_OK)
    return NULL;
  sqlite3_bind_pointer (stmt, 1, &api, "fts5_api_ptr", NULL);
  sqlite3_step (stmt);
  sqlite3_finalize (stmt);
  return api;
}

static int
tokenizer_create (void           *user_data,
                  const char    **args,
                  int             n_args,
                  Fts5Tokenizer **out)
{
  static const char *inner_args[] = { "remove_diacritics", "2" };
  Module            *module = user_data;
  LoomTokenizer     *self = g_new0 (LoomTokenizer, 1);
  void              *inner_data = NULL;
  int                rc;

  self->log = module->log;
  rc = module->api->xFindTokenizer (module->api, "unicode61", &inner_data, &self->inner);
  if (rc == SQLITE_OK)
    rc = self->inner.xCreate (inner_data, inner_args, G_N_ELEMENTS (inner_args),
                              &self->inner_instance);
  if (rc != SQLITE_OK)
    {
      g_free (self);
      return rc;
    }
  *out = (Fts5Tokenizer *)self;
  return SQLITE_OK;
}

static void
tokenizer_delete (Fts5Tokenizer *tokenizer)
{
  LoomTokenizer *self = (LoomTokenizer *)tokenizer;

  if (self->inner_instance != NULL)
    self->inner.xDelete (self->inner_instance);
  g_free (self);
}

/* Gives FTS5 a token, noting it while indexing; @head as loom_search_term_log_add(). */
static int
give_token (TokenizeCall *call,
            int           flags,
            const char   *token,
            int           length,
            int           start,
            int           end,
            int           head)
{
  if (call->log != NULL)
    loom_search_term_log_add (call->log, token, length, head);
  return call->emit (call->context, flags, token, length, start, end);
}

/* Scripts written without spaces between words. */
static gboolean
is_unspaced_script (gunichar c)
{
  return (c >= 0x3040 && c <= 0x30FF) || /* Hiragana, Katakana */
         (c >= 0x3400 && c <= 0x4DBF) || /* CJK extension A */
         (c >= 0x4E00 && c <= 0x9FFF) || /* CJK unified ideographs */
         (c >= 0xAC00 && c <= 0xD7AF) || /* Hangul syllables */
         (c >= 0xF900 && c <= 0xFAFF) || /* CJK compatibility ideographs */
         (c >= 0xFF66 && c <= 0xFF9F) || /* half-width Katakana */
         (c >= 0x20000 && c <= 0x2FA1F); /* CJK extensions B and later */
}

static gboolean
has_unspaced_script (const char *token,
                     int         length)
{
  const char *end = token + length;
  const char *p = token;

  /* These scripts take three or four bytes in UTF-8, led by 0xE0 or above; most tokens have
   * no such byte, and a plain scan settles it for them. */
  while (p < end && (guchar)*p < 0xE0)
    p++;
  for (; p < end; p = g_utf8_next_char (p))
    if ((guchar)*p >= 0xE0 && is_unspaced_script (g_utf8_get_char_validated (p, end - p)))
      return TRUE;
  return FALSE;
}

/* Emits a run of unspaced script one character at a time, and the other characters in between
 * as tokens of their own. Offsets are exact when folding kept the bytes (it does for these
 * scripts); otherwise each piece carries the whole token's range. */
static int
emit_split (TokenizeCall *call,
            const char   *token,
            int           length,
            int           start,
            int           end)
{
  gboolean    exact = end - start == length && memcmp (call->text + start, token, length) == 0;
  const char *p = token;
  const char *stop = token + length;

  while (p < stop)
    {
      const char *next = g_utf8_next_char (p);
      gunichar    c = g_utf8_get_char_validated (p, stop - p);
      int         rc;

      if (!is_unspaced_script (c))
        {
          while (next < stop && !is_unspaced_script (g_utf8_get_char_validated (next, stop - next)))
            next = g_utf8_next_char (next);
        }

      rc = give_token (call, 0, p, (int)(next - p), exact ? start + (int)(p - token) : start,
                       exact ? start + (int)(next - token) : end, 0);
      if (rc != SQLITE_OK)
        return rc;
      p = next;
    }
  return SQLITE_OK;
}

/* In "PaymentService" or "parseHTTPHeader", where a new word starts. */
static gboolean
starts_word (const char *original,
             int         i,
             int         length)
{
  char c = original[i], before = original[i - 1];

  if (g_ascii_isupper (c) && g_ascii_islower (before))
    return TRUE;
  return g_ascii_isupper (c) && g_ascii_isupper (before) && i + 1 < length &&
         g_ascii_islower (original[i + 1]);
}

/* In "parser1073" or "base64", where the digits start: letters, then digits only, at least two
 * letters. Anything more mixed (a hash, a UUID's parts) stays one word: its pieces would mean
 * nothing and swell the index. */
static int
digits_start (const char *original,
              int         length)
{
  int i = 0;

  while (i < length && g_ascii_isalpha (original[i]))
    i++;
  if (i < 2 || i == length)
    return 0;
  for (int j = i; j < length; j++)
    if (!g_ascii_isdigit (original[j]))
      return 0;
  return i;
}

/* Indexes "parser1073" by its letters and its number too, at the same place, so that pars*
 * needs no term of its own for each numbered name (loom-search-terms.h) and 1073 finds it. */
static int
emit_with_number (TokenizeCall *call,
                  int           flags,
                  const char   *token,
                  int           length,
                  int           start,
                  int           end,
                  int           digits)
{
  int rc = give_token (call, flags, token, length, start, end, digits);

  if (rc == SQLITE_OK)
    rc = give_token (call, FTS5_TOKEN_COLOCATED, token, digits, start, start + digits, 0);
  if (rc == SQLITE_OK)
    rc = give_token (call, FTS5_TOKEN_COLOCATED, token + digits, length - digits, start + digits,
                     end, 0);
  return rc;
}

/* Indexes a camelCase identifier by its parts too, at the same position, so that "payment"
 * finds PaymentService. Only documents get the parts: a query keeps the whole word. */
static int
emit_with_parts (TokenizeCall *call,
                 const char   *token,
                 int           length,
                 int           start,
                 int           end)
{
  const char *original = call->text + start;
  int         rc, part = 0, head = 0;

  if (end - start != length || length < 4)
    return give_token (call, 0, token, length, start, end, 0);

  for (head = 1; head < length && !starts_word (original, head, length); head++)
    ;
  rc = give_token (call, 0, token, length, start, end, head < length ? head : 0);
  if (rc != SQLITE_OK)
    return rc;

  for (int i = 1; i <= length; i++)
    {
      if (i < length && !starts_word (original, i, length))
        continue;
      if (part > 0 || i < length)
        {
          int digits = i - part >= 4 ? digits_start (original + part, i - part) : 0;

          /* loadConfig1407: load, config1407, and that one's parts in turn. */
          if (digits > 0)
            rc = emit_with_number (call, FTS5_TOKEN_COLOCATED, token + part, i - part, start + part,
                                   start + i, digits);
          else
            rc = give_token (call, FTS5_TOKEN_COLOCATED, token + part, i - part, start + part,
                             start + i, 0);
          if (rc != SQLITE_OK)
            return rc;
        }
      part = i;
    }
  return SQLITE_OK;
}

static gboolean
has_inner_capital (const char *original,
                   int         length)
{
  for (int i = 1; i < length; i++)
    if (starts_word (original, i, length))
      return TRUE;
  return FALSE;
}

/* What a byte may start: a character of three or four bytes, which an unspaced script needs; a
 * capital, which a camelCase word needs; a digit, which a numbered name needs. */
enum
{
  BYTE_LONG_CHARACTER = 1 << 0,
  BYTE_CAPITAL = 1 << 1,
  BYTE_DIGIT = 1 << 2,
};

static const guint8 byte_kinds[256] = {
  ['0' ... '9'] = BYTE_DIGIT,
  ['A' ... 'Z'] = BYTE_CAPITAL,
  [0xE0 ... 0xFF] = BYTE_LONG_CHARACTER,
};

/* Most tokens are plain lowercase words: one pass over their bytes shows which of the checks
 * below, each a pass of its own, can find anything. */
static guint
byte_kinds_in (const char *bytes,
               int         length)
{
  guint kinds = 0;

  for (int i = 0; i < length; i++)
    kinds |= byte_kinds[(guchar)bytes[i]];
  return kinds;
}

static int
on_inner_token (void       *user_data,
                int         flags,
                const char *token,
                int         length,
                int         start,
                int         end)
{
  TokenizeCall *call = user_data;
  /* The document's own bytes, with their capitals, when folding kept their length. */
  gboolean      original = end - start == length;
  guint         kinds = byte_kinds_in (original ? call->text + start : token, length);

  if ((kinds & BYTE_LONG_CHARACTER) && has_unspaced_script (token, length))
    return emit_split (call, token, length, start, end);
  if ((call->flags & FTS5_TOKENIZE_DOCUMENT) && original)
    {
      int digits;

      if ((kinds & BYTE_CAPITAL) && has_inner_capital (call->text + start, length))
        return emit_with_parts (call, token, length, start, end);
      if ((kinds & BYTE_DIGIT) && length >= 4 &&
          (digits = digits_start (call->text + start, length)) > 0)
        return emit_with_number (call, 0, token, length, start, end, digits);
    }
  return give_token (call, flags, token, length, start, end, 0);
}

static int
tokenizer_tokenize (Fts5Tokenizer *tokenizer,
                    void          *context,
                    int            flags,
                    const char    *text,
                    int            length,
                    int (*emit) (void *,
                                 int,
                                 const char *,
                                 int,
                                 int,
                                 int))
{
  LoomTokenizer *self = (LoomTokenizer *)tokenizer;
  TokenizeCall   call = {
    context, emit, flags, text, (flags & FTS5_TOKENIZE_DOCUMENT) ? self->log : NULL,
  };

  return self->inner.xTokenize (self->inner_instance, &call, flags, text, length, on_inner_token);
}

static void
module_free (void *data)
{
  Module *module = data;

  loom_search_term_log_free (module->log);
  g_free (module);
}

static fts5_tokenizer tokenizer_methods = {
  tokenizer_create,
  tokenizer_delete,
  tokenizer_tokenize,
};

static gboolean
register_module (sqlite3           *db,
                 LoomSearchTermLog *log,
                 GError           **error)
{
  fts5_api *api = loom_search_get_fts5_api (db);
  Module   *module;

  if (api == NULL || api->iVersion < 2)
    {
      loom_search_term_log_free (log);
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_DATABASE,
                           "This SQLite has no full-text search (FTS5)");
      return FALSE;
    }
  module = g_new0 (Module, 1);
  module->api = api;
  module->log = log;
  if (api->xCreateTokenizer (api, LOOM_SEARCH_TOKENIZER, module, &tokenizer_methods, module_free) !=
      SQLITE_OK)
    {
      module_free (module); /* FTS5 took it only on success */
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_DATABASE,
                           "Could not register the search index's tokenizer");
      return FALSE;
    }
  return TRUE;
}

gboolean
loom_search_tokenizer_register (sqlite3 *db,
                                GError **error)
{
  g_return_val_if_fail (db != NULL, FALSE);

  return register_module (db, NULL, error);
}

LoomSearchTermLog *
loom_search_tokenizer_register_logged (sqlite3 *db,
                                       GError **error)
{
  LoomSearchTermLog *log = loom_search_term_log_new ();

  g_return_val_if_fail (db != NULL, NULL);

  return register_module (db, log, error) ? log : NULL;
}

/* unicode61, which the tokenizer wraps, is FTS5's and FTS5 hands it out through a connection
 * only: a connection in memory, which never touches a store, is opened for it once and kept for
 * the life of the process. */
static gpointer
open_own_module (gpointer data)
{
  sqlite3  *db = NULL;
  fts5_api *api = NULL;
  Module   *module;

  if (sqlite3_open_v2 (":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) ==
      SQLITE_OK)
    api = loom_search_get_fts5_api (db);
  if (api == NULL || api->iVersion < 2)
    {
      sqlite3_close (db);
      return NULL;
    }
  module = g_new0 (Module, 1);
  module->api = api;
  return module;
}

gboolean
loom_search_tokenizer_get (fts5_tokenizer *tokenizer,
                           void          **user_data,
                           GError        **error)
{
  static GOnce own_module = G_ONCE_INIT;
  Module      *module = g_once (&own_module, open_own_module, NULL);

  g_return_val_if_fail (tokenizer != NULL && user_data != NULL, FALSE);

  if (module == NULL)
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_DATABASE,
                           "The search index's tokenizer is not available");
      return FALSE;
    }
  *tokenizer = tokenizer_methods;
  *user_data = module;
  return TRUE;
}
