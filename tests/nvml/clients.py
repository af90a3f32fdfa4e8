#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
#
# What NVML's Python clients report, in vcuda-smi's CSV (noheader,
# nounits), so that run-nvml-tests.sh can compare them with vcuda-smi:
#
#   clients.py pynvml-gpus    index, uuid, name, memory.total, memory.used
#                             (MiB), through nvidia-ml-py
#   clients.py pynvml-apps    pid, gpu_uuid, used_memory (MiB), likewise
#   clients.py gpustat-gpus   the same from "gpustat --json" on stdin
#   clients.py gpustat-apps
#   clients.py pynvml-event   waits up to 20 s for an Xid event on any
#                             device; prints "xid DEVICE-INDEX EVENT-DATA"
import json
import sys

import pynvml

MIB = 1 << 20


def pynvml_gpus():
    for i in range(pynvml.nvmlDeviceGetCount()):
        h = pynvml.nvmlDeviceGetHandleByIndex(i)
        mem = pynvml.nvmlDeviceGetMemoryInfo(h)
        print("%d, %s, %s, %d, %d" % (i, pynvml.nvmlDeviceGetUUID(h),
                                      pynvml.nvmlDeviceGetName(h),
                                      mem.total // MIB, mem.used // MIB))


def pynvml_apps():
    for i in range(pynvml.nvmlDeviceGetCount()):
        h = pynvml.nvmlDeviceGetHandleByIndex(i)
        uuid = pynvml.nvmlDeviceGetUUID(h)
        for p in pynvml.nvmlDeviceGetComputeRunningProcesses(h):
            print("%d, %s, %d" % (p.pid, uuid, p.usedGpuMemory // MIB))


def gpustat_gpus(doc):
    for g in doc["gpus"]:
        print("%d, %s, %s, %d, %d" % (g["index"], g["uuid"], g["name"],
                                      g["memory.total"], g["memory.used"]))


def gpustat_apps(doc):
    # gpustat reports a process holding no device memory as None ("?M").
    for g in doc["gpus"]:
        for p in g["processes"] or []:
            print("%d, %s, %d" % (p["pid"], g["uuid"],
                                  p["gpu_memory_usage"] or 0))


def pynvml_event():
    s = pynvml.nvmlEventSetCreate()
    for i in range(pynvml.nvmlDeviceGetCount()):
        h = pynvml.nvmlDeviceGetHandleByIndex(i)
        pynvml.nvmlDeviceRegisterEvents(
            h, pynvml.nvmlEventTypeXidCriticalError, s)
    print("registered", flush=True)
    try:
        e = pynvml.nvmlEventSetWait(s, 20000)
    except pynvml.NVMLError_Timeout:
        print("timeout")
        return
    print("xid %d %d" % (pynvml.nvmlDeviceGetIndex(e.device), e.eventData))
    pynvml.nvmlEventSetFree(s)


def main():
    what = sys.argv[1]
    if what.startswith("gpustat"):
        doc = json.load(sys.stdin)
        (gpustat_gpus if what == "gpustat-gpus" else gpustat_apps)(doc)
        return
    pynvml.nvmlInit()
    {"pynvml-gpus": pynvml_gpus, "pynvml-apps": pynvml_apps,
     "pynvml-event": pynvml_event}[what]()
    pynvml.nvmlShutdown()


main()
