/* The solver's search cores in C: the same searches as klabsite/solver/klaberjass_search.py and
 * klabsite/solver/klaverjas_search.py, move for move (same bounds, same move order, same node
 * counts), for speed. Every rule table (points, trick strength, which cards beat which, roem of
 * runs, four of a kind, stuk, the bound on roem, which ranks can change a run) is built in Python
 * from the engine's tables (klabsite/solver/native.py) and handed over; this file holds only the
 * search and the card-play rule that the fast path (klabsite/fastpath) also implements, tested to
 * agree with it. An optional build: without a compiler the Python cores are used.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define SUIT_MASK(s) ((uint32_t)0xFFu << (8 * (s)))
#define MAX_CARDS 32

/* ------------------------------------------------------------------------------------------ */
/* Transposition table: open addressing, linear probing, grows like a dict (never forgets).   */

typedef struct {
    uint64_t key; /* 0: empty */
    int32_t low, high;
    int8_t best;
} Entry;

typedef struct {
    Entry *slots;
    size_t mask, used;
} Table;

static int table_init(Table *t, size_t size) {
    t->slots = (Entry *)calloc(size, sizeof(Entry));
    if (!t->slots) return -1;
    t->mask = size - 1;
    t->used = 0;
    return 0;
}

static inline size_t table_hash(uint64_t key) {
    key ^= key >> 29;
    key *= 0xbf58476d1ce4e5b9ULL;
    key ^= key >> 32;
    return (size_t)key;
}

static Entry *table_find(Table *t, uint64_t key) {
    size_t i = table_hash(key) & t->mask;
    for (;;) {
        Entry *e = &t->slots[i];
        if (e->key == key) return e;
        if (e->key == 0) return NULL;
        i = (i + 1) & t->mask;
    }
}

static int table_grow(Table *t) {
    Table bigger;
    if (table_init(&bigger, (t->mask + 1) * 2) < 0) return -1;
    for (size_t i = 0; i <= t->mask; i++) {
        Entry *e = &t->slots[i];
        if (!e->key) continue;
        size_t j = table_hash(e->key) & bigger.mask;
        while (bigger.slots[j].key) j = (j + 1) & bigger.mask;
        bigger.slots[j] = *e;
    }
    bigger.used = t->used;
    free(t->slots);
    *t = bigger;
    return 0;
}

/* Store bounds for ``key``; when memory runs out the entry is simply not stored (still exact). */
static void table_store(Table *t, uint64_t key, int32_t low, int32_t high, int best) {
    if ((t->used + 1) * 2 > t->mask + 1 && table_grow(t) < 0 && (t->used + 1) * 4 > (t->mask + 1) * 3)
        return; /* out of memory: keep a quarter of the slots empty so that probing ends */
    size_t i = table_hash(key) & t->mask;
    for (;;) {
        Entry *e = &t->slots[i];
        if (e->key == key || e->key == 0) {
            if (e->key == 0) t->used++;
            e->key = key;
            e->low = low;
            e->high = high;
            e->best = (int8_t)best;
            return;
        }
        i = (i + 1) & t->mask;
    }
}

static void table_clear(Table *t) {
    memset(t->slots, 0, (t->mask + 1) * sizeof(Entry));
    t->used = 0;
}

/* ------------------------------------------------------------------------------------------ */
/* What both cores share.                                                                      */

typedef struct {
    PyObject_HEAD
    int trump;
    int any_lead;               /* Klaberjass must-beat=any-lead */
    int playing, rotterdam, undertrump; /* Klaverjas */
    int infinity, last_bonus, pit_bonus, big;
    int points[32];
    int strength[32];
    uint32_t beats[32];         /* the cards of the same suit that beat card i */
    uint32_t above[17];         /* Klaverjas: trumps stronger than trick strength s */
    int rank[32];               /* position in the strongest-first order */
    int point_sum[4][256];
    int run_roem[256], run_bound[256], four_roem[8];
    uint32_t stuk;
    int stuk_roem;
    const uint8_t *classes[2];  /* representatives, [is_trump][hand << 8 | others] (shared, cached) */
    Table table;
    unsigned long long nodes;
} Core;

static inline int popcount(uint32_t x) { return __builtin_popcount(x); }
static inline int msb(uint32_t x) { return 31 - __builtin_clz(x); }
static inline int lsb(uint32_t x) { return __builtin_ctz(x); }

static inline int points_in(Core *c, uint32_t m) {
    return c->point_sum[0][m & 0xFF] + c->point_sum[1][m >> 8 & 0xFF] + c->point_sum[2][m >> 16 & 0xFF]
        + c->point_sum[3][m >> 24];
}

static inline uint32_t representatives(Core *c, uint32_t hand, uint32_t others) {
    uint32_t kept = 0;
    for (int suit = 0; suit < 4; suit++) {
        int shift = 8 * suit;
        uint32_t byte = hand >> shift & 0xFF;
        if (byte & (byte - 1))
            kept |= (uint32_t)c->classes[suit == c->trump][byte << 8 | (others >> shift & 0xFF)] << shift;
        else
            kept |= byte << shift;
    }
    return kept;
}

/* The table of representatives of klabsite.solver.tables.suit_classes: a strongest-first walk of
 * the suit, joining a hand card to the previous hand card when no card of ``others`` came between
 * them, their points are equal and both are "inert" (ranks the roem can tell apart are not). */
static void fill_classes(uint8_t *out, const int *order, const int *points, const uint8_t *inert,
                         const int *four_roem) {
    for (int hand = 0; hand < 256; hand++) {
        for (int others = 0; others < 256; others++) {
            int kept = 0, previous = -1, strongest = -1;
            int ok = inert[others];
            if (hand & others) { out[hand << 8 | others] = 0; continue; }
            for (int i = 0; i < 8; i++) {
                int r = order[i], bit = 1 << r;
                if (hand & bit) {
                    int joins = previous >= 0 && points[r] == points[previous] && (ok & bit) && (ok >> previous & 1)
                        && four_roem[r] == four_roem[previous];
                    if (!joins) {
                        if (strongest >= 0) kept |= 1 << strongest;
                        strongest = r;
                    }
                    previous = r;
                } else if (others & bit) {
                    previous = -1;
                }
            }
            if (strongest >= 0) kept |= 1 << strongest;
            out[hand << 8 | others] = (uint8_t)kept;
        }
    }
}

/* Class tables are the same for every core given the same inputs: a small cache of them. */
typedef struct {
    int order[8], points[8], four_roem[8];
    uint8_t inert[256];
    uint8_t table[65536];
} ClassCache;

static ClassCache *class_cache[8];

static const uint8_t *classes_for(const int *order, const int *points, const uint8_t *inert, const int *four_roem) {
    int i;
    for (i = 0; i < 8 && class_cache[i]; i++) {
        ClassCache *k = class_cache[i];
        if (!memcmp(k->order, order, sizeof k->order) && !memcmp(k->points, points, sizeof k->points)
            && !memcmp(k->four_roem, four_roem, sizeof k->four_roem) && !memcmp(k->inert, inert, sizeof k->inert))
            return k->table;
    }
    ClassCache *k = (ClassCache *)malloc(sizeof(ClassCache));
    if (!k) return NULL;
    memcpy(k->order, order, sizeof k->order);
    memcpy(k->points, points, sizeof k->points);
    memcpy(k->four_roem, four_roem, sizeof k->four_roem);
    memcpy(k->inert, inert, sizeof k->inert);
    fill_classes(k->table, order, points, inert, four_roem);
    if (i < 8) class_cache[i] = k; /* else: used once, kept by the core (never freed: a few entries) */
    return k->table;
}

/* Sort ``n`` (key, card) pairs descending by key (keys are unique). */
static inline void sort_desc(long long *keys, int *cards, int n) {
    for (int i = 1; i < n; i++) {
        long long k = keys[i];
        int card = cards[i], j = i - 1;
        while (j >= 0 && keys[j] < k) {
            keys[j + 1] = keys[j];
            cards[j + 1] = cards[j];
            j--;
        }
        keys[j + 1] = k;
        cards[j + 1] = card;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Klaberjass                                                                                  */

static inline uint32_t kb_legal(Core *c, uint32_t hand, int led) {
    int suit = led >> 3;
    uint32_t same = hand & SUIT_MASK(suit);
    if (same) {
        if (c->any_lead || suit == c->trump) {
            uint32_t higher = same & c->beats[led];
            if (higher) return higher;
        }
        return same;
    }
    uint32_t trumps = hand & SUIT_MASK(c->trump);
    return trumps ? trumps : hand;
}

static inline int kb_follower_wins(Core *c, int led, int card) {
    if ((card >> 3) == (led >> 3)) return c->strength[card] > c->strength[led];
    return (card >> 3) == c->trump;
}

static int kb_trick(Core *c, uint32_t h0, uint32_t h1, int leader, int capot, int sign, int alpha, int beta);

static int kb_reply(Core *c, uint32_t h0, uint32_t h1, int leader, int led, int bonus, int capot, int sign,
                    int alpha, int beta) {
    uint32_t follower_hand = leader == 0 ? h1 : h0, leader_hand = leader == 0 ? h0 : h1;
    uint32_t allowed = kb_legal(c, follower_hand, led)
        & representatives(c, follower_hand, leader_hand | (uint32_t)1 << led);
    long long keys[MAX_CARDS];
    int cards[MAX_CARDS], n = 0;
    while (allowed) {
        int card = lsb(allowed);
        allowed &= allowed - 1;
        int won = c->points[card] + c->points[led] + bonus;
        int wins = kb_follower_wins(c, led, card);
        keys[n] = (long long)(wins ? won : -won) * 64 + card;
        cards[n++] = card;
    }
    sort_desc(keys, cards, n);
    int best = c->infinity;
    for (int i = 0; i < n; i++) {
        int card = cards[i];
        c->nodes++;
        uint32_t bit = (uint32_t)1 << card;
        uint32_t c0 = leader == 0 ? h0 : h0 ^ bit, c1 = leader == 0 ? h1 ^ bit : h1;
        int won = c->points[card] + c->points[led] + bonus, value;
        int wins = kb_follower_wins(c, led, card);
        int winner = wins ? 1 - leader : leader;
        int next_capot = winner == capot ? -1 : capot;
        if (wins)
            value = -won - kb_trick(c, c0, c1, winner, next_capot, sign, -beta - won, -alpha - won);
        else
            value = won + kb_trick(c, c0, c1, winner, next_capot, sign, alpha - won, beta - won);
        if (value < best) {
            best = value;
            if (best <= alpha) break;
        }
    }
    return best;
}

static int kb_trick(Core *c, uint32_t h0, uint32_t h1, int leader, int capot, int sign, int alpha, int beta) {
    uint32_t rem = h0 | h1;
    int term = capot < 0 ? 0 : (leader == capot ? sign * c->big : -sign * c->big);
    if (!rem) return term;
    int total = points_in(c, rem) + c->last_bonus;
    int high = total + (term > 0 ? term : 0), low = -total + (term < 0 ? term : 0);
    if (high <= alpha) return high;
    if (low >= beta) return low;
    uint32_t leader_hand = leader == 0 ? h0 : h1, other = leader == 0 ? h1 : h0;
    if (popcount(rem) == 2) {
        c->nodes += 2;
        int led = msb(leader_hand), card = msb(other);
        int won = c->points[led] + c->points[card] + c->last_bonus;
        int wins = kb_follower_wins(c, led, card);
        int winner = wins ? 1 - leader : leader;
        return (wins ? -won : won) + (winner == capot ? 0 : term);
    }
    uint64_t key = (uint64_t)rem << 1 | (uint64_t)leader | (uint64_t)(capot + 1) << 33
        | (uint64_t)(sign > 0) << 35;
    Entry *entry = table_find(&c->table, key);
    int first = -1;
    low = -c->infinity;
    high = c->infinity;
    if (entry) {
        low = entry->low;
        high = entry->high;
        first = entry->best;
        if (low >= beta) return low;
        if (high <= alpha) return high;
    }
    long long keys[MAX_CARDS];
    int cards[MAX_CARDS], n = 0;
    uint32_t candidates = representatives(c, leader_hand, other);
    while (candidates) {
        int card = lsb(candidates);
        candidates &= candidates - 1;
        long long k;
        if (card == first) {
            k = c->infinity;
        } else {
            uint32_t answers = kb_legal(c, other, card);
            int worst = c->infinity;
            while (answers) {
                int answer = lsb(answers);
                answers &= answers - 1;
                int won = c->points[answer] + c->points[card];
                if (kb_follower_wins(c, card, answer)) won = -won;
                if (won < worst) worst = won;
            }
            k = worst;
        }
        keys[n] = k * 64 + card;
        cards[n++] = card;
    }
    sort_desc(keys, cards, n);
    int best = -c->infinity, best_card = -1, floor = alpha;
    for (int i = 0; i < n; i++) {
        int card = cards[i];
        c->nodes++;
        uint32_t bit = (uint32_t)1 << card;
        uint32_t c0 = leader == 0 ? h0 ^ bit : h0, c1 = leader == 0 ? h1 : h1 ^ bit;
        int value = kb_reply(c, c0, c1, leader, card, 0, capot, sign, floor, beta);
        if (value > best) {
            best = value;
            best_card = card;
            if (best > floor) {
                floor = best;
                if (floor >= beta) break;
            }
        }
    }
    if (best <= alpha) {
        if (best < high) high = best;
    } else if (best >= beta) {
        if (best > low) low = best;
    } else {
        low = high = best;
    }
    table_store(&c->table, key, low, high, best_card);
    return best;
}

/* ------------------------------------------------------------------------------------------ */
/* Klaverjas                                                                                   */

static inline uint32_t kv_legal(Core *c, uint32_t hand, int n, int led_suit, int best_pos, int best) {
    int trump = c->trump;
    uint32_t follow = hand & SUIT_MASK(led_suit);
    if (led_suit == trump) {
        if (follow) {
            uint32_t higher = follow & c->above[best];
            return higher ? higher : follow;
        }
        return hand;
    }
    if (follow) return follow;
    uint32_t trumps = hand & SUIT_MASK(trump);
    if (!trumps) return hand;
    uint32_t higher = trumps & c->above[best];
    if (!c->rotterdam && best_pos == n - 2) {
        if (best <= 8) return hand;
        uint32_t allowed = (hand & ~trumps) | higher;
        return allowed ? allowed : hand;
    }
    if (higher) return higher;
    if (c->rotterdam && c->undertrump) return trumps;
    uint32_t plain = hand & ~SUIT_MASK(trump);
    return plain ? plain : hand;
}

static inline int kv_trick_roem(Core *c, uint32_t m) {
    uint32_t four = m & m >> 8 & m >> 16 & m >> 24 & 0xFF;
    if (four) return c->four_roem[msb(four)];
    int roem = c->run_roem[m & 0xFF] + c->run_roem[m >> 8 & 0xFF] + c->run_roem[m >> 16 & 0xFF]
        + c->run_roem[m >> 24];
    if ((m & c->stuk) == c->stuk) roem += c->stuk_roem;
    return roem;
}

static inline int kv_roem_bound(Core *c, uint32_t m) {
    int bound = c->run_bound[m & 0xFF] + c->run_bound[m >> 8 & 0xFF] + c->run_bound[m >> 16 & 0xFF]
        + c->run_bound[m >> 24];
    if ((m & c->stuk) == c->stuk) bound += c->stuk_roem;
    uint32_t four = m & m >> 8 & m >> 16 & m >> 24 & 0xFF;
    while (four) {
        int r = lsb(four);
        four &= four - 1;
        bound += c->four_roem[r];
    }
    return bound;
}

static int kv_trick(Core *c, uint32_t *hands, int leader, int pit, int limit, int alpha, int beta);

static int kv_follow(Core *c, uint32_t *hands, int leader, int n, uint32_t cards, int led_suit, int best_pos,
                     int best, int pit, int limit, int alpha, int beta) {
    int seat = (leader + n) & 3, trump = c->trump;
    uint32_t hand = hands[seat];
    uint32_t others = ((hands[0] | hands[1] | hands[2] | hands[3]) & ~hand) | cards;
    uint32_t allowed = kv_legal(c, hand, n, led_suit, best_pos, best) & representatives(c, hand, others);
    int maximise = !(n & 1);
    int partner_winning = (best_pos & 1) == (n & 1);
    long long keys[MAX_CARDS];
    int list[MAX_CARDS], count = 0;
    while (allowed) {
        int card = lsb(allowed);
        allowed &= allowed - 1;
        int suit = card >> 3;
        int beats = (suit == led_suit || suit == trump) && c->strength[card] > best;
        int value = beats || partner_winning ? c->points[card] : -c->points[card];
        keys[count] = (long long)value * 64 + (63 - c->rank[card]); /* then strongest first */
        list[count++] = card;
    }
    sort_desc(keys, list, count);
    int best_value = maximise ? -c->infinity : c->infinity;
    for (int i = 0; i < count; i++) {
        int card = list[i];
        c->nodes++;
        uint32_t bit = (uint32_t)1 << card;
        int suit = card >> 3;
        int beats = (suit == led_suit || suit == trump) && c->strength[card] > best;
        int pos = beats ? n : best_pos, top = beats ? c->strength[card] : best, value;
        hands[seat] ^= bit;
        if (n < 3) {
            value = kv_follow(c, hands, leader, n + 1, cards | bit, led_suit, pos, top, pit, limit, alpha, beta);
        } else {
            uint32_t trick_cards = cards | bit;
            int roem = kv_trick_roem(c, trick_cards);
            int won = points_in(c, trick_cards) + roem;
            if (!(hands[0] | hands[1] | hands[2] | hands[3])) won += c->last_bonus;
            int winner = (leader + pos) & 3;
            int next_limit = limit >= roem ? limit - roem : -1;
            int next_pit = pit && (winner & 1) == c->playing;
            if (pos & 1)
                value = -won - kv_trick(c, hands, winner, next_pit, next_limit, -beta - won, -alpha - won);
            else
                value = won + kv_trick(c, hands, winner, next_pit, next_limit, alpha - won, beta - won);
        }
        hands[seat] ^= bit;
        if (maximise) {
            if (value > best_value) {
                best_value = value;
                if (value > alpha) {
                    alpha = value;
                    if (alpha >= beta) break;
                }
            }
        } else if (value < best_value) {
            best_value = value;
            if (value < beta) {
                beta = value;
                if (alpha >= beta) break;
            }
        }
    }
    return best_value;
}

static int kv_trick(Core *c, uint32_t *hands, int leader, int pit, int limit, int alpha, int beta) {
    uint32_t rem = hands[0] | hands[1] | hands[2] | hands[3];
    int trump = c->trump;
    int sign = (leader & 1) == c->playing ? 1 : -1;
    if (!rem) return sign * ((pit ? c->pit_bonus : 0) + (limit >= 0 ? c->big : 0));
    if (popcount(rem) == 4) {
        c->nodes += 4;
        int led = msb(hands[leader]), led_suit = led >> 3, pos = 0, best = c->strength[led];
        for (int n = 1; n < 4; n++) {
            int card = msb(hands[(leader + n) & 3]);
            if (((card >> 3) == led_suit || (card >> 3) == trump) && c->strength[card] > best) {
                pos = n;
                best = c->strength[card];
            }
        }
        int roem = kv_trick_roem(c, rem);
        int won = points_in(c, rem) + roem + c->last_bonus;
        int winner_playing = ((leader + pos) & 1) == c->playing;
        int extra = (pit && winner_playing ? c->pit_bonus : 0) + (limit >= roem ? c->big : 0);
        int value = pos % 2 == 0 ? won : -won;
        return (leader & 1) == c->playing ? value + extra : value - extra;
    }
    int roem = kv_roem_bound(c, rem);
    int reach = points_in(c, rem) + c->last_bonus + roem;
    if (limit >= roem) {
        int low_bound = c->big - reach;
        if (sign > 0 && low_bound >= beta) return low_bound;
        if (sign < 0 && -low_bound <= alpha) return -low_bound;
    }
    int extra = (pit ? c->pit_bonus : 0) + (limit >= 0 ? c->big : 0);
    int high = sign > 0 ? reach + extra : reach, low = sign > 0 ? -reach : -reach - extra;
    if (high <= alpha) return high;
    if (low >= beta) return low;
    uint64_t key = (uint64_t)rem | (uint64_t)leader << 32 | (uint64_t)(pit ? 1 : 0) << 34
        | (uint64_t)(limit < 0 ? 0 : limit / 10 + 1) << 35;
    Entry *entry = table_find(&c->table, key);
    int first = -1;
    if (entry) {
        low = entry->low;
        high = entry->high;
        first = entry->best;
        if (low >= beta) return low;
        if (high <= alpha) return high;
    } else {
        low = -c->infinity;
        high = c->infinity;
    }
    uint32_t hand = hands[leader];
    uint32_t leads = representatives(c, hand, rem & ~hand);
    long long keys[MAX_CARDS];
    int list[MAX_CARDS], count = 0;
    while (leads) {
        int card = lsb(leads);
        leads &= leads - 1;
        int top = !(rem & c->beats[card]);
        int plain_top = top && (card >> 3) != trump;
        int order = top ? 63 - c->rank[card] : c->rank[card];
        keys[count] = ((long long)(card == first) << 12) | (top << 11) | (plain_top << 10) | (order << 4);
        keys[count] = keys[count] * 64 + card;
        list[count++] = card;
    }
    sort_desc(keys, list, count);
    int best_value = -c->infinity, best_card = -1, floor = alpha;
    for (int i = 0; i < count; i++) {
        int card = list[i];
        c->nodes++;
        uint32_t bit = (uint32_t)1 << card;
        hands[leader] ^= bit;
        int value = kv_follow(c, hands, leader, 1, bit, card >> 3, 0, c->strength[card], pit, limit, floor, beta);
        hands[leader] ^= bit;
        if (value > best_value) {
            best_value = value;
            best_card = card;
            if (value > floor) {
                floor = value;
                if (floor >= beta) break;
            }
        }
    }
    if (best_value <= alpha) {
        if (best_value < high) high = best_value;
    } else if (best_value >= beta) {
        if (best_value > low) low = best_value;
    } else {
        low = high = best_value;
    }
    table_store(&c->table, key, low, high, best_card);
    return best_value;
}

/* ------------------------------------------------------------------------------------------ */
/* Python objects                                                                              */

static void core_dealloc(Core *c) {
    free(c->table.slots);
    Py_TYPE(c)->tp_free((PyObject *)c);
}

/* Read a sequence of ``n`` ints from ``obj`` into ``out`` (as long long). */
static int read_ints(PyObject *obj, long long *out, Py_ssize_t n, const char *name) {
    PyObject *seq = PySequence_Fast(obj, name);
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd values", name, n);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* Core(trump, flags, constants, tables): ``flags`` = (any_lead, playing, rotterdam, undertrump);
 * ``constants`` = (infinity, last_bonus, pit_bonus, big); ``tables`` a dict of sequences:
 * points, strength, beats, rank (32 each), above (17), run_roem, run_bound (256), four_roem (8),
 * stuk, stuk_roem (1 each), inert (256: per suit byte of others, the ranks that may join; all 0xFF without roem),
 * plain_order, trump_order, plain_points, trump_points (8 each: a suit's ranks strongest first and
 * the points by rank). */
static int core_init(Core *c, PyObject *args, PyObject *kwds) {
    static char *names[] = {"trump", "flags", "constants", "tables", NULL};
    int trump;
    PyObject *flags, *constants, *tables;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOO!", names, &trump, &flags, &constants, &PyDict_Type, &tables))
        return -1;
    long long v[256];
    c->trump = trump;
    if (read_ints(flags, v, 4, "flags") < 0) return -1;
    c->any_lead = (int)v[0];
    c->playing = (int)v[1];
    c->rotterdam = (int)v[2];
    c->undertrump = (int)v[3];
    if (read_ints(constants, v, 4, "constants") < 0) return -1;
    c->infinity = (int)v[0];
    c->last_bonus = (int)v[1];
    c->pit_bonus = (int)v[2];
    c->big = (int)v[3];
#define TABLE(name, n, dest, type)                                                   \
    do {                                                                             \
        PyObject *obj = PyDict_GetItemString(tables, name);                          \
        if (!obj) {                                                                  \
            PyErr_SetString(PyExc_KeyError, name);                                   \
            return -1;                                                               \
        }                                                                            \
        if (read_ints(obj, v, n, name) < 0) return -1;                               \
        for (int i = 0; i < n; i++) (dest)[i] = (type)v[i];                          \
    } while (0)
    TABLE("points", 32, c->points, int);
    TABLE("strength", 32, c->strength, int);
    TABLE("beats", 32, c->beats, uint32_t);
    TABLE("rank", 32, c->rank, int);
    TABLE("above", 17, c->above, uint32_t);
    TABLE("run_roem", 256, c->run_roem, int);
    TABLE("run_bound", 256, c->run_bound, int);
    TABLE("four_roem", 8, c->four_roem, int);
    uint32_t stuk[1];
    TABLE("stuk", 1, stuk, uint32_t);
    c->stuk = stuk[0];
    int stuk_roem[1];
    TABLE("stuk_roem", 1, stuk_roem, int);
    c->stuk_roem = stuk_roem[0];
    uint8_t inert[256];
    TABLE("inert", 256, inert, uint8_t);
    int plain_order[8], trump_order[8], plain_points[8], trump_points[8];
    TABLE("plain_order", 8, plain_order, int);
    TABLE("trump_order", 8, trump_order, int);
    TABLE("plain_points", 8, plain_points, int);
    TABLE("trump_points", 8, trump_points, int);
#undef TABLE
    for (int suit = 0; suit < 4; suit++)
        for (int byte = 0; byte < 256; byte++) {
            int sum = 0;
            for (int r = 0; r < 8; r++)
                if (byte >> r & 1) sum += c->points[8 * suit + r];
            c->point_sum[suit][byte] = sum;
        }
    uint8_t inert_trump[256];
    for (int i = 0; i < 256; i++) inert_trump[i] = inert[i] & (uint8_t)~(c->stuk >> (8 * trump));
    c->classes[0] = classes_for(plain_order, plain_points, inert, c->four_roem);
    c->classes[1] = classes_for(trump_order, trump_points, inert_trump, c->four_roem);
    if (!c->classes[0] || !c->classes[1]) {
        PyErr_NoMemory();
        return -1;
    }
    free(c->table.slots);
    if (table_init(&c->table, 1 << 12) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    c->nodes = 0;
    return 0;
}

static int read_hands(PyObject *obj, uint32_t *hands, Py_ssize_t n) {
    long long v[4];
    if (read_ints(obj, v, n, "hands") < 0) return -1;
    for (Py_ssize_t i = 0; i < n; i++) hands[i] = (uint32_t)v[i];
    return 0;
}

/* KlaberjassCore.search(hands, leader, led, alpha, beta, capot=-1, sign=1) */
static PyObject *kb_search(Core *c, PyObject *args) {
    PyObject *hands_obj;
    int leader, led, alpha, beta, capot = -1, sign = 1;
    uint32_t hands[2];
    if (!PyArg_ParseTuple(args, "Oiiii|ii", &hands_obj, &leader, &led, &alpha, &beta, &capot, &sign)) return NULL;
    if (read_hands(hands_obj, hands, 2) < 0) return NULL;
    int value;
    if (led < 0) {
        value = kb_trick(c, hands[0], hands[1], leader, capot, sign, alpha, beta);
    } else {
        int bonus = popcount(hands[0] | hands[1]) == 1 ? c->last_bonus : 0;
        value = kb_reply(c, hands[0], hands[1], leader, led, bonus, capot, sign, alpha, beta);
    }
    return PyLong_FromLong(value);
}

/* KlaverjasCore.search(hands, leader, trick, pit, roem_limit, alpha, beta) */
static PyObject *kv_search(Core *c, PyObject *args) {
    PyObject *hands_obj, *trick_obj;
    int leader, pit, limit, alpha, beta;
    uint32_t hands[4];
    if (!PyArg_ParseTuple(args, "OiOpiii", &hands_obj, &leader, &trick_obj, &pit, &limit, &alpha, &beta))
        return NULL;
    if (read_hands(hands_obj, hands, 4) < 0) return NULL;
    PyObject *trick = PySequence_Fast(trick_obj, "trick");
    if (!trick) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(trick);
    if (n > 3) {
        Py_DECREF(trick);
        PyErr_SetString(PyExc_ValueError, "a trick in progress has at most three cards");
        return NULL;
    }
    long long cards[3];
    for (Py_ssize_t i = 0; i < n; i++) {
        cards[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(trick, i));
        if (cards[i] < 0 || cards[i] > 31) {
            Py_DECREF(trick);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card is 0-31");
            return NULL;
        }
    }
    Py_DECREF(trick);
    int value;
    if (n == 0) {
        value = kv_trick(c, hands, leader, pit, limit, alpha, beta);
    } else {
        int led_suit = (int)cards[0] >> 3, best_pos = 0, best = c->strength[cards[0]];
        uint32_t mask = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            int card = (int)cards[i], suit = card >> 3;
            mask |= (uint32_t)1 << card;
            if (i && (suit == led_suit || suit == c->trump) && c->strength[card] > best) {
                best_pos = (int)i;
                best = c->strength[card];
            }
        }
        value = kv_follow(c, hands, leader, (int)n, mask, led_suit, best_pos, best, pit, limit, alpha, beta);
    }
    return PyLong_FromLong(value);
}

/* Core.representatives(hand, others): for tests of the equivalent-card table. */
static PyObject *core_representatives(Core *c, PyObject *args) {
    unsigned long hand, others;
    if (!PyArg_ParseTuple(args, "kk", &hand, &others)) return NULL;
    return PyLong_FromUnsignedLong(representatives(c, (uint32_t)hand, (uint32_t)others));
}

/* Core.legal(...): the Klaberjass (hand, led) or Klaverjas (hand, trick) legal cards, for tests. */
static PyObject *kb_legal_py(Core *c, PyObject *args) {
    unsigned long hand;
    int led;
    if (!PyArg_ParseTuple(args, "ki", &hand, &led)) return NULL;
    return PyLong_FromUnsignedLong(led < 0 ? (uint32_t)hand : kb_legal(c, (uint32_t)hand, led));
}

static PyObject *kv_legal_py(Core *c, PyObject *args) {
    unsigned long hand;
    PyObject *trick_obj;
    if (!PyArg_ParseTuple(args, "kO", &hand, &trick_obj)) return NULL;
    long long cards[3];
    PyObject *trick = PySequence_Fast(trick_obj, "trick");
    if (!trick) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(trick);
    if (n > 3) n = 3;
    for (Py_ssize_t i = 0; i < n; i++) cards[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(trick, i));
    Py_DECREF(trick);
    if (n == 0) return PyLong_FromUnsignedLong(hand);
    int led_suit = (int)cards[0] >> 3, best_pos = 0, best = c->strength[cards[0]];
    for (Py_ssize_t i = 1; i < n; i++) {
        int card = (int)cards[i], suit = card >> 3;
        if ((suit == led_suit || suit == c->trump) && c->strength[card] > best) {
            best_pos = (int)i;
            best = c->strength[card];
        }
    }
    return PyLong_FromUnsignedLong(kv_legal(c, (uint32_t)hand, (int)n, led_suit, best_pos, best));
}

static PyObject *kv_trick_roem_py(Core *c, PyObject *args) {
    unsigned long mask;
    if (!PyArg_ParseTuple(args, "k", &mask)) return NULL;
    return PyLong_FromLong(kv_trick_roem(c, (uint32_t)mask));
}

static PyObject *core_clear(Core *c, PyObject *unused) {
    table_clear(&c->table);
    Py_RETURN_NONE;
}

static PyObject *core_get_nodes(Core *c, void *closure) { return PyLong_FromUnsignedLongLong(c->nodes); }
static PyObject *core_get_size(Core *c, void *closure) { return PyLong_FromSize_t(c->table.used); }

static PyGetSetDef core_getset[] = {
    {"nodes", (getter)core_get_nodes, NULL, "cards played by all searches so far", NULL},
    {"size", (getter)core_get_size, NULL, "positions in the transposition table", NULL},
    {NULL},
};

static PyMethodDef kb_methods[] = {
    {"search", (PyCFunction)kb_search, METH_VARARGS,
     "search(hands, leader, led, alpha, beta, capot=-1, sign=1) -> int"},
    {"legal", (PyCFunction)kb_legal_py, METH_VARARGS, "legal(hand, led) -> mask"},
    {"representatives", (PyCFunction)core_representatives, METH_VARARGS, "representatives(hand, others) -> mask"},
    {"clear", (PyCFunction)core_clear, METH_NOARGS, "empty the transposition table"},
    {NULL},
};

static PyMethodDef kv_methods[] = {
    {"search", (PyCFunction)kv_search, METH_VARARGS,
     "search(hands, leader, trick, pit, roem_limit, alpha, beta) -> int"},
    {"legal", (PyCFunction)kv_legal_py, METH_VARARGS, "legal(hand, trick) -> mask"},
    {"trick_roem", (PyCFunction)kv_trick_roem_py, METH_VARARGS, "trick_roem(mask) -> int"},
    {"representatives", (PyCFunction)core_representatives, METH_VARARGS, "representatives(hand, others) -> mask"},
    {"clear", (PyCFunction)core_clear, METH_NOARGS, "empty the transposition table"},
    {NULL},
};

static PyTypeObject KlaberjassCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "klabsite.solver._search.KlaberjassCore",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The Klaberjass search core (see klabsite/solver/klaberjass_search.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)core_init,
    .tp_dealloc = (destructor)core_dealloc,
    .tp_methods = kb_methods,
    .tp_getset = core_getset,
};

static PyTypeObject KlaverjasCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "klabsite.solver._search.KlaverjasCore",
    .tp_basicsize = sizeof(Core),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The Klaverjas search core (see klabsite/solver/klaverjas_search.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)core_init,
    .tp_dealloc = (destructor)core_dealloc,
    .tp_methods = kv_methods,
    .tp_getset = core_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "klabsite.solver._search",
    "The solver's search cores in C (optional; klabsite/solver/native.py builds their tables).", -1, NULL,
};

PyMODINIT_FUNC PyInit__search(void) {
    if (PyType_Ready(&KlaberjassCoreType) < 0 || PyType_Ready(&KlaverjasCoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&KlaberjassCoreType);
    Py_INCREF(&KlaverjasCoreType);
    if (PyModule_AddObject(m, "KlaberjassCore", (PyObject *)&KlaberjassCoreType) < 0
        || PyModule_AddObject(m, "KlaverjasCore", (PyObject *)&KlaverjasCoreType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
