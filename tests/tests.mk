# SPDX-License-Identifier: MIT
# Tests: host unit tests, kselftest-style uAPI tests (run in the VM) and
# sample programs. tests/run-tests runs them all.
