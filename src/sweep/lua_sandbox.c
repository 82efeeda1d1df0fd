/* lua_sandbox.c - the standard library a scenario sees (docs/scenarios.md "Sandbox").
 *
 * Opened: base, package (for package.loaded), coroutine, table, io, os, string, math,
 * utf8. Not opened: debug (it reaches every upvalue and the registry). Then:
 *
 *   refused (raise "X is not available in a scenario"): os.execute, os.exit, os.remove,
 *     os.rename, os.tmpname, os.setlocale, io.popen, io.tmpfile, package.loadlib
 *   load            text chunks only (mode "t" forced; a binary chunk is refused)
 *   dofile/loadfile text files inside the scenario's directory tree (relative paths are
 *                   relative to that directory)
 *   require(name)   loads <scenario dir>/<name with '.' as '/'>.lua, text only; no C
 *                   modules, no search path (package.path / cpath are ignored)
 *   io.open, io.output   reading anywhere; writing ("w", "a", "+" modes) only to files
 *                   under the output directory, which is created on demand
 *
 * With --unsafe-lua the full standard library is opened unchanged.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>
#include <lualib.h>

#include "common/util.h"
#include "sweep/sweep_internal.h"

#define LIFTED "(sandbox: collsim run --unsafe-lua lifts it)"

static int refused(lua_State *L)
{
    return luaL_error(L, "%s is not available in a scenario " LIFTED,
                      lua_tostring(L, lua_upvalueindex(1)));
}

/* Replaces table[field] (table on top of the stack) by a refusal naming `name`. */
static void refuse(lua_State *L, const char *field, const char *name)
{
    lua_pushstring(L, name);
    lua_pushcclosure(L, refused, 1);
    lua_setfield(L, -2, field);
}

void scenario_resolve_path(const sweep_plan *p, const char *path, char *buf, size_t n)
{
    if (path[0] == '/') {
        snprintf(buf, n, "%s", path);
        return;
    }
    /* relative to the scenario's directory as the user named it (so messages show
     * "scenarios/lib.lua", not an absolute path) */
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", p->facts.path);
    const char *dir = dirname(copy);
    if (strcmp(dir, ".") == 0)
        snprintf(buf, n, "%s", path);
    else
        snprintf(buf, n, "%s/%s", dir, path);
}

void scenario_portable_path(const sweep_plan *p, const char *path, char *buf, size_t n)
{
    /* An absolute path inside the scenario's directory (one built from collsim.info.dir)
     * becomes "<directory as given>/<rest>", the same file from the current directory:
     * rows and point ids then do not depend on where the checkout lives. A scenario
     * named by an absolute path has no relative form; other paths are the user's. */
    size_t dl = strlen(p->dir);
    char rest[4096];
    if (p->facts.path[0] == '/' || strncmp(path, p->dir, dl) != 0 || path[dl] != '/') {
        snprintf(buf, n, "%s", path);
        return;
    }
    snprintf(rest, sizeof rest, "%s", path + dl + 1);
    scenario_resolve_path(p, rest, buf, n);
}

/* Is `path` (which need not exist) inside the directory whose real path is `root`? */
static int path_inside(const char *path, const char *root)
{
    char real[PATH_MAX], copy[4096], base[4096];
    if (!realpath(path, real)) {
        if (errno != ENOENT)
            return 0;
        snprintf(copy, sizeof copy, "%s", path);
        snprintf(base, sizeof base, "%s", basename(copy));
        snprintf(copy, sizeof copy, "%s", path);
        if (strcmp(base, "..") == 0 || strcmp(base, ".") == 0 || !realpath(dirname(copy), real))
            return 0;
        size_t len = strlen(real);
        snprintf(real + len, sizeof real - len, "/%s", base);
    }
    size_t rl = strlen(root);
    return strncmp(real, root, rl) == 0 && real[rl] == '/';
}

/* ---- loading code ------------------------------------------------------------------------ */

/* Loads a text chunk from a file inside the scenario tree; pushes the function. */
static void load_scenario_file(lua_State *L, const char *path)
{
    sweep_plan *p = scenario_plan(L);
    char full[4096];
    scenario_resolve_path(p, path, full, sizeof full);
    if (!path_inside(full, p->dir))
        luaL_error(L, "'%s' is outside the scenario's directory %s " LIFTED, path, p->dir);
    if (luaL_loadfilex(L, full, "t") != LUA_OK)
        lua_error(L);
}

static int sandbox_loadfile(lua_State *L)
{
    load_scenario_file(L, luaL_checkstring(L, 1));
    return 1;
}

static int sandbox_dofile(lua_State *L)
{
    load_scenario_file(L, luaL_checkstring(L, 1));
    lua_call(L, 0, LUA_MULTRET);
    return lua_gettop(L) - 1;
}

/* require(name): package.loaded[name], or <scenario dir>/<name>.lua run once. */
static int sandbox_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    lua_settop(L, 1);
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE); /* 2 */
    if (lua_getfield(L, 2, name) != LUA_TNIL)
        return 1;
    lua_pop(L, 1);
    char file[1024];
    snprintf(file, sizeof file, "%s.lua", name);
    for (char *c = file; c[4]; c++)
        if (*c == '.')
            *c = '/';
    load_scenario_file(L, file);
    lua_pushvalue(L, 1);
    lua_call(L, 1, 1);
    if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_pushboolean(L, 1);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, 2, name);
    return 1;
}

/* load(chunk [, chunkname [, mode [, env]]]) with mode forced to "t". */
static int sandbox_load(lua_State *L)
{
    int n = lua_gettop(L);
    if (n >= 3 && !lua_isnil(L, 3) && strcmp(luaL_checkstring(L, 3), "t") != 0)
        return luaL_error(L, "load: only text chunks are allowed in a scenario " LIFTED);
    if (n < 3) {
        lua_settop(L, 2);
        lua_pushliteral(L, "t");
        n = 3;
    } else {
        lua_pushliteral(L, "t");
        lua_replace(L, 3);
    }
    lua_pushvalue(L, lua_upvalueindex(2)); /* the original function */
    lua_insert(L, 1);
    lua_call(L, n, LUA_MULTRET);
    return lua_gettop(L);
}

/* ---- writing files ---------------------------------------------------------------------- */

/* Raises unless path may be written (creating the output directory on demand). */
void scenario_check_write(lua_State *L, const char *fn, const char *path)
{
    sweep_plan *p = scenario_plan(L);
    cs_error err;
    char real[PATH_MAX];
    if (!p->outdir[0] && p->facts.unsafe_lua)
        return;
    if (!p->outdir[0])
        luaL_error(L, "%s: writing '%s': scenarios may write only under the output "
                      "directory, and there is none " LIFTED, fn, path);
    if (make_dirs(p->outdir, &err) < 0)
        luaL_error(L, "%s: %s", fn, err.msg);
    if (p->facts.unsafe_lua)
        return;
    if (!realpath(p->outdir, real) || !path_inside(path, real))
        luaL_error(L, "%s: writing '%s' is allowed only under the output directory %s " LIFTED,
                   fn, path, p->outdir);
}

static int sandbox_io_open(lua_State *L)
{
    const char *path = luaL_checkstring(L, 1);
    const char *mode = luaL_optstring(L, 2, "r");
    if (strpbrk(mode, "wa+"))
        scenario_check_write(L, "io.open", path);
    lua_pushvalue(L, lua_upvalueindex(2)); /* the original function */
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

static int sandbox_io_output(lua_State *L)
{
    if (lua_type(L, 1) == LUA_TSTRING)
        scenario_check_write(L, "io.output", lua_tostring(L, 1));
    lua_pushvalue(L, lua_upvalueindex(2)); /* the original function */
    lua_insert(L, 1);
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

/* table[field] = closure(fn, upvalues: the plan, the original table[field]) */
static void wrap(lua_State *L, const char *field, lua_CFunction fn, sweep_plan *p)
{
    lua_pushlightuserdata(L, p);
    lua_getfield(L, -2, field);
    lua_pushcclosure(L, fn, 2);
    lua_setfield(L, -2, field);
}

/* ---- opening ------------------------------------------------------------------------------ */

void scenario_open_libs(lua_State *L, sweep_plan *p)
{
    if (p->facts.unsafe_lua) {
        luaL_openlibs(L);
        return;
    }
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},         {LUA_LOADLIBNAME, luaopen_package},
        {LUA_COLIBNAME, luaopen_coroutine}, {LUA_TABLIBNAME, luaopen_table},
        {LUA_IOLIBNAME, luaopen_io},       {LUA_OSLIBNAME, luaopen_os},
        {LUA_STRLIBNAME, luaopen_string},  {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8},   {NULL, NULL}};
    for (const luaL_Reg *lib = libs; lib->name; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    lua_getglobal(L, "os");
    static const char *const os_refused[] = {"execute", "exit", "remove", "rename", "tmpname",
                                             "setlocale", NULL};
    char name[64];
    for (const char *const *f = os_refused; *f; f++) {
        snprintf(name, sizeof name, "os.%s", *f);
        refuse(L, *f, name);
    }
    lua_pop(L, 1);
    lua_getglobal(L, "io");
    refuse(L, "popen", "io.popen");
    refuse(L, "tmpfile", "io.tmpfile");
    wrap(L, "open", sandbox_io_open, p);
    wrap(L, "output", sandbox_io_output, p);
    lua_pop(L, 1);
    lua_getglobal(L, "package");
    refuse(L, "loadlib", "package.loadlib");
    lua_pushliteral(L, "");
    lua_setfield(L, -2, "cpath");
    lua_pushliteral(L, "");
    lua_setfield(L, -2, "path");
    lua_newtable(L); /* no searchers: only our require loads modules */
    lua_setfield(L, -2, "searchers");
    lua_pop(L, 1);
    lua_pushglobaltable(L);
    wrap(L, "load", sandbox_load, p);
    wrap(L, "loadfile", sandbox_loadfile, p);
    wrap(L, "dofile", sandbox_dofile, p);
    wrap(L, "require", sandbox_require, p);
    lua_pop(L, 1);
}
