/* SPDX-License-Identifier: MIT */
/* Linking the modules of a program, as nvlink would. */
#ifndef VCUDA_PTX_LINK_H
#define VCUDA_PTX_LINK_H

#include "program.h"

/*
 * Points every symbol's def at its definition: .extern declarations to
 * the .visible (or .weak, or .common) definition of another module, weak
 * definitions to a strong one when there is one. Numbers the defined
 * functions and .global/.const variables into prog->funcs / prog->vars.
 * Two strong definitions of a name are an error (PTX_ERR_LINK). Unresolved
 * declarations keep def NULL (variables) or def = self (functions: they
 * may be builtins); using one is an error at lowering.
 */
int ptx_link(struct ptx_program *prog, struct msgbuf *log);

/*
 * Adds vcuda's definitions of the device runtime's cooperative-groups
 * functions (cudaCG*, devrt_cg.c) as a module of @prog when one of its
 * modules declares one without defining it; before ptx_link.
 */
int devrt_cg_add(struct ptx_program *prog, struct msgbuf *log);

#endif
