# SPDX-License-Identifier: MIT
# The PTX path: fatbin reader, parser, IR, linker, interpreter.
# Produces $(PTX_LIB), a static archive linked into libcuda.so.1.
