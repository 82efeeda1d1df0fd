/* lua_limits.c - the limits a scenario's Lua code runs under, and where its errors are
 * (sweep_internal.h: lua_limits):
 *
 *   memory  the Lua state allocates through limited_alloc, which counts its bytes and
 *           refuses a block that would take them past the cap (--lua-memory); Lua then
 *           raises its memory error, which lua_limits_pcall reports as "file:line:
 *           scenario used more than 1GiB of memory (--lua-memory)".
 *   time    a count hook runs every HOOK_INSTRUCTIONS Lua instructions and raises "...
 *           exceeded 60 s (--lua-timeout)" once the wall-time deadline of the current
 *           call (the scenario's evaluation, one on_result call) has passed.
 *   where   lua_limits_pcall's message handler gives an error without a position (one
 *           raised in C code called from C, e.g. ipairs(nil), or by the hook) the
 *           "file:line:" of the innermost frame of a Lua file (the scenario, or a file it
 *           loaded) on the stack.
 *
 * Lua's memory errors skip the message handler, so their position is recorded on the
 * way: by the allocator itself for a large block (walking the stack is safe there: a
 * block that large is never a reallocation of a Lua stack, whose pointers are briefly
 * invalid during one), and by the hook while the state is above half its cap (a bomb of
 * small blocks passes many hooks before it reaches the cap).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "common/units.h"
#include "common/util.h"
#include "sweep/sweep_internal.h"

/* Instructions between two hook calls: ~10-50 us of Lua, so a deadline is noticed at
 * once and the hook costs nothing measurable. */
#define HOOK_INSTRUCTIONS 1000
/* Blocks at least this large are never Lua stacks (at most LUAI_MAXSTACK = 10^6 slots of
 * 16 bytes). */
#define LARGE_BLOCK ((size_t)32 << 20)

/* "file:line:" of the innermost frame at or above `level` that runs a Lua file; 0 if none. */
static int scenario_where(lua_State *L, int level, char *buf, size_t n)
{
    lua_Debug ar;
    for (; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "Sl", &ar))
            continue;
        if (ar.source[0] == '@' && ar.currentline > 0) {
            snprintf(buf, n, "%s:%d:", ar.short_src, ar.currentline);
            return 1;
        }
    }
    return 0;
}

static void record_where(lua_limits *lim, lua_State *L)
{
    char where[sizeof lim->where];
    if (scenario_where(L, 0, where, sizeof where))
        memcpy(lim->where, where, sizeof where);
}

static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    lua_limits *lim = ud;
    size_t old = ptr ? osize : 0; /* for a new block, osize is the kind of object */
    if (nsize == 0) {
        free(ptr);
        lim->used -= old;
        return NULL;
    }
    size_t room = lim->used < lim->cap ? lim->cap - lim->used : 0;
    if (lim->cap && nsize > old && nsize - old > room) {
        lim->over_memory = 1;
        if (nsize >= LARGE_BLOCK && lim->L)
            record_where(lim, lim->L);
        return NULL;
    }
    void *q = realloc(ptr, nsize);
    if (q)
        lim->used = lim->used - old + nsize;
    return q;
}

static void limits_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    void *ud;
    lua_getallocf(L, &ud);
    lua_limits *lim = ud;
    if (lim->cap && lim->used > lim->cap / 2)
        record_where(lim, L);
    if (lim->deadline > 0 && wall_seconds() > lim->deadline) {
        /* From now on the hook runs at every instruction: a pcall in a loop cannot
         * catch every error then (at one per HOOK_INSTRUCTIONS, the hook could always
         * fall inside the pcall'd function, in phase with the loop). */
        lua_sethook(L, limits_hook, LUA_MASKCOUNT, 1);
        lua_sethook(lim->L, limits_hook, LUA_MASKCOUNT, 1);
        char secs[32];
        snprintf(secs, sizeof secs, "%g", lim->timeout_s);
        lua_pushfstring(L, "%s exceeded %s s (--lua-timeout)", lim->activity, secs);
        lua_error(L); /* the message handler adds the position */
    }
}

static int panic(lua_State *L)
{
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "collsim: unprotected Lua error: %s\n", msg ? msg : "(not a string)");
    return 0; /* Lua aborts */
}

lua_State *lua_limits_newstate(lua_limits *lim, const char *path, double timeout_s, size_t cap)
{
    memset(lim, 0, sizeof *lim);
    lim->path = path;
    lim->timeout_s = timeout_s;
    lim->cap = cap;
    lua_State *L = lua_newstate(limited_alloc, lim);
    if (!L)
        return NULL;
    lim->L = L;
    lua_atpanic(L, panic);
    lua_sethook(L, limits_hook, LUA_MASKCOUNT, HOOK_INSTRUCTIONS);
    return L;
}

/* ---- errors -------------------------------------------------------------------------------- */

/* Does msg start with "<file of a frame on the stack>:<line>:" (Lua or luaL_error put it
 * there)? Any frame, not just the innermost: an error rethrown by error(e, 0) keeps the
 * position of the frame that first raised it. */
static int has_position(lua_State *L, const char *msg)
{
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        if (!lua_getinfo(L, "S", &ar) || ar.source[0] != '@')
            continue;
        size_t len = strlen(ar.short_src);
        const char *s = msg + len;
        if (strncmp(msg, ar.short_src, len) == 0 && s[0] == ':' && isdigit((unsigned char)s[1])) {
            for (s++; isdigit((unsigned char)*s); s++)
                ;
            if (*s == ':')
                return 1;
        }
    }
    return 0;
}

/* The message handler: the error as a string with the scenario position in front. */
static int message_handler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "error object is a %s value", luaL_typename(L, 1));
    }
    char where[LUA_IDSIZE + 32];
    if (!has_position(L, msg) && scenario_where(L, 1, where, sizeof where))
        lua_pushfstring(L, "%s %s", where, msg);
    return 1;
}

int lua_limits_pcall(lua_State *L, int nargs, const char *activity, cs_error *err)
{
    void *ud;
    lua_getallocf(L, &ud);
    lua_limits *lim = ud;
    lim->activity = activity;
    lim->deadline = lim->timeout_s > 0 ? wall_seconds() + lim->timeout_s : 0;
    lim->over_memory = 0;
    lim->where[0] = '\0';
    int base = lua_gettop(L) - nargs; /* the function's slot */
    lua_pushcfunction(L, message_handler);
    lua_insert(L, base);
    int status = lua_pcall(L, nargs, 0, base);
    lim->deadline = 0;
    lua_sethook(L, limits_hook, LUA_MASKCOUNT, HOOK_INSTRUCTIONS);
    if (status != LUA_OK) {
        if ((status == LUA_ERRMEM || status == LUA_ERRERR) && lim->over_memory) {
            char cap[32];
            format_size((int64_t)lim->cap, cap, sizeof cap);
            /* without a recorded position, the file at least */
            cs_fail(err, "%s%s scenario used more than %s of memory (--lua-memory)",
                    lim->where[0] ? lim->where : lim->path, lim->where[0] ? "" : ":", cap);
        } else {
            const char *msg = lua_tostring(L, -1);
            cs_fail(err, "%s", msg ? msg : "error (not a string)");
        }
        lua_pop(L, 1);
    }
    lua_remove(L, base); /* the handler */
    return status == LUA_OK ? 0 : -1;
}

int lua_limits_begin(lua_State *L, const char *activity)
{
    void *ud;
    lua_getallocf(L, &ud);
    lua_limits *lim = ud;
    if (lim->deadline > 0 || lim->timeout_s <= 0)
        return 0; /* inside a limited call already (its deadline holds), or no limit */
    lim->activity = activity;
    lim->deadline = wall_seconds() + lim->timeout_s;
    lim->over_memory = 0;
    return 1;
}

void lua_limits_end(lua_State *L, int started)
{
    void *ud;
    lua_getallocf(L, &ud);
    lua_limits *lim = ud;
    if (!started)
        return;
    lim->deadline = 0;
    lua_sethook(lim->L, limits_hook, LUA_MASKCOUNT, HOOK_INSTRUCTIONS);
    if (L != lim->L)
        lua_sethook(L, limits_hook, LUA_MASKCOUNT, HOOK_INSTRUCTIONS);
}

int lua_limits_memory_error(lua_State *L, char *buf, size_t n)
{
    void *ud;
    lua_getallocf(L, &ud);
    lua_limits *lim = ud;
    if (!lim->over_memory)
        return 0;
    char cap[32];
    format_size((int64_t)lim->cap, cap, sizeof cap);
    snprintf(buf, n, "%s used more than %s of memory (--lua-memory)", lim->path, cap);
    return 1;
}
