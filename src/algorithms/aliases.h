/* aliases.h - reference variants under their authors' names.
 *
 * An alias `lib:NAME` (lib = pico, libbine, mpich, ompi) names, for one collective, the
 * communication pattern that library or tool uses under NAME, as a collsim algorithm plus
 * parameters: `--collective bcast --algorithm pico:bine_bdw_doubling_halving` runs bcast
 * bine_scatter_allgather with send_back=no. The table (aliases.c) gives for each alias the
 * source file it was derived from; `collsim list --aliases` prints it.
 *
 * registry_find resolves aliases wherever an algorithm name is resolved (every command,
 * Lua sweeps): an alias is an alg_desc whose prepare applies the alias's parameters to the
 * spec and prepares its target. An alias takes no parameters of its own. An alias whose
 * target is not in this build (not registered, or a parameter the target does not
 * declare) is "missing": finding it fails with a message saying so.
 */
#ifndef COLLSIM_ALIASES_H
#define COLLSIM_ALIASES_H

#include <stddef.h>

#include "algorithms/algorithm.h"

typedef struct alg_alias {
    alg_desc desc;         /* desc.name is the alias; desc.coll its collective */
    const char *algorithm; /* the collsim algorithm */
    const char *params;    /* "name=value name=value" or "" */
    const char *source;    /* where the pattern comes from (repository and file) */
} alg_alias;

/* 1 when name has the form prefix:NAME of an alias. */
int alias_is_name(const char *name);

size_t alias_count(void);
const alg_alias *alias_at(size_t i);

/* The alias `name` of collective coll, or NULL with an error listing that collective's
 * aliases; a missing target is an error too. */
const alg_alias *alias_find(coll_kind coll, const char *name, cs_error *err);

/* 0 when the alias's target is registered and accepts its parameters; -1 (missing) with
 * the reason otherwise. */
int alias_check(const alg_alias *a, cs_error *err);

#endif
