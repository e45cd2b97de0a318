/* loom-search-terms.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <string.h>

#include "loom-error.h"
#include "loom-search-terms.h"
#include "loom-search-tokenizer.h"
#include "loom-store-search.h"

/* The log is a set built for its one hot call: every token of every entry indexed passes through
 * loom_search_term_log_add (), hundreds of millions on a large import, and nearly all of them are
 * already in the set. So a lookup reads the token's bytes where they lie, with no copy and no
 * NUL; finds its slot by linear probing in a power-of-two table; and allocates nothing. A slot
 * holds its term's length and eight bytes that are all of a term of up to eight bytes, as most
 * are: those are found without comparing bytes or reading the term's copy, which lies elsewhere
 * in memory (the index's rebuild on the bench corpus took 3 % less CPU than with a hash per
 * slot). A new term is copied once, into an arena that the flush frees whole. */

/* Room for some 700 terms in 24 KB: plenty for an autocommitted write; an import's batch grows
 * the table. */
#define INITIAL_CAPACITY 1024
/* The biggest table the flush keeps for the next batch: 6 MB, room for some 180,000 terms. An
 * import's batches note tens of thousands of terms each, often more, and regrowing the table for
 * every one would be wasted work; a bigger table is given back, or the store would hold on to it
 * for as long as it is open. */
#define KEPT_CAPACITY    (1 << 18)
#define CHUNK_SIZE       (64 * 1024)

/* A term's copy in the arena. */
typedef struct
{
  int  length;
  char bytes[]; /* @length bytes and a NUL, for sqlite3_bind_text () */
} Term;

typedef struct
{
  guint64 key; /* term_key () */
  int     length;
  int     head; /* the smallest head noted for the term */
  Term   *term; /* NULL in an empty slot */
} Slot;

/* The arena: terms are never freed one by one, so they are packed into big chunks. */
typedef struct _Chunk Chunk;
struct _Chunk
{
  Chunk *next;
  gsize  used;
  gsize  size;
  char   data[];
};

struct _LoomSearchTermLog
{
  Slot  *slots;
  gsize  mask; /* the capacity, a power of two, minus 1 */
  gsize  n_terms;
  gsize  max_terms; /* where the table grows: 70% full, as probes lengthen fast beyond */
  Chunk *chunks;    /* the one being filled first */
};

static void
set_capacity (LoomSearchTermLog *self,
              gsize              capacity)
{
  g_free (self->slots);
  self->slots = g_new0 (Slot, capacity);
  self->mask = capacity - 1;
  self->max_terms = capacity / 10 * 7;
}

LoomSearchTermLog *
loom_search_term_log_new (void)
{
  LoomSearchTermLog *self = g_new0 (LoomSearchTermLog, 1);

  set_capacity (self, INITIAL_CAPACITY);
  return self;
}

static void
free_chunks (LoomSearchTermLog *self)
{
  while (self->chunks != NULL)
    {
      Chunk *next = self->chunks->next;

      g_free (self->chunks);
      self->chunks = next;
    }
}

void
loom_search_term_log_free (LoomSearchTermLog *self)
{
  if (self == NULL)
    return;
  free_chunks (self);
  g_free (self->slots);
  g_free (self);
}

/* Eight bytes that, with the length, are the whole term when it has up to eight bytes: it is read
 * as two words that overlap, or for a term of three bytes or fewer, byte by byte. A longer term
 * gets its first eight bytes with its last eight mixed in, which tells most terms apart before
 * their bytes are compared. The loads are unaligned; memcpy compiles to plain ones. */
static inline guint64
term_key (const char *bytes,
          gsize       length)
{
  guint64 first, last;

  if (length > 8)
    {
      memcpy (&first, bytes, 8);
      memcpy (&last, bytes + length - 8, 8);
      return first ^ (last * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15));
    }
  if (length >= 4)
    {
      guint32 head, tail;

      memcpy (&head, bytes, 4);
      memcpy (&tail, bytes + length - 4, 4);
      return (guint64)head << 32 | tail;
    }
  if (length > 0)
    return (guint64)(guchar)bytes[0] << 16 | (guint64)(guchar)bytes[length / 2] << 8 |
           (guchar)bytes[length - 1];
  return 0;
}

/* The table's index for a term: from the key for a short term, which is all of it; from every
 * word for a longer one, so that long terms alike at both ends still spread. MurmurHash3's
 * finalizer mixes the high bits down to the low ones, which index the table. */
static inline gsize
term_hash (const char *bytes,
           gsize       length,
           guint64     key)
{
  const guint64 k = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  guint64       h = (length + 1) * k ^ key;

  if (length > 16)
    {
      const char *last = bytes + length - 8;
      guint64     word;

      for (bytes += 8; bytes < last; bytes += 8)
        {
          memcpy (&word, bytes, 8);
          h = (h ^ word) * k;
          h ^= h >> 32;
        }
    }

  h ^= h >> 33;
  h *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  h ^= h >> 33;
  h *= G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  h ^= h >> 33;
  return (gsize)h;
}

/* A copy of @bytes in the arena, NUL-terminated. */
static Term *
copy_term (LoomSearchTermLog *self,
           const char        *bytes,
           int                length)
{
  gsize  size = G_STRUCT_OFFSET (Term, bytes) + (gsize)length + 1;
  Chunk *chunk = self->chunks;
  Term  *term;

  /* Keeps every Term's length aligned. */
  size = (size + G_ALIGNOF (Term) - 1) & ~(G_ALIGNOF (Term) - 1);

  if (chunk == NULL || chunk->size - chunk->used < size)
    {
      /* A long term (some are tens of KB) that does not fit gets a chunk of its own, behind the
       * one being filled, whose room is left for the short terms to come. */
      gboolean own = size > CHUNK_SIZE / 4;

      chunk = g_malloc (sizeof (Chunk) + (own ? size : CHUNK_SIZE));
      chunk->used = 0;
      chunk->size = own ? size : CHUNK_SIZE;
      if (own && self->chunks != NULL)
        {
          chunk->next = self->chunks->next;
          self->chunks->next = chunk;
        }
      else
        {
          chunk->next = self->chunks;
          self->chunks = chunk;
        }
    }

  term = (gpointer)(chunk->data + chunk->used);
  chunk->used += size;
  term->length = length;
  memcpy (term->bytes, bytes, (gsize)length);
  term->bytes[length] = '\0';
  return term;
}

/* The empty slot where a term hashed to @hash, known not to be in the table, goes. */
static Slot *
find_free_slot (LoomSearchTermLog *self,
                gsize              hash)
{
  gsize i = hash & self->mask;

  while (self->slots[i].term != NULL)
    i = (i + 1) & self->mask;
  return &self->slots[i];
}

static void
grow (LoomSearchTermLog *self)
{
  Slot *old = g_steal_pointer (&self->slots);
  gsize old_capacity = self->mask + 1;

  set_capacity (self, old_capacity * 2);
  for (gsize i = 0; i < old_capacity; i++)
    if (old[i].term != NULL)
      *find_free_slot (self,
                       term_hash (old[i].term->bytes, (gsize)old[i].length, old[i].key)) = old[i];
  g_free (old);
}

void
loom_search_term_log_add (LoomSearchTermLog *self,
                          const char        *term,
                          int                length,
                          int                head)
{
  guint64 key;
  gsize   hash, i;
  Slot   *slot;

  g_assert (self != NULL);
  g_assert (length >= 0);

  key = term_key (term, (gsize)length);
  hash = term_hash (term, (gsize)length, key);
  for (i = hash & self->mask; (slot = &self->slots[i])->term != NULL; i = (i + 1) & self->mask)
    if (slot->key == key && slot->length == length &&
        (length <= 8 || memcmp (slot->term->bytes, term, (gsize)length) == 0))
      {
        if (head < slot->head)
          slot->head = head;
        return;
      }

  /* A new term, and @slot is the empty one that ended the probe. */
  if (self->n_terms >= self->max_terms)
    {
      grow (self);
      slot = find_free_slot (self, hash);
    }
  slot->key = key;
  slot->length = length;
  slot->head = head;
  slot->term = copy_term (self, term, length);
  self->n_terms++;
}

/* Empties the log for the next batch of terms. */
static void
forget_terms (LoomSearchTermLog *self)
{
  free_chunks (self);
  if (self->mask + 1 > KEPT_CAPACITY)
    set_capacity (self, KEPT_CAPACITY);
  else
    memset (self->slots, 0, (self->mask + 1) * sizeof (Slot));
  self->n_terms = 0;
}

/* Where loom_store_write_search_terms () is in the log. */
typedef struct
{
  LoomSearchTermLog *log;
  gsize              next;
} Reading;

static gboolean
next_term (gpointer     data,
           const char **term,
           int         *head)
{
  Reading           *reading = data;
  LoomSearchTermLog *self = reading->log;

  while (reading->next <= self->mask)
    {
      const Slot *slot = &self->slots[reading->next++];

      if (slot->term == NULL)
        continue;
      *term = slot->term->bytes;
      *head = slot->head;
      return TRUE;
    }
  return FALSE;
}

gboolean
loom_search_term_log_flush (LoomSearchTermLog *self,
                            sqlite3           *db,
                            GError           **error)
{
  Reading reading = { self, 0 };

  g_assert (self != NULL);

  if (self->n_terms == 0)
    return TRUE;
  if (!loom_store_write_search_terms (db, next_term, &reading, error))
    return FALSE;
  forget_terms (self);
  return TRUE;
}

static int
on_token (void       *user_data,
          int         flags,
          const char *token,
          int         length,
          int         start,
          int         end)
{
  GPtrArray *tokens = user_data;

  g_ptr_array_add (tokens, g_strndup (token, (gsize)length));
  return SQLITE_OK;
}

/* @word's tokens as the index's tokenizer reads a query. */
static GPtrArray *
tokenize_query (const char *word,
                GError    **error)
{
  g_autoptr (GPtrArray) tokens = g_ptr_array_new_with_free_func (g_free);
  fts5_tokenizer tokenizer;
  Fts5Tokenizer *instance = NULL;
  void          *user_data = NULL;
  int            rc;

  if (!loom_search_tokenizer_get (&tokenizer, &user_data, error))
    return NULL;
  if (tokenizer.xCreate (user_data, NULL, 0, &instance) != SQLITE_OK)
    {
      g_set_error_literal (error, LOOM_ERROR, LOOM_ERROR_DATABASE,
                           "The search index's tokenizer is not available");
      return NULL;
    }
  rc = tokenizer.xTokenize (instance, tokens, FTS5_TOKENIZE_QUERY | FTS5_TOKENIZE_PREFIX, word,
                            (int)strlen (word), on_token);
  tokenizer.xDelete (instance);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, LOOM_ERROR, LOOM_ERROR_DATABASE, "Could not read “%s”: %s", word,
                   sqlite3_errstr (rc));
      return NULL;
    }
  return g_steal_pointer (&tokens);
}

GPtrArray *
loom_search_terms_expand (LoomStore  *store,
                          const char *word,
                          guint       max_terms,
                          GError    **error)
{
  g_autoptr (GPtrArray) tokens = NULL;
  g_autoptr (GPtrArray) terms = NULL;

  g_return_val_if_fail (LOOM_IS_STORE (store), NULL);
  g_return_val_if_fail (word != NULL, NULL);

  if (!(tokens = tokenize_query (word, error)))
    return NULL;
  if (tokens->len != 1)
    return NULL;
  if (!(terms = loom_store_search_terms_from (store, g_ptr_array_index (tokens, 0), max_terms + 1,
                                              error)))
    return NULL;
  if (terms->len > max_terms)
    return NULL;
  return g_steal_pointer (&terms);
}
