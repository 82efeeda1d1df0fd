/* registry.h - every built-in algorithm, by collective and name.
 *
 * Each family file exports a table `const alg_desc alg_family_<name>[]` terminated by an
 * entry whose name is NULL; registry.c lists the family tables. Names are unique per
 * collective. Algorithms defined at run time (Lua scenarios) live in an alg_registry
 * owned by their caller, passed wherever a lookup should see them (NULL = built-ins only).
 */
#ifndef COLLSIM_REGISTRY_H
#define COLLSIM_REGISTRY_H

#include <stddef.h>

#include "algorithms/algorithm.h"

/* Built-in algorithms: count and the i-th one (grouped by family, in registry order). */
size_t registry_builtin_count(void);
const alg_desc *registry_builtin_at(size_t i);

/* Run-time algorithms (user-defined). */
typedef struct alg_registry {
    const alg_desc **algs;
    size_t n, cap;
} alg_registry;

void alg_registry_init(alg_registry *r);
void alg_registry_free(alg_registry *r); /* frees the array, not the descriptors */
/* Adds a descriptor (which must outlive the registry); fails if the name is taken. */
int alg_registry_add(alg_registry *r, const alg_desc *alg, cs_error *err);

/* Finds an algorithm among `user` (may be NULL) and the built-ins; the error lists the
 * algorithms of that collective. A name lib:NAME is an alias (aliases.h): its error lists
 * the aliases of that collective, or says the alias's target is missing. */
const alg_desc *registry_find(const alg_registry *user, coll_kind coll, const char *name,
                              cs_error *err);

#endif
