// SPDX-License-Identifier: MIT
/*
 * nvml-probe: asks an NVML the questions vcuda's libnvidia-ml.so.1 answers
 * and prints, one line each, "key<TAB>return code<TAB>shape<TAB>value".
 * The same program runs on an H100 against NVIDIA's NVML (the recording in
 * tests/nvml/nvml-probe-h100.tsv) and in the test VM against ours;
 * tests/nvml/compare-probe.sh compares return codes and shapes. A shape
 * keeps what a client parses (the length of each hex run of a UUID, the
 * dotted form of a version, a percentage's range) and drops what differs
 * between two machines (the digits themselves).
 *
 *   nvml-probe [PID MIB]   PID: a process expected to hold at least MIB
 *                          MiB on device 0
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Both the v1 and the newest entry points, as older clients call them. */
#define NVML_NO_UNVERSIONED_FUNC_DEFS
#include <nvml.h>

/* nvmlDeviceGetTemperature is deprecated, and still what clients call. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

/* What a value's shape keeps. */
enum kind {
	EXACT,		/* the value itself */
	HEX,		/* each run of hex digits as x<length> */
	VERSION,	/* each run of decimal digits as N */
	TEXT,		/* "text" if printable and not empty */
	NUMBER,		/* "N" */
	PERCENT,	/* "pct" if 0..100 */
};

static void shape_of(enum kind kind, const char *val, char *out, size_t len)
{
	size_t o = 0;
	const char *p;

	if (kind == EXACT || kind == NUMBER || kind == PERCENT || kind == TEXT) {
		long v = strtol(val, NULL, 10);
		int printable = *val != 0;

		for (p = val; *p; p++)
			printable &= isprint((unsigned char)*p) != 0;
		snprintf(out, len, "%s", kind == EXACT ? val :
			 kind == NUMBER ? "N" :
			 kind == TEXT ? (printable ? "text" : "bad-text") :
			 (v >= 0 && v <= 100 ? "pct" : "not-pct"));
		return;
	}
	for (p = val; *p && o + 8 < len;) {
		int (*is)(int) = kind == HEX ? isxdigit : isdigit;
		size_t run = 0;

		while (is((unsigned char)p[run]))
			run++;
		if (!run) {
			out[o++] = *p++;
			continue;
		}
		o += (size_t)snprintf(out + o, len - o, kind == HEX ? "x%zu" : "N",
				      run);
		p += run;
	}
	out[o] = 0;
}

static void rec(const char *key, nvmlReturn_t rc, enum kind kind,
		const char *val)
{
	char shape[256] = "-";

	if (rc == NVML_SUCCESS && val)
		shape_of(kind, val, shape, sizeof(shape));
	printf("%s\t%d\t%s\t%s\n", key, (int)rc, shape,
	       rc == NVML_SUCCESS && val ? val : "-");
}

static void rec_u(const char *key, nvmlReturn_t rc, enum kind kind,
		  unsigned long long v)
{
	char val[32];

	snprintf(val, sizeof(val), "%llu", v);
	rec(key, rc, kind, val);
}

static void rc_only(const char *key, nvmlReturn_t rc)
{
	rec(key, rc, EXACT, NULL);
}

static void error_strings(void)
{
	static const int codes[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
				     13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
				     23, 24, 25, 26, 27, 28, 29, 999, 12345 };
	char key[32];
	size_t i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		snprintf(key, sizeof(key), "errorString.%d", codes[i]);
		rec(key, NVML_SUCCESS, EXACT,
		    nvmlErrorString((nvmlReturn_t)codes[i]));
	}
}

static void before_init(void)
{
	unsigned int n = 0;
	nvmlDevice_t d;
	char buf[96];

	rc_only("uninit.getCount", nvmlDeviceGetCount_v2(&n));
	rc_only("uninit.handleByIndex", nvmlDeviceGetHandleByIndex_v2(0, &d));
	rc_only("uninit.driverVersion", nvmlSystemGetDriverVersion(buf, 96));
	rc_only("uninit.shutdown", nvmlShutdown());
	rc_only("uninit.initWithBadFlags", nvmlInitWithFlags(0x80000000u));
}

static void init_refcount(void)
{
	unsigned int n;

	rc_only("init.v2", nvmlInit_v2());
	rc_only("init.again", nvmlInit_v2());
	rc_only("init.withFlags0", nvmlInitWithFlags(0));
	rc_only("shutdown.1of3", nvmlShutdown());
	rc_only("shutdown.2of3", nvmlShutdown());
	rc_only("init.stillCount", nvmlDeviceGetCount_v2(&n));
}

static void system_queries(void)
{
	nvmlReturn_t rc;
	char buf[256];
	int v = 0;

	rec("sys.driverVersion", nvmlSystemGetDriverVersion(buf, sizeof(buf)),
	    VERSION, buf);
	rc_only("sys.driverVersion.len1", nvmlSystemGetDriverVersion(buf, 1));
	rc_only("sys.driverVersion.null", nvmlSystemGetDriverVersion(NULL, 80));
	rec("sys.nvmlVersion", nvmlSystemGetNVMLVersion(buf, sizeof(buf)),
	    VERSION, buf);
	rc_only("sys.nvmlVersion.len2", nvmlSystemGetNVMLVersion(buf, 2));
	rc = nvmlSystemGetCudaDriverVersion(&v);
	rec_u("sys.cudaDriverVersion", rc, NUMBER, (unsigned long long)v);
	rc = nvmlSystemGetCudaDriverVersion_v2(&v);
	rec_u("sys.cudaDriverVersion.div1000", rc, EXACT,
	      (unsigned long long)v / 1000);
	rc_only("sys.cudaDriverVersion.null",
		nvmlSystemGetCudaDriverVersion(NULL));
	rec("sys.processName.self",
	    nvmlSystemGetProcessName((unsigned int)getpid(), buf, sizeof(buf)),
	    TEXT, buf);
	rc_only("sys.processName.len1",
		nvmlSystemGetProcessName((unsigned int)getpid(), buf, 1));
	rc_only("sys.processName.nosuchpid",
		nvmlSystemGetProcessName(0x3ffffff0u, buf, sizeof(buf)));
}

static void identity(nvmlDevice_t d)
{
	char buf[256], uuid[96];
	nvmlDevice_t again;
	nvmlBrandType_t brand;
	nvmlPciInfo_t pci;
	unsigned int idx;
	nvmlReturn_t rc;

	rec("dev.name", nvmlDeviceGetName(d, buf, sizeof(buf)), TEXT, buf);
	rc_only("dev.name.len1", nvmlDeviceGetName(d, buf, 1));
	rc = nvmlDeviceGetBrand(d, &brand);
	rec_u("dev.brand.nonzero", rc, EXACT, brand != NVML_BRAND_UNKNOWN);
	rec("dev.uuid", nvmlDeviceGetUUID(d, uuid, sizeof(uuid)), HEX, uuid);
	rc_only("dev.uuid.len10", nvmlDeviceGetUUID(d, buf, 10));
	rc_only("dev.uuid.null", nvmlDeviceGetUUID(d, NULL, 80));
	rc = nvmlDeviceGetHandleByUUID(uuid, &again);
	rec_u("dev.handleByUUID.same", rc, EXACT, again == d);
	rc_only("dev.handleByUUID.unknown",
		nvmlDeviceGetHandleByUUID("GPU-00000000-1111-2222-3333-444444444444",
					  &again));
	rc_only("dev.handleByUUID.garbage",
		nvmlDeviceGetHandleByUUID("garbage", &again));
	rc_only("dev.handleByUUID.null", nvmlDeviceGetHandleByUUID(NULL, &again));
	rc = nvmlDeviceGetIndex(d, &idx);
	rec_u("dev.index", rc, EXACT, idx);
	rc = nvmlDeviceGetMinorNumber(d, &idx);
	rec_u("dev.minor", rc, NUMBER, idx);
	rc = nvmlDeviceGetHandleByIndex_v2(0, &again);
	rec_u("dev.handleByIndex.same", rc, EXACT, again == d);
	rec("dev.serial", nvmlDeviceGetSerial(d, buf, sizeof(buf)), TEXT, buf);
	rc_only("dev.handleBySerial.unknown",
		nvmlDeviceGetHandleBySerial("no-such-serial", &again));
	rc_only("dev.pciInfo.null", nvmlDeviceGetPciInfo_v3(d, NULL));
	if (nvmlDeviceGetPciInfo_v3(d, &pci) != NVML_SUCCESS) {
		rc_only("dev.pciInfo", nvmlDeviceGetPciInfo_v3(d, &pci));
		return;
	}
	rec("dev.pci.busId", NVML_SUCCESS, HEX, pci.busId);
	rec("dev.pci.busIdLegacy", NVML_SUCCESS, HEX, pci.busIdLegacy);
	snprintf(buf, sizeof(buf), "%08x:%02x:%02x", pci.domain, pci.bus,
		 pci.device);
	rec("dev.pci.fields", NVML_SUCCESS, HEX, buf);
	rec_u("dev.pci.busIdMatchesFields", NVML_SUCCESS, EXACT,
	      strncasecmp(buf, pci.busId, 14) == 0);
	rc = nvmlDeviceGetHandleByPciBusId_v2(pci.busId, &again);
	rec_u("dev.handleByPciBusId.same", rc, EXACT, again == d);
	rc = nvmlDeviceGetHandleByPciBusId_v2(pci.busIdLegacy, &again);
	rec_u("dev.handleByPciBusId.legacy.same", rc, EXACT, again == d);
	rc_only("dev.handleByPciBusId.unknown",
		nvmlDeviceGetHandleByPciBusId_v2("0000abcd:ee:1f.0", &again));
	rc_only("dev.handleByPciBusId.garbage",
		nvmlDeviceGetHandleByPciBusId_v2("garbage", &again));
}

static void memory(nvmlDevice_t d)
{
	nvmlMemory_t m1;
	nvmlMemory_v2_t m2 = { .version = nvmlMemory_v2 };
	nvmlBAR1Memory_t bar1;
	nvmlReturn_t rc;

	rc = nvmlDeviceGetMemoryInfo(d, &m1);
	rec_u("mem.v1.total", rc, NUMBER, m1.total);
	rec_u("mem.v1.sumIsTotal", rc, EXACT, m1.free + m1.used == m1.total);
	rc = nvmlDeviceGetMemoryInfo_v2(d, &m2);
	rec_u("mem.v2.total", rc, NUMBER, m2.total);
	rec_u("mem.v2.sumIsTotal", rc, EXACT,
	      m2.free + m2.used + m2.reserved == m2.total);
	rec_u("mem.v2.totalIsV1", rc, EXACT, m2.total == m1.total);
	m2.version = 1;
	rc_only("mem.v2.badVersion", nvmlDeviceGetMemoryInfo_v2(d, &m2));
	rc_only("mem.v1.null", nvmlDeviceGetMemoryInfo(d, NULL));
	rc = nvmlDeviceGetBAR1MemoryInfo(d, &bar1);
	rec_u("mem.bar1.sumIsTotal", rc, EXACT,
	      bar1.bar1Free + bar1.bar1Used == bar1.bar1Total);
}

static void state(nvmlDevice_t d)
{
	nvmlUtilization_t u;
	nvmlComputeMode_t cm;
	nvmlEnableState_t e, e2;
	unsigned int v, w;
	int major, minor;
	nvmlReturn_t rc;

	rc = nvmlDeviceGetUtilizationRates(d, &u);
	rec_u("util.gpu", rc, PERCENT, u.gpu);
	rec_u("util.memory", rc, PERCENT, u.memory);
	rc_only("util.null", nvmlDeviceGetUtilizationRates(d, NULL));
	rc_only("util.encoder", nvmlDeviceGetEncoderUtilization(d, &v, &w));
	rc_only("util.decoder", nvmlDeviceGetDecoderUtilization(d, &v, &w));
	rc = nvmlDeviceGetComputeMode(d, &cm);
	rec_u("computeMode", rc, EXACT, cm);
	rc_only("computeMode.setInvalid",
		nvmlDeviceSetComputeMode(d, (nvmlComputeMode_t)77));
	rc = nvmlDeviceGetPersistenceMode(d, &e);
	rec_u("persistenceMode.valid", rc, EXACT,
	      e == NVML_FEATURE_ENABLED || e == NVML_FEATURE_DISABLED);
	rc = nvmlDeviceGetCudaComputeCapability(d, &major, &minor);
	rec_u("cc.major", rc, NUMBER, (unsigned long long)major);
	rc_only("clock.graphics", nvmlDeviceGetClockInfo(d, NVML_CLOCK_GRAPHICS,
							 &v));
	rc_only("clock.maxSm", nvmlDeviceGetMaxClockInfo(d, NVML_CLOCK_SM, &v));
	rc_only("power.usage", nvmlDeviceGetPowerUsage(d, &v));
	rc_only("temperature", nvmlDeviceGetTemperature(d, NVML_TEMPERATURE_GPU,
							&v));
	rc_only("fan", nvmlDeviceGetFanSpeed(d, &v));
	rc_only("ecc.mode", nvmlDeviceGetEccMode(d, &e, &e2));
	rc_only("pstate", nvmlDeviceGetPerformanceState(d, (nvmlPstates_t *)&v));
	rc_only("mig.mode", nvmlDeviceGetMigMode(d, &v, &w));
	rc = nvmlDeviceGetAccountingMode(d, &e);
	rec_u("accounting.mode.valid", rc, EXACT,
	      e == NVML_FEATURE_ENABLED || e == NVML_FEATURE_DISABLED);
	rc_only("mig.maxDeviceCount", nvmlDeviceGetMaxMigDeviceCount(d, &v));
	rc = nvmlDeviceIsMigDeviceHandle(d, &v);
	rec_u("mig.isMigHandle", rc, EXACT, v);
	v = 0;
	rc_only("retiredPages",
		nvmlDeviceGetRetiredPages(d, NVML_PAGE_RETIREMENT_CAUSE_DOUBLE_BIT_ECC_ERROR,
					  &v, NULL));
}

static void processes(nvmlDevice_t d, unsigned int pid, unsigned long long mib)
{
	nvmlProcessInfo_t infos[64];
	nvmlProcessInfo_v1_t infos1[64];
	nvmlProcessUtilizationSample_t samples[64];
	unsigned int n = 0, i, found = 0;
	unsigned long long used = 0;
	nvmlReturn_t rc;

	rc = nvmlDeviceGetComputeRunningProcesses_v3(d, &n, NULL);
	rc_only("procs.v3.countOnly", rc == NVML_SUCCESS && n ? 9999 : rc);
	n = 64;
	rc = nvmlDeviceGetComputeRunningProcesses_v3(d, &n, infos);
	rc_only("procs.v3", rc);
	for (i = 0; rc == NVML_SUCCESS && i < n; i++) {
		if (infos[i].pid == pid) {
			found = 1;
			used = infos[i].usedGpuMemory;
		}
	}
	if (pid) {
		rec_u("procs.v3.holderFound", rc, EXACT, found);
		rec_u("procs.v3.holderUsesMib", rc, EXACT,
		      used >= mib * 1048576ull && used < (mib + 1024) * 1048576ull);
	}
	n = 64;
	rc = nvmlDeviceGetComputeRunningProcesses(d, &n, infos1);
	found = 0;
	for (i = 0; rc == NVML_SUCCESS && i < n; i++)
		found |= infos1[i].pid == pid;
	if (pid)
		rec_u("procs.v1.holderFound", rc, EXACT, found);
	n = 0;
	rc_only("procs.graphics.v3",
		nvmlDeviceGetGraphicsRunningProcesses_v3(d, &n, NULL));
	rc_only("procs.v3.nullCount",
		nvmlDeviceGetComputeRunningProcesses_v3(d, NULL, infos));
	n = 0;
	rc = nvmlDeviceGetProcessUtilization(d, NULL, &n, 0);
	rc_only("procs.util.sizeQuery", rc);
	if (n > 64)
		n = 64;
	rc = nvmlDeviceGetProcessUtilization(d, samples, &n, 0);
	rec_u("procs.util.buffered", rc, EXACT, n > 0);
	found = 0;
	for (i = 0; rc == NVML_SUCCESS && i < n; i++)
		found |= samples[i].pid == pid && samples[i].smUtil <= 100;
	if (pid)
		rec_u("procs.util.holderSample", rc, EXACT, found);
}

static void events(nvmlDevice_t d)
{
	unsigned long long types = 0;
	nvmlEventSet_t set;
	nvmlEventData_t data;

	nvmlReturn_t rc = nvmlDeviceGetSupportedEventTypes(d, &types);

	rec_u("event.supportsXid", rc, EXACT,
	      !!(types & nvmlEventTypeXidCriticalError));
	rc_only("event.create", nvmlEventSetCreate(&set));
	rc_only("event.wait.nothingRegistered", nvmlEventSetWait_v2(set, &data, 1));
	rc_only("event.register.xid",
		nvmlDeviceRegisterEvents(d, nvmlEventTypeXidCriticalError, set));
	rc_only("event.wait.timeout", nvmlEventSetWait_v2(set, &data, 10));
	rc_only("event.wait.null", nvmlEventSetWait_v2(set, NULL, 10));
	rc_only("event.free", nvmlEventSetFree(set));
	rc_only("event.create.null", nvmlEventSetCreate(NULL));
}

int main(int argc, char **argv)
{
	unsigned int pid = argc > 2 ? (unsigned int)atoi(argv[1]) : 0;
	unsigned long long mib = argc > 2 ? strtoull(argv[2], NULL, 10) : 0;
	unsigned int count = 0;
	nvmlDevice_t d;
	nvmlReturn_t rc;

	setvbuf(stdout, NULL, _IOLBF, 0);
	error_strings();
	before_init();
	init_refcount();
	rc = nvmlDeviceGetCount_v2(&count);
	rec_u("dev.count.nonzero", rc, EXACT, count > 0);
	rc_only("dev.count.null", nvmlDeviceGetCount_v2(NULL));
	rc_only("dev.byIndex.outOfRange",
		nvmlDeviceGetHandleByIndex_v2(count, &d));
	rc_only("dev.byIndex.null", nvmlDeviceGetHandleByIndex_v2(0, NULL));
	system_queries();
	rc = nvmlDeviceGetHandleByIndex_v2(0, &d);
	rc_only("dev.byIndex.0", rc);
	if (rc == NVML_SUCCESS) {
		identity(d);
		memory(d);
		state(d);
		processes(d, pid, mib);
		events(d);
	}
	rc_only("shutdown.last", nvmlShutdown());
	rc_only("shutdown.extra", nvmlShutdown());
	return 0;
}
