/* SPDX-License-Identifier: MIT */
/*
 * Host object and archive reader: the device code of what nvcc -dc and
 * nvcc -lib write (a host ELF relocatable object, an ar archive of them),
 * the forms cuLinkAddData takes as CU_JIT_INPUT_OBJECT and
 * CU_JIT_INPUT_LIBRARY. Their device code is a fatbin in an ELF section
 * (__nv_relfatbin for relocatable device code, .nv_fatbin otherwise);
 * the PTX in it is what vcuda can link.
 */
#ifndef VCUDA_PTX_HOSTOBJ_H
#define VCUDA_PTX_HOSTOBJ_H

#include "fatbin.h"

/*
 * Appends to @out the PTX, one text per translation unit, that the host
 * object or archive @image carries for a device of compute capability
 * @device_arch (major * 10 + minor). An archive member with no usable
 * PTX (SASS only, or PTX for newer devices) is passed over, as a linker
 * passes over members nothing refers to: a symbol that only such a
 * member defines is reported unresolved when the link completes.
 * FATBIN_NO_PTX when nothing usable is found at all, FATBIN_INVALID for
 * an image that is neither a host ELF object nor an archive of them.
 * On failure @out is left empty and @err receives a one-line reason.
 */
enum fatbin_status hostobj_collect_ptx(const void *image, size_t size,
				       unsigned device_arch,
				       struct fatbin_ptx_list *out,
				       char *err, size_t err_len);

#endif
