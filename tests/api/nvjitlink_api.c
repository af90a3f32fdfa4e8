// SPDX-License-Identifier: MIT
/*
 * nvjitlink_api [DIR]: what each nvJitLink call returns, for inputs built
 * by nvcc into DIR (tests/api/nvjitlink_inputs.cu, tests/api/api.mk; the
 * build's directory by default): LTO-IR
 * of a kernel calling an external function, LTO-IR of a whole kernel, and
 * PTX and a fatbin defining that function. The expected output was
 * recorded with NVIDIA's libnvJitLink.so.13 of CUDA 13.0.88 (it needs no
 * GPU); vcuda's prints the same. Cubin inputs are left out: NVIDIA's takes
 * SASS for the -arch, vcuda's cannot (nvjitlink_launch_api checks that).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NVJITLINK_NO_INLINE
#include <nvJitLink.h>

#define ENTRY(x) [x] = #x
static const char *const names[] = {
	ENTRY(NVJITLINK_SUCCESS), ENTRY(NVJITLINK_ERROR_UNRECOGNIZED_OPTION),
	ENTRY(NVJITLINK_ERROR_MISSING_ARCH), ENTRY(NVJITLINK_ERROR_INVALID_INPUT),
	ENTRY(NVJITLINK_ERROR_PTX_COMPILE), ENTRY(NVJITLINK_ERROR_NVVM_COMPILE),
	ENTRY(NVJITLINK_ERROR_INTERNAL), ENTRY(NVJITLINK_ERROR_THREADPOOL),
	ENTRY(NVJITLINK_ERROR_UNRECOGNIZED_INPUT), ENTRY(NVJITLINK_ERROR_FINALIZE),
	ENTRY(NVJITLINK_ERROR_NULL_INPUT),
	ENTRY(NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS),
	ENTRY(NVJITLINK_ERROR_INCORRECT_INPUT_TYPE),
	ENTRY(NVJITLINK_ERROR_ARCH_MISMATCH),
	ENTRY(NVJITLINK_ERROR_OUTDATED_LIBRARY),
	ENTRY(NVJITLINK_ERROR_MISSING_FATBIN),
	ENTRY(NVJITLINK_ERROR_UNRECOGNIZED_ARCH),
	ENTRY(NVJITLINK_ERROR_UNSUPPORTED_ARCH),
	ENTRY(NVJITLINK_ERROR_LTO_NOT_ENABLED),
};

struct file {
	void *data;
	size_t size;
};

static const char *dir;

static const char *name_of(nvJitLinkResult r)
{
	if ((size_t)r < sizeof(names) / sizeof(names[0]) && names[r])
		return names[r];
	return "unknown";
}

static void show(const char *what, nvJitLinkResult r)
{
	printf("%s: %s\n", what, name_of(r));
}

static struct file load(const char *name)
{
	struct file f = { 0 };
	char path[4096];
	FILE *in;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	in = fopen(path, "rb");
	if (!in || fseek(in, 0, SEEK_END) || (n = ftell(in)) < 0 ||
	    fseek(in, 0, SEEK_SET)) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	f.size = (size_t)n;
	f.data = malloc(f.size + 1);
	if (!f.data || fread(f.data, 1, f.size, in) != f.size)
		exit(2);
	((char *)f.data)[f.size] = 0;
	fclose(in);
	return f;
}

static nvJitLinkHandle create(const char *what, const char *o1,
			      const char *o2)
{
	const char *opts[] = { o1, o2 };
	nvJitLinkHandle h = NULL;

	show(what, __nvJitLinkCreate_13_0(&h, o2 ? 2 : 1, opts));
	return h;
}

static void add(const char *what, nvJitLinkHandle h, nvJitLinkInputType t,
		const char *file)
{
	struct file f = load(file);

	show(what, __nvJitLinkAddData_13_0(h, t, f.data, f.size, file));
	free(f.data);
}

/* Whether the error log mentions @needle (logs' wording differs). */
static void error_log_has(const char *what, nvJitLinkHandle h,
			  const char *needle)
{
	size_t size = 0;
	char *log;

	show(what, __nvJitLinkGetErrorLogSize_13_0(h, &size));
	log = calloc(1, size + 1);
	__nvJitLinkGetErrorLog_13_0(h, log);
	printf("%s: log %s '%s'\n", what, strstr(log, needle) ?
	       "mentions" : "does not mention", needle);
	free(log);
}

static void outputs(const char *what, nvJitLinkHandle h, const char *entry)
{
	size_t cubin = 0, ptx = 0;
	char line[256];
	char *text;

	snprintf(line, sizeof(line), "%s cubin size", what);
	show(line, __nvJitLinkGetLinkedCubinSize_13_0(h, &cubin));
	printf("%s: cubin %s\n", what, cubin ? "not empty" : "empty");
	snprintf(line, sizeof(line), "%s ptx size", what);
	show(line, __nvJitLinkGetLinkedPtxSize_13_0(h, &ptx));
	if (ptx) {
		text = calloc(1, ptx + 1);
		__nvJitLinkGetLinkedPtx_13_0(h, text);
		printf("%s: ptx %s entry %s\n", what,
		       strstr(text, entry) ? "has" : "lacks", entry);
		free(text);
	}
}

static void create_cases(void)
{
	const char *none[] = { NULL };
	nvJitLinkHandle h = NULL;
	unsigned int major = 0, minor = 0;

	show("version", nvJitLinkVersion(&major, &minor));
	printf("version: %u.%u\n", major, minor);
	show("create, null handle", __nvJitLinkCreate_13_0(NULL, 0, none));
	show("create, no options", __nvJitLinkCreate_13_0(&h, 0, none));
	printf("create, no options: handle %s\n", h ? "set" : "null");
	h = create("create, -arch=compute_80", "-arch=compute_80", NULL);
	__nvJitLinkDestroy_13_0(&h);
	h = create("create, unknown option", "-arch=sm_80", "-no-such-option");
	__nvJitLinkDestroy_13_0(&h);
	h = create("create, -arch=sm_80 -maxrregcount=32", "-arch=sm_80",
		   "-maxrregcount=32");
	show("destroy", __nvJitLinkDestroy_13_0(&h));
	printf("destroy: handle %s\n", h ? "set" : "null");
	show("destroy, null", __nvJitLinkDestroy_13_0(NULL));
}

static const char bad_body[] = ".version 8.0\n.target sm_80\n"
	".address_size 64\n.visible .entry k()\n{\n\tno.such.op;\n\tret;\n}\n";

static void input_cases(void)
{
	nvJitLinkHandle h = create("inputs: create", "-arch=sm_80", "-lto");
	size_t size = 0;

	/* NULL data: NVIDIA's library crashes. */
	show("inputs: bad type", __nvJitLinkAddData_13_0(
		h, (nvJitLinkInputType)99, "x", 1, "x"));
	show("inputs: cubin size before complete",
	     __nvJitLinkGetLinkedCubinSize_13_0(h, &size));
	show("inputs: complete without inputs", __nvJitLinkComplete_13_0(h));
	__nvJitLinkDestroy_13_0(&h);

	h = create("bad ptx: create", "-arch=sm_80", NULL);
	show("bad ptx: add", __nvJitLinkAddData_13_0(
		h, NVJITLINK_INPUT_PTX, "this is not ptx", 16, "bad.ptx"));
	__nvJitLinkDestroy_13_0(&h);

	h = create("bad ptx body: create", "-arch=sm_80", NULL);
	show("bad ptx body: add", __nvJitLinkAddData_13_0(
		h, NVJITLINK_INPUT_PTX, bad_body, sizeof(bad_body), "body.ptx"));
	show("bad ptx body: complete", __nvJitLinkComplete_13_0(h));
	__nvJitLinkDestroy_13_0(&h);

	h = create("no inputs: create", "-arch=sm_80", NULL);
	show("no inputs: complete", __nvJitLinkComplete_13_0(h));
	__nvJitLinkDestroy_13_0(&h);
}

static void link_cases(void)
{
	nvJitLinkHandle h;

	h = create("whole lto: create", "-arch=sm_80", "-lto");
	add("whole lto: add", h, NVJITLINK_INPUT_LTOIR, "full.ltoir");
	show("whole lto: complete", __nvJitLinkComplete_13_0(h));
	outputs("whole lto", h, "twice");
	__nvJitLinkDestroy_13_0(&h);

	h = create("lto to ptx: create", "-arch=sm_80", "-lto");
	__nvJitLinkDestroy_13_0(&h);
	{
		const char *opts[] = { "-arch=sm_80", "-lto", "-ptx" };

		show("lto to ptx: create 3",
		     __nvJitLinkCreate_13_0(&h, 3, opts));
	}
	add("lto to ptx: add", h, NVJITLINK_INPUT_ANY, "full.ltoir");
	show("lto to ptx: complete", __nvJitLinkComplete_13_0(h));
	outputs("lto to ptx", h, "twice");
	__nvJitLinkDestroy_13_0(&h);

	h = create("lto and ptx: create", "-arch=sm_80", "-lto");
	add("lto and ptx: add lto", h, NVJITLINK_INPUT_LTOIR, "k.ltoir");
	add("lto and ptx: add ptx", h, NVJITLINK_INPUT_PTX, "ext.ptx");
	show("lto and ptx: complete", __nvJitLinkComplete_13_0(h));
	outputs("lto and ptx", h, "scale");
	__nvJitLinkDestroy_13_0(&h);

	h = create("lto and fatbin: create", "-arch=sm_80", "-lto");
	add("lto and fatbin: add lto", h, NVJITLINK_INPUT_ANY, "k.ltoir");
	add("lto and fatbin: add fatbin", h, NVJITLINK_INPUT_ANY, "ext.fatbin");
	show("lto and fatbin: complete", __nvJitLinkComplete_13_0(h));
	outputs("lto and fatbin", h, "scale");
	__nvJitLinkDestroy_13_0(&h);
}

static void error_cases(void)
{
	const char *opts[] = { "-arch=sm_80", "-lto", "-ptx" };
	nvJitLinkHandle h;

	show("-ptx with ptx: create", __nvJitLinkCreate_13_0(&h, 3, opts));
	add("-ptx with ptx: add lto", h, NVJITLINK_INPUT_LTOIR, "k.ltoir");
	add("-ptx with ptx: add ptx", h, NVJITLINK_INPUT_PTX, "ext.ptx");
	show("-ptx with ptx: complete", __nvJitLinkComplete_13_0(h));
	error_log_has("-ptx with ptx", h, "LTOIR");
	__nvJitLinkDestroy_13_0(&h);

	show("-ptx, extern: create", __nvJitLinkCreate_13_0(&h, 3, opts));
	add("-ptx, extern: add lto", h, NVJITLINK_INPUT_LTOIR, "k.ltoir");
	show("-ptx, extern: complete", __nvJitLinkComplete_13_0(h));
	outputs("-ptx, extern", h, "ext_add");
	__nvJitLinkDestroy_13_0(&h);

	h = create("unresolved: create", "-arch=sm_80", "-lto");
	add("unresolved: add", h, NVJITLINK_INPUT_LTOIR, "k.ltoir");
	show("unresolved: complete", __nvJitLinkComplete_13_0(h));
	error_log_has("unresolved", h, "ext_add");
	__nvJitLinkDestroy_13_0(&h);

	h = create("lto without -lto: create", "-arch=sm_80", NULL);
	add("lto without -lto: add", h, NVJITLINK_INPUT_LTOIR, "full.ltoir");
	show("lto without -lto: complete", __nvJitLinkComplete_13_0(h));
	__nvJitLinkDestroy_13_0(&h);

	/* The type known only from the data's magic. */
	h = create("lto as any without -lto: create", "-arch=sm_80", NULL);
	add("lto as any without -lto: add", h, NVJITLINK_INPUT_ANY,
	    "full.ltoir");
	show("lto as any without -lto: complete",
	     __nvJitLinkComplete_13_0(h));
	__nvJitLinkDestroy_13_0(&h);

	/* The callee in LTO-IR, its only caller in PTX. */
	h = create("ptx calls lto: create", "-arch=sm_80", "-lto");
	add("ptx calls lto: add ptx", h, NVJITLINK_INPUT_PTX, "k.ptx");
	add("ptx calls lto: add lto", h, NVJITLINK_INPUT_LTOIR, "ext.ltoir");
	show("ptx calls lto: complete", __nvJitLinkComplete_13_0(h));
	outputs("ptx calls lto", h, "scale");
	__nvJitLinkDestroy_13_0(&h);

	h = create("ptx only: create", "-arch=sm_80", NULL);
	add("ptx only: add", h, NVJITLINK_INPUT_PTX, "ext.ptx");
	show("ptx only: complete", __nvJitLinkComplete_13_0(h));
	outputs("ptx only", h, "ext_add");
	__nvJitLinkDestroy_13_0(&h);
}

int main(int argc, char **argv)
{
	dir = argc > 1 ? argv[1] : NVJITLINK_INPUTS;
	create_cases();
	input_cases();
	link_cases();
	error_cases();
	return 0;
}
