/*
 * A fake libnvidia-ml.so for tests: the NVML entry points the hamicore layer uses, describing a
 * configurable set of GPUs. Built by the Maven build (process-test-classes) and loaded through
 * the configurable NVML path, exactly like the real library.
 *
 * Configuration: the file "<path this library was loaded from>.conf", read at every first
 * nvmlInit_v2 (so each copy of the library in its own directory is its own scenario). Lines:
 *   init_error CODE                       nvmlInit_v2 returns CODE
 *   gpu UUID BUSID TOTAL USED MIG UTILGPU UTILMEM NAME...
 *                                         one GPU (MIG: -1 unsupported, 0 off, 1 on)
 *   namebytes INDEX HEX                   nvmlDeviceGetName of the GPU at INDEX (after its gpu line) writes
 *                                         these raw bytes (hex pairs, NULs allowed, at most 96) at the
 *                                         start of the caller's buffer and zeros in the rest of it: the
 *                                         bytes are what NVML wrote at the start of its array
 *   facts INDEX MINOR ARCH BRAND CCMAJOR CCMINOR
 *                                         identity of the GPU at INDEX (after its gpu line): minor
 *                                         number, raw nvmlDeviceArchitecture_t and nvmlBrandType_t
 *                                         codes, compute capability. Without it: minor = index,
 *                                         NVML_DEVICE_ARCH_UNKNOWN, NVML_BRAND_UNKNOWN, and the
 *                                         compute capability answers NOT_SUPPORTED
 *   driver VERSION CUDA                   nvmlSystemGetDriverVersion / ..._CudaDriverVersion_v2
 *                                         (default 550.54.15 12040)
 *   fail FUNCTION INDEX CODE              FUNCTION returns CODE for device INDEX (-1: any device,
 *                                         or calls without a device)
 *   migprofile INDEX PROFILE ID SLICES INSTANCES SMS MEMMIB SIZE START...
 *                                         a MIG GPU-instance profile of the GPU at INDEX (its gpu line
 *                                         says MIG 0 or 1): the NVML_GPU_INSTANCE_PROFILE_* constant,
 *                                         NVML's profile id, slices, instance count, multiprocessors,
 *                                         memory, and its possible placements (SIZE slices at each START)
 *   migreset INDEX                        enabling MIG on INDEX stays pending (the GPU needs a reset)
 *   procs INDEX N                         N processes run on INDEX (with MIG on: on its first MIG device)
 *   topo I J LEVEL                        nvmlDeviceGetTopologyCommonAncestor(I, J) answers LEVEL (one
 *                                         direction; default 40, NVML_TOPOLOGY_NODE)
 *   nvlink INDEX LINK BUSID TYPE          link LINK of INDEX is active and ends at BUSID ("-": the remote
 *                                         PCI info answers NOT_SUPPORTED) on a device of TYPE (0 GPU,
 *                                         2 NVSwitch; -1: NOT_SUPPORTED); other links answer NOT_SUPPORTED
 * Without a .conf file there are two default GPUs (an A100 and a V100 with their real facts).
 *
 * Built twice: compiled with -DFAKE_NVML_LEGACY the library lacks the identity symbols
 * (nvmlDeviceGetMinorNumber, ...Architecture, ...Brand, ...CudaComputeCapability,
 * nvmlSystemGetDriverVersion, nvmlSystemGetCudaDriverVersion_v2), like a driver too old to have them.
 *
 * MIG follows the driver's rules with the codes FakeNvml (Java) uses: a placement must be one of the
 * profile's, must not overlap a GPU instance and the profile's instance count must not be reached
 * (INSUFFICIENT_RESOURCES); instances need MIG mode on (INVALID_STATE); a GPU instance holding compute
 * instances cannot be destroyed, nor MIG turned off while GPU instances exist (IN_USE); compute-instance
 * profile ids equal their NVML_COMPUTE_INSTANCE_PROFILE_* constants.
 *
 * XID injection: write "INDEX XID" to "<library path>.xid" (atomically: write elsewhere, rename);
 * a waiting nvmlEventSetWait_v2 consumes the file and reports XID for device INDEX (-1: no device).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEVICES 16
#define MAX_RULES 64

#define SUCCESS 0
#define ERROR_UNINITIALIZED 1
#define ERROR_INVALID_ARGUMENT 2
#define ERROR_NOT_SUPPORTED 3
#define ERROR_INSUFFICIENT_SIZE 7
#define ERROR_NOT_FOUND 6
#define ERROR_TIMEOUT 10
#define ERROR_IN_USE 19
#define ERROR_INSUFFICIENT_RESOURCES 23
#define ERROR_INVALID_STATE 29

#define MAX_PROFILES 13
#define MAX_PLACEMENTS 8
#define MAX_GIS 8
#define MAX_CIS 8
#define MAX_MIG (MAX_GIS * MAX_CIS)

#define EVENT_SINGLE_BIT_ECC 0x1ULL
#define EVENT_DOUBLE_BIT_ECC 0x2ULL
#define EVENT_XID_CRITICAL 0x8ULL

#define ARCH_UNKNOWN 0xffffffffu
#define BRAND_UNKNOWN 0

typedef int nvmlReturn_t;

struct nvmlDevice_st {
    unsigned int index;
    char uuid[96];
    char name[96];
    unsigned char name_bytes[96]; /* a namebytes line: raw bytes instead of name */
    unsigned int name_bytes_len;
    int has_name_bytes;
    unsigned long long total;
    unsigned long long used;
    char bus_id[32];
    int mig;
    unsigned int util_gpu;
    unsigned int util_mem;
    unsigned int minor;
    unsigned int arch;
    int brand;
    int has_cc; /* 0: the compute capability answers NOT_SUPPORTED */
    int cc_major;
    int cc_minor;
    int is_mig;             /* a MIG device handle: index is its parent GPU */
    unsigned int gi_id;
    unsigned int ci_id;
};
typedef struct nvmlDevice_st *nvmlDevice_t;

struct nvmlEventSet_st {
    int registered[MAX_DEVICES];
};
typedef struct nvmlEventSet_st *nvmlEventSet_t;

typedef struct {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
} nvmlMemory_t;

typedef struct {
    unsigned int gpu;
    unsigned int memory;
} nvmlUtilization_t;

typedef struct {
    char busIdLegacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pciDeviceId;
    unsigned int pciSubSystemId;
    char busId[32];
} nvmlPciInfo_t;

typedef struct {
    nvmlDevice_t device;
    unsigned long long eventType;
    unsigned long long eventData;
    unsigned int gpuInstanceId;
    unsigned int computeInstanceId;
} nvmlEventData_t;

struct fake_profile {
    unsigned int profile;
    unsigned int id;
    unsigned int slices;
    unsigned int instances;
    unsigned int sms;
    unsigned long long mem;
    unsigned int size;
    unsigned int nplacements;
    unsigned int starts[MAX_PLACEMENTS];
};

struct nvmlComputeInstance_st {
    int used;
    unsigned int id;
    unsigned int profile;
    unsigned int slices;
    struct nvmlGpuInstance_st *gi;
};
typedef struct nvmlComputeInstance_st *nvmlComputeInstance_t;

struct nvmlGpuInstance_st {
    int used;
    unsigned int gpu;
    unsigned int id;
    const struct fake_profile *profile;
    unsigned int start;
    struct nvmlComputeInstance_st cis[MAX_CIS];
};
typedef struct nvmlGpuInstance_st *nvmlGpuInstance_t;

struct fake_mig {
    int current;
    int pending;
    int needs_reset;
    unsigned int procs;
    unsigned int nprofiles;
    struct fake_profile profiles[MAX_PROFILES];
    struct nvmlGpuInstance_st gis[MAX_GIS];
    struct nvmlDevice_st handles[MAX_MIG];
};

typedef struct {
    unsigned int start;
    unsigned int size;
} nvmlGpuInstancePlacement_t;

typedef struct {
    unsigned int id;
    unsigned int isP2pSupported;
    unsigned int sliceCount;
    unsigned int instanceCount;
    unsigned int multiprocessorCount;
    unsigned int copyEngineCount;
    unsigned int decoderCount;
    unsigned int encoderCount;
    unsigned int jpegCount;
    unsigned int ofaCount;
    unsigned long long memorySizeMB;
} nvmlGpuInstanceProfileInfo_t;

typedef struct {
    nvmlDevice_t device;
    unsigned int id;
    unsigned int profileId;
    nvmlGpuInstancePlacement_t placement;
} nvmlGpuInstanceInfo_t;

typedef struct {
    unsigned int id;
    unsigned int sliceCount;
    unsigned int instanceCount;
    unsigned int multiprocessorCount;
    unsigned int sharedCopyEngineCount;
    unsigned int sharedDecoderCount;
    unsigned int sharedEncoderCount;
    unsigned int sharedJpegCount;
    unsigned int sharedOfaCount;
} nvmlComputeInstanceProfileInfo_t;

typedef struct {
    nvmlDevice_t device;
    nvmlGpuInstance_t gpuInstance;
    unsigned int id;
    unsigned int profileId;
    nvmlGpuInstancePlacement_t placement;
} nvmlComputeInstanceInfo_t;

static struct fake_mig migs[MAX_DEVICES];
static int topo_levels[MAX_DEVICES][MAX_DEVICES];
static struct {
    int active;
    char bus_id[32]; /* "" = NOT_SUPPORTED */
    int type;        /* -1 = NOT_SUPPORTED */
} links[MAX_DEVICES][18];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct nvmlDevice_st devices[MAX_DEVICES];
static unsigned int device_count;
static int init_refs;
static int init_error;
static char driver_version[80];
static int cuda_driver_version;
static struct {
    char function[64];
    int index;
    int code;
} rules[MAX_RULES];
static int rule_count;

nvmlReturn_t nvmlInit_v2(void);

/* the path this copy of the library was loaded from */
static void own_path(char *out, size_t len)
{
    Dl_info info;
    out[0] = '\0';
    if (dladdr((void *) &nvmlInit_v2, &info) != 0 && info.dli_fname != NULL) {
        snprintf(out, len, "%s", info.dli_fname);
    }
}

static void add_gpu(const char *uuid, const char *bus_id, unsigned long long total, unsigned long long used,
                    int mig, unsigned int util_gpu, unsigned int util_mem, const char *name)
{
    if (device_count >= MAX_DEVICES) {
        return;
    }
    struct nvmlDevice_st *d = &devices[device_count];
    memset(d, 0, sizeof *d);
    d->index = device_count++;
    snprintf(d->uuid, sizeof d->uuid, "%s", uuid);
    snprintf(d->bus_id, sizeof d->bus_id, "%s", bus_id);
    snprintf(d->name, sizeof d->name, "%s", name);
    d->total = total;
    d->used = used;
    d->mig = mig;
    d->util_gpu = util_gpu;
    d->util_mem = util_mem;
    d->minor = d->index;
    d->arch = ARCH_UNKNOWN;
    d->brand = BRAND_UNKNOWN;
    memset(&migs[d->index], 0, sizeof migs[d->index]);
    migs[d->index].current = mig > 0;
    migs[d->index].pending = mig > 0;
}

static void add_profile(unsigned int index, const char *spec)
{
    struct fake_mig *m = &migs[index];
    if (index >= device_count || m->nprofiles >= MAX_PROFILES) {
        return;
    }
    struct fake_profile *p = &m->profiles[m->nprofiles];
    memset(p, 0, sizeof *p);
    int offset = 0;
    if (sscanf(spec, "%u %u %u %u %u %llu %u %n", &p->profile, &p->id, &p->slices, &p->instances, &p->sms, &p->mem,
               &p->size, &offset) < 7) {
        return;
    }
    const char *rest = spec + offset;
    unsigned int start;
    int used = 0;
    while (p->nplacements < MAX_PLACEMENTS && sscanf(rest, "%u %n", &start, &used) == 1) {
        p->starts[p->nplacements++] = start;
        rest += used;
    }
    m->nprofiles++;
}

static void set_facts(unsigned int index, unsigned int minor, unsigned int arch, int brand, int cc_major, int cc_minor)
{
    if (index >= device_count) {
        return;
    }
    struct nvmlDevice_st *d = &devices[index];
    d->minor = minor;
    d->arch = arch;
    d->brand = brand;
    d->has_cc = 1;
    d->cc_major = cc_major;
    d->cc_minor = cc_minor;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* the raw name bytes of the GPU at INDEX from hex pairs; a malformed or too long line is ignored */
static void set_name_bytes(unsigned int index, const char *hex)
{
    if (index >= device_count) {
        return;
    }
    struct nvmlDevice_st *d = &devices[index];
    size_t n = strlen(hex) / 2;
    if (strlen(hex) % 2 != 0 || n > sizeof d->name_bytes) {
        return;
    }
    for (size_t i = 0; i < n; i++) {
        int hi = hex_digit(hex[2 * i]);
        int lo = hex_digit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            return;
        }
        d->name_bytes[i] = (unsigned char) (hi * 16 + lo);
    }
    d->name_bytes_len = (unsigned int) n;
    d->has_name_bytes = 1;
}

static void load_config(void)
{
    char path[PATH_MAX];
    char conf[PATH_MAX + 8];
    device_count = 0;
    rule_count = 0;
    for (int i = 0; i < MAX_DEVICES; i++) {
        for (int j = 0; j < MAX_DEVICES; j++) {
            topo_levels[i][j] = 40;
        }
    }
    memset(links, 0, sizeof links);
    init_error = 0;
    snprintf(driver_version, sizeof driver_version, "550.54.15");
    cuda_driver_version = 12040;
    own_path(path, sizeof path);
    snprintf(conf, sizeof conf, "%s.conf", path);
    FILE *f = fopen(conf, "r");
    if (f == NULL) {
        add_gpu("GPU-11111111-2222-3333-4444-555555555555", "00000000:3B:00.0", 42949672960ULL, 1073741824ULL,
                0, 10, 5, "NVIDIA A100-SXM4-40GB");
        set_facts(0, 0, 7, 14, 8, 0);   /* Ampere, Nvidia, 8.0 */
        add_gpu("GPU-66666666-7777-8888-9999-000000000000", "00000000:86:00.0", 34359738368ULL, 0ULL,
                -1, 0, 0, "Tesla V100-PCIE-32GB");
        set_facts(1, 1, 5, 2, 7, 0);    /* Volta, Tesla, 7.0 */
        return;
    }
    char line[512];
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        char uuid[96], bus[32], function[64], version[80], hex[2 * 96 + 2];
        unsigned long long total, used;
        int mig, index, code, offset = 0, brand, cc_major, cc_minor;
        unsigned int util_gpu, util_mem, minor, arch;
        if (sscanf(line, "init_error %d", &code) == 1) {
            init_error = code;
        } else if (sscanf(line, "facts %d %u %u %d %d %d", &index, &minor, &arch, &brand, &cc_major, &cc_minor) == 6
                   && index >= 0) {
            set_facts((unsigned int) index, minor, arch, brand, cc_major, cc_minor);
        } else if (sscanf(line, "namebytes %d %193s", &index, hex) == 2 && index >= 0) {
            set_name_bytes((unsigned int) index, hex);
        } else if (sscanf(line, "driver %79s %d", version, &code) == 2) {
            snprintf(driver_version, sizeof driver_version, "%s", version);
            cuda_driver_version = code;
        } else if (sscanf(line, "gpu %95s %31s %llu %llu %d %u %u %n", uuid, bus, &total, &used, &mig, &util_gpu,
                          &util_mem, &offset) == 7 && offset > 0) {
            add_gpu(uuid, bus, total, used, mig, util_gpu, util_mem, line + offset);
        } else if (sscanf(line, "migprofile %d %n", &index, &offset) == 1 && index >= 0 && offset > 0) {
            add_profile((unsigned int) index, line + offset);
        } else if (sscanf(line, "migreset %d", &index) == 1 && index >= 0 && (unsigned int) index < device_count) {
            migs[index].needs_reset = 1;
        } else if (sscanf(line, "procs %d %d", &index, &code) == 2 && index >= 0 && (unsigned int) index < device_count
                   && code >= 0) {
            migs[index].procs = (unsigned int) code;
        } else if (sscanf(line, "topo %d %d %d", &index, &brand, &code) == 3 && index >= 0 && index < MAX_DEVICES
                   && brand >= 0 && brand < MAX_DEVICES) {
            topo_levels[index][brand] = code;
        } else if (sscanf(line, "nvlink %d %d %31s %d", &index, &brand, bus, &code) == 4 && index >= 0
                   && index < MAX_DEVICES && brand >= 0 && brand < 18) {
            links[index][brand].active = 1;
            snprintf(links[index][brand].bus_id, sizeof links[index][brand].bus_id, "%s", strcmp(bus, "-") == 0 ? "" : bus);
            links[index][brand].type = code;
        } else if (sscanf(line, "fail %63s %d %d", function, &index, &code) == 3 && rule_count < MAX_RULES) {
            snprintf(rules[rule_count].function, sizeof rules[rule_count].function, "%s", function);
            rules[rule_count].index = index;
            rules[rule_count].code = code;
            rule_count++;
        }
    }
    fclose(f);
}

/* the injected failure for function on device index, or SUCCESS */
static int rule(const char *function, int index)
{
    for (int i = 0; i < rule_count; i++) {
        if (strcmp(rules[i].function, function) == 0 && (rules[i].index == -1 || rules[i].index == index)) {
            return rules[i].code;
        }
    }
    return SUCCESS;
}

static int enter(const char *function, nvmlDevice_t device)
{
    if (init_refs <= 0) {
        return ERROR_UNINITIALIZED;
    }
    if (device == NULL && strcmp(function, "nvmlDeviceGetCount_v2") != 0 && strncmp(function, "nvmlEvent", 9) != 0
        && strncmp(function, "nvmlSystem", 10) != 0) {
        return ERROR_INVALID_ARGUMENT;
    }
    return rule(function, device != NULL ? (int) device->index : -1);
}

nvmlReturn_t nvmlInit_v2(void)
{
    pthread_mutex_lock(&lock);
    if (init_refs == 0) {
        load_config();
    }
    int rc = init_error;
    if (rc == SUCCESS) {
        init_refs++;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

nvmlReturn_t nvmlShutdown(void)
{
    pthread_mutex_lock(&lock);
    int rc = init_refs > 0 ? SUCCESS : ERROR_UNINITIALIZED;
    if (init_refs > 0) {
        init_refs--;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

const char *nvmlErrorString(nvmlReturn_t result)
{
    return result == SUCCESS ? "Success" : "Fake NVML error";
}

nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count)
{
    int rc = enter("nvmlDeviceGetCount_v2", NULL);
    if (rc == SUCCESS) {
        *count = device_count;
    }
    return rc;
}

nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
{
    if (init_refs <= 0) {
        return ERROR_UNINITIALIZED;
    }
    int rc = rule("nvmlDeviceGetHandleByIndex_v2", (int) index);
    if (rc != SUCCESS) {
        return rc;
    }
    if (index >= device_count) {
        return ERROR_INVALID_ARGUMENT;
    }
    *device = &devices[index];
    return SUCCESS;
}

static nvmlReturn_t copy_string(const char *function, nvmlDevice_t device, const char *value, char *buf,
                                unsigned int len)
{
    int rc = enter(function, device);
    if (rc != SUCCESS) {
        return rc;
    }
    if (strlen(value) + 1 > len) {
        return ERROR_INSUFFICIENT_SIZE;
    }
    memcpy(buf, value, strlen(value) + 1);
    return SUCCESS;
}

nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length)
{
    return copy_string("nvmlDeviceGetUUID", device, device != NULL ? device->uuid : "", uuid, length);
}

nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length)
{
    if (device != NULL && device->has_name_bytes) {
        int rc = enter("nvmlDeviceGetName", device);
        if (rc != SUCCESS) {
            return rc;
        }
        if (device->name_bytes_len > length) {
            return ERROR_INSUFFICIENT_SIZE;
        }
        memset(name, 0, length);
        memcpy(name, device->name_bytes, device->name_bytes_len);
        return SUCCESS;
    }
    return copy_string("nvmlDeviceGetName", device, device != NULL ? device->name : "", name, length);
}

nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory)
{
    int rc = enter("nvmlDeviceGetMemoryInfo", device);
    if (rc == SUCCESS) {
        memory->total = device->total;
        memory->used = device->used;
        memory->free = device->total - device->used;
    }
    return rc;
}

nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization)
{
    int rc = enter("nvmlDeviceGetUtilizationRates", device);
    if (rc == SUCCESS) {
        utilization->gpu = device->util_gpu;
        utilization->memory = device->util_mem;
    }
    return rc;
}

nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci)
{
    int rc = enter("nvmlDeviceGetPciInfo_v3", device);
    if (rc == SUCCESS) {
        memset(pci, 0, sizeof *pci);
        snprintf(pci->busId, sizeof pci->busId, "%s", device->bus_id);
        snprintf(pci->busIdLegacy, sizeof pci->busIdLegacy, "%.15s", device->bus_id + 4);
        sscanf(device->bus_id, "%x:%x:%x", &pci->domain, &pci->bus, &pci->device);
    }
    return rc;
}

nvmlReturn_t nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int *current, unsigned int *pending)
{
    int rc = enter("nvmlDeviceGetMigMode", device);
    if (rc != SUCCESS) {
        return rc;
    }
    if (device->mig < 0 || device->is_mig) {
        return ERROR_NOT_SUPPORTED;
    }
    *current = (unsigned int) migs[device->index].current;
    *pending = (unsigned int) migs[device->index].pending;
    return SUCCESS;
}

#ifndef FAKE_NVML_LEGACY
nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned int *minor)
{
    int rc = enter("nvmlDeviceGetMinorNumber", device);
    if (rc == SUCCESS) {
        *minor = device->minor;
    }
    return rc;
}

nvmlReturn_t nvmlDeviceGetArchitecture(nvmlDevice_t device, unsigned int *arch)
{
    int rc = enter("nvmlDeviceGetArchitecture", device);
    if (rc == SUCCESS) {
        *arch = device->arch;
    }
    return rc;
}

nvmlReturn_t nvmlDeviceGetBrand(nvmlDevice_t device, int *brand)
{
    int rc = enter("nvmlDeviceGetBrand", device);
    if (rc == SUCCESS) {
        *brand = device->brand;
    }
    return rc;
}

nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int *major, int *minor)
{
    int rc = enter("nvmlDeviceGetCudaComputeCapability", device);
    if (rc != SUCCESS) {
        return rc;
    }
    if (!device->has_cc) {
        return ERROR_NOT_SUPPORTED;
    }
    *major = device->cc_major;
    *minor = device->cc_minor;
    return SUCCESS;
}

nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length)
{
    int rc = enter("nvmlSystemGetDriverVersion", NULL);
    if (rc != SUCCESS) {
        return rc;
    }
    if (strlen(driver_version) + 1 > length) {
        return ERROR_INSUFFICIENT_SIZE;
    }
    memcpy(version, driver_version, strlen(driver_version) + 1);
    return SUCCESS;
}

nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *version)
{
    int rc = enter("nvmlSystemGetCudaDriverVersion_v2", NULL);
    if (rc == SUCCESS) {
        *version = cuda_driver_version;
    }
    return rc;
}
#endif

nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t *set)
{
    int rc = enter("nvmlEventSetCreate", NULL);
    if (rc != SUCCESS) {
        return rc;
    }
    *set = calloc(1, sizeof **set);
    return *set != NULL ? SUCCESS : 20;
}

nvmlReturn_t nvmlDeviceGetSupportedEventTypes(nvmlDevice_t device, unsigned long long *types)
{
    int rc = enter("nvmlDeviceGetSupportedEventTypes", device);
    if (rc == SUCCESS) {
        *types = EVENT_SINGLE_BIT_ECC | EVENT_DOUBLE_BIT_ECC | EVENT_XID_CRITICAL;
    }
    return rc;
}

nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t device, unsigned long long types, nvmlEventSet_t set)
{
    int rc = enter("nvmlDeviceRegisterEvents", device);
    if (rc != SUCCESS) {
        return rc;
    }
    if (set == NULL) {
        return ERROR_INVALID_ARGUMENT;
    }
    if (types & EVENT_XID_CRITICAL) {
        set->registered[device->index] = 1;
    }
    return SUCCESS;
}

/* consumes "<library>.xid" when present; 1 with index/xid filled when an event was read */
static int take_injected(int *index, unsigned long long *xid)
{
    char path[PATH_MAX];
    char file[PATH_MAX + 8];
    own_path(path, sizeof path);
    snprintf(file, sizeof file, "%s.xid", path);
    FILE *f = fopen(file, "r");
    if (f == NULL) {
        return 0;
    }
    int n = fscanf(f, "%d %llu", index, xid);
    fclose(f);
    unlink(file);
    return n == 2;
}

nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set, nvmlEventData_t *data, unsigned int timeout_ms)
{
    int rc = enter("nvmlEventSetWait_v2", NULL);
    if (rc != SUCCESS) {
        return rc;
    }
    if (set == NULL) {
        return ERROR_INVALID_ARGUMENT;
    }
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        int index;
        unsigned long long xid;
        if (take_injected(&index, &xid)) {
            int known = index >= 0 && (unsigned int) index < device_count;
            if (index < 0 || (known && set->registered[index])) {
                memset(data, 0, sizeof *data);
                data->device = known ? &devices[index] : NULL;
                data->eventType = EVENT_XID_CRITICAL;
                data->eventData = xid;
                data->gpuInstanceId = 0xFFFFFFFFu;
                data->computeInstanceId = 0xFFFFFFFFu;
                return SUCCESS;
            }
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        long long elapsed = (now.tv_sec - start.tv_sec) * 1000LL + (now.tv_nsec - start.tv_nsec) / 1000000LL;
        if (elapsed >= (long long) timeout_ms) {
            return ERROR_TIMEOUT;
        }
        usleep(2000);
    }
}

nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set)
{
    free(set);
    return SUCCESS;
}

/* ---- MIG ---- */

/* init check + injected failure for a call on GPU index (or on one of its instances) */
static int enter_gpu(const char *function, unsigned int index)
{
    if (init_refs <= 0) {
        return ERROR_UNINITIALIZED;
    }
    return rule(function, (int) index);
}

/* the MIG state of a physical GPU handle, or NULL (with *rc set) when it has no MIG */
static struct fake_mig *mig_of(const char *function, nvmlDevice_t device, int *rc)
{
    *rc = enter(function, device);
    if (*rc != SUCCESS) {
        return NULL;
    }
    if (device->mig < 0 || device->is_mig) {
        *rc = ERROR_NOT_SUPPORTED;
        return NULL;
    }
    return &migs[device->index];
}

static const struct fake_profile *profile_by_id(const struct fake_mig *m, unsigned int id)
{
    for (unsigned int i = 0; i < m->nprofiles; i++) {
        if (m->profiles[i].id == id) {
            return &m->profiles[i];
        }
    }
    return NULL;
}

static int ci_slices(unsigned int profile)
{
    switch (profile) {
    case 0: case 7: return 1;
    case 1: return 2;
    case 2: return 3;
    case 3: return 4;
    case 4: return 7;
    case 5: return 8;
    case 6: return 6;
    default: return -1;
    }
}

nvmlReturn_t nvmlDeviceGetGpuInstanceProfileInfo(nvmlDevice_t device, unsigned int profile, nvmlGpuInstanceProfileInfo_t *info)
{
    int rc;
    struct fake_mig *m = mig_of("nvmlDeviceGetGpuInstanceProfileInfo", device, &rc);
    if (m == NULL) {
        return rc;
    }
    for (unsigned int i = 0; i < m->nprofiles; i++) {
        const struct fake_profile *p = &m->profiles[i];
        if (p->profile == profile) {
            memset(info, 0, sizeof *info);
            info->id = p->id;
            info->sliceCount = p->slices;
            info->instanceCount = p->instances;
            info->multiprocessorCount = p->sms;
            info->memorySizeMB = p->mem;
            return SUCCESS;
        }
    }
    return profile < MAX_PROFILES ? ERROR_NOT_SUPPORTED : ERROR_INVALID_ARGUMENT;
}

nvmlReturn_t nvmlDeviceGetGpuInstancePossiblePlacements_v2(nvmlDevice_t device, unsigned int profileId,
                                                          nvmlGpuInstancePlacement_t *placements, unsigned int *count)
{
    int rc;
    struct fake_mig *m = mig_of("nvmlDeviceGetGpuInstancePossiblePlacements_v2", device, &rc);
    if (m == NULL) {
        return rc;
    }
    const struct fake_profile *p = profile_by_id(m, profileId);
    if (p == NULL) {
        return ERROR_NOT_SUPPORTED;
    }
    if (placements == NULL) {
        *count = p->nplacements;
        return SUCCESS;
    }
    if (*count < p->nplacements) {
        *count = p->nplacements;
        return ERROR_INSUFFICIENT_SIZE;
    }
    for (unsigned int i = 0; i < p->nplacements; i++) {
        placements[i].start = p->starts[i];
        placements[i].size = p->size;
    }
    *count = p->nplacements;
    return SUCCESS;
}

static unsigned int live_gis(const struct fake_mig *m)
{
    unsigned int n = 0;
    for (unsigned int i = 0; i < MAX_GIS; i++) {
        n += m->gis[i].used ? 1u : 0u;
    }
    return n;
}

nvmlReturn_t nvmlDeviceSetMigMode(nvmlDevice_t device, unsigned int mode, nvmlReturn_t *activationStatus)
{
    int rc;
    pthread_mutex_lock(&lock);
    struct fake_mig *m = mig_of("nvmlDeviceSetMigMode", device, &rc);
    if (m != NULL) {
        if (mode == 0 && live_gis(m) > 0) {
            rc = ERROR_IN_USE;
        } else {
            m->pending = mode != 0;
            if (mode == 0 || !m->needs_reset) {
                m->current = mode != 0;
            }
            *activationStatus = SUCCESS;
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

nvmlReturn_t nvmlDeviceCreateGpuInstanceWithPlacement(nvmlDevice_t device, unsigned int profileId,
                                                      const nvmlGpuInstancePlacement_t *placement,
                                                      nvmlGpuInstance_t *gpuInstance)
{
    int rc;
    pthread_mutex_lock(&lock);
    struct fake_mig *m = mig_of("nvmlDeviceCreateGpuInstanceWithPlacement", device, &rc);
    if (m == NULL) {
        goto out;
    }
    if (!m->current) {
        rc = ERROR_INVALID_STATE;
        goto out;
    }
    const struct fake_profile *p = profile_by_id(m, profileId);
    if (p == NULL) {
        rc = ERROR_NOT_SUPPORTED;
        goto out;
    }
    int possible = 0;
    for (unsigned int i = 0; i < p->nplacements; i++) {
        possible |= p->starts[i] == placement->start && p->size == placement->size;
    }
    if (!possible) {
        rc = ERROR_INVALID_ARGUMENT;
        goto out;
    }
    unsigned int same = 0;
    int free_slot = -1;
    for (int i = MAX_GIS - 1; i >= 0; i--) {
        struct nvmlGpuInstance_st *g = &m->gis[i];
        if (!g->used) {
            free_slot = i;
            continue;
        }
        same += g->profile == p ? 1u : 0u;
        if (placement->start < g->start + g->profile->size && g->start < placement->start + placement->size) {
            rc = ERROR_INSUFFICIENT_RESOURCES;
            goto out;
        }
    }
    if (same >= p->instances || free_slot < 0) {
        rc = ERROR_INSUFFICIENT_RESOURCES;
        goto out;
    }
    unsigned int id = 1;
    for (;;) {
        int taken = 0;
        for (unsigned int i = 0; i < MAX_GIS; i++) {
            taken |= m->gis[i].used && m->gis[i].id == id;
        }
        if (!taken) {
            break;
        }
        id++;
    }
    struct nvmlGpuInstance_st *g = &m->gis[free_slot];
    memset(g, 0, sizeof *g);
    g->used = 1;
    g->gpu = device->index;
    g->id = id;
    g->profile = p;
    g->start = placement->start;
    *gpuInstance = g;
out:
    pthread_mutex_unlock(&lock);
    return rc;
}

nvmlReturn_t nvmlGpuInstanceGetInfo(nvmlGpuInstance_t gi, nvmlGpuInstanceInfo_t *info)
{
    if (gi == NULL || !gi->used) {
        return ERROR_INVALID_ARGUMENT;
    }
    int rc = enter_gpu("nvmlGpuInstanceGetInfo", gi->gpu);
    if (rc == SUCCESS) {
        info->device = &devices[gi->gpu];
        info->id = gi->id;
        info->profileId = gi->profile->id;
        info->placement.start = gi->start;
        info->placement.size = gi->profile->size;
    }
    return rc;
}

nvmlReturn_t nvmlDeviceGetGpuInstanceById(nvmlDevice_t device, unsigned int id, nvmlGpuInstance_t *gpuInstance)
{
    int rc;
    struct fake_mig *m = mig_of("nvmlDeviceGetGpuInstanceById", device, &rc);
    if (m == NULL) {
        return rc;
    }
    for (unsigned int i = 0; i < MAX_GIS; i++) {
        if (m->gis[i].used && m->gis[i].id == id) {
            *gpuInstance = &m->gis[i];
            return SUCCESS;
        }
    }
    return ERROR_NOT_FOUND;
}

nvmlReturn_t nvmlDeviceGetGpuInstances(nvmlDevice_t device, unsigned int profileId, nvmlGpuInstance_t *gpuInstances,
                                       unsigned int *count)
{
    int rc;
    struct fake_mig *m = mig_of("nvmlDeviceGetGpuInstances", device, &rc);
    if (m == NULL) {
        return rc;
    }
    const struct fake_profile *p = profile_by_id(m, profileId);
    if (p == NULL) {
        return ERROR_NOT_SUPPORTED;
    }
    unsigned int n = 0;
    for (unsigned int i = 0; i < MAX_GIS; i++) {
        if (m->gis[i].used && m->gis[i].profile == p) {
            if (n >= *count) {
                return ERROR_INSUFFICIENT_SIZE;
            }
            gpuInstances[n++] = &m->gis[i];
        }
    }
    *count = n;
    return SUCCESS;
}

nvmlReturn_t nvmlGpuInstanceDestroy(nvmlGpuInstance_t gi)
{
    if (gi == NULL || !gi->used) {
        return ERROR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&lock);
    int rc = enter_gpu("nvmlGpuInstanceDestroy", gi->gpu);
    if (rc == SUCCESS) {
        for (unsigned int i = 0; i < MAX_CIS; i++) {
            if (gi->cis[i].used) {
                rc = ERROR_IN_USE;
            }
        }
        if (rc == SUCCESS) {
            gi->used = 0;
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

nvmlReturn_t nvmlGpuInstanceGetComputeInstanceProfileInfo(nvmlGpuInstance_t gi, unsigned int profile,
                                                         unsigned int engProfile, nvmlComputeInstanceProfileInfo_t *info)
{
    if (gi == NULL || !gi->used || engProfile != 0) {
        return ERROR_INVALID_ARGUMENT;
    }
    int rc = enter_gpu("nvmlGpuInstanceGetComputeInstanceProfileInfo", gi->gpu);
    if (rc != SUCCESS) {
        return rc;
    }
    int slices = ci_slices(profile);
    if (slices < 0 || (unsigned int) slices > gi->profile->slices) {
        return ERROR_NOT_SUPPORTED;
    }
    memset(info, 0, sizeof *info);
    info->id = profile;
    info->sliceCount = (unsigned int) slices;
    info->instanceCount = gi->profile->slices / (unsigned int) slices;
    return SUCCESS;
}

nvmlReturn_t nvmlGpuInstanceCreateComputeInstance(nvmlGpuInstance_t gi, unsigned int profileId,
                                                  nvmlComputeInstance_t *computeInstance)
{
    if (gi == NULL || !gi->used) {
        return ERROR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&lock);
    int rc = enter_gpu("nvmlGpuInstanceCreateComputeInstance", gi->gpu);
    int slices = ci_slices(profileId);
    if (rc == SUCCESS && (slices < 0 || (unsigned int) slices > gi->profile->slices)) {
        rc = ERROR_NOT_SUPPORTED;
    }
    if (rc == SUCCESS) {
        unsigned int used = 0;
        int free_slot = -1;
        for (int i = MAX_CIS - 1; i >= 0; i--) {
            if (gi->cis[i].used) {
                used += gi->cis[i].slices;
            } else {
                free_slot = i;
            }
        }
        if (used + (unsigned int) slices > gi->profile->slices || free_slot < 0) {
            rc = ERROR_INSUFFICIENT_RESOURCES;
        } else {
            unsigned int id = 0;
            for (;;) {
                int taken = 0;
                for (unsigned int i = 0; i < MAX_CIS; i++) {
                    taken |= gi->cis[i].used && gi->cis[i].id == id;
                }
                if (!taken) {
                    break;
                }
                id++;
            }
            struct nvmlComputeInstance_st *ci = &gi->cis[free_slot];
            ci->used = 1;
            ci->id = id;
            ci->profile = profileId;
            ci->slices = (unsigned int) slices;
            ci->gi = gi;
            *computeInstance = ci;
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

nvmlReturn_t nvmlComputeInstanceGetInfo_v2(nvmlComputeInstance_t ci, nvmlComputeInstanceInfo_t *info)
{
    if (ci == NULL || !ci->used) {
        return ERROR_INVALID_ARGUMENT;
    }
    int rc = enter_gpu("nvmlComputeInstanceGetInfo_v2", ci->gi->gpu);
    if (rc == SUCCESS) {
        memset(info, 0, sizeof *info);
        info->device = &devices[ci->gi->gpu];
        info->gpuInstance = ci->gi;
        info->id = ci->id;
        info->profileId = ci->profile;
    }
    return rc;
}

nvmlReturn_t nvmlGpuInstanceGetComputeInstanceById(nvmlGpuInstance_t gi, unsigned int id,
                                                   nvmlComputeInstance_t *computeInstance)
{
    if (gi == NULL || !gi->used) {
        return ERROR_INVALID_ARGUMENT;
    }
    int rc = enter_gpu("nvmlGpuInstanceGetComputeInstanceById", gi->gpu);
    if (rc != SUCCESS) {
        return rc;
    }
    for (unsigned int i = 0; i < MAX_CIS; i++) {
        if (gi->cis[i].used && gi->cis[i].id == id) {
            *computeInstance = &gi->cis[i];
            return SUCCESS;
        }
    }
    return ERROR_NOT_FOUND;
}

nvmlReturn_t nvmlGpuInstanceGetComputeInstances(nvmlGpuInstance_t gi, unsigned int profileId,
                                                nvmlComputeInstance_t *computeInstances, unsigned int *count)
{
    if (gi == NULL || !gi->used) {
        return ERROR_INVALID_ARGUMENT;
    }
    int rc = enter_gpu("nvmlGpuInstanceGetComputeInstances", gi->gpu);
    if (rc != SUCCESS) {
        return rc;
    }
    unsigned int n = 0;
    for (unsigned int i = 0; i < MAX_CIS; i++) {
        if (gi->cis[i].used && gi->cis[i].profile == profileId) {
            if (n >= *count) {
                return ERROR_INSUFFICIENT_SIZE;
            }
            computeInstances[n++] = &gi->cis[i];
        }
    }
    *count = n;
    return SUCCESS;
}

nvmlReturn_t nvmlComputeInstanceDestroy(nvmlComputeInstance_t ci)
{
    if (ci == NULL || !ci->used) {
        return ERROR_INVALID_ARGUMENT;
    }
    pthread_mutex_lock(&lock);
    int rc = enter_gpu("nvmlComputeInstanceDestroy", ci->gi->gpu);
    if (rc == SUCCESS) {
        ci->used = 0;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

nvmlReturn_t nvmlDeviceGetMaxMigDeviceCount(nvmlDevice_t device, unsigned int *count)
{
    int rc;
    struct fake_mig *m = mig_of("nvmlDeviceGetMaxMigDeviceCount", device, &rc);
    if (m != NULL) {
        *count = MAX_GIS;
    }
    return rc;
}

nvmlReturn_t nvmlDeviceGetMigDeviceHandleByIndex(nvmlDevice_t device, unsigned int index, nvmlDevice_t *migDevice)
{
    int rc;
    pthread_mutex_lock(&lock);
    struct fake_mig *m = mig_of("nvmlDeviceGetMigDeviceHandleByIndex", device, &rc);
    if (m == NULL) {
        goto out;
    }
    rc = ERROR_NOT_FOUND;
    if (!m->current) {
        goto out;
    }
    /* MIG devices in ascending (GPU instance id, compute instance id) order */
    unsigned int slot = 0;
    for (unsigned int gid = 1; gid <= 64 && rc == ERROR_NOT_FOUND; gid++) {
        for (unsigned int g = 0; g < MAX_GIS && rc == ERROR_NOT_FOUND; g++) {
            struct nvmlGpuInstance_st *gi = &m->gis[g];
            if (!gi->used || gi->id != gid) {
                continue;
            }
            for (unsigned int cid = 0; cid < 64 && rc == ERROR_NOT_FOUND; cid++) {
                for (unsigned int c = 0; c < MAX_CIS; c++) {
                    if (!gi->cis[c].used || gi->cis[c].id != cid) {
                        continue;
                    }
                    if (slot++ == index && index < MAX_MIG) {
                        struct nvmlDevice_st *h = &m->handles[index];
                        memset(h, 0, sizeof *h);
                        h->index = device->index;
                        h->is_mig = 1;
                        h->mig = -1;
                        h->gi_id = gi->id;
                        h->ci_id = gi->cis[c].id;
                        snprintf(h->uuid, sizeof h->uuid, "MIG-%08x-%04x-4%03x-8%03x-%012x",
                                 (unsigned int) (device->index * 2654435761u), gi->id, gi->cis[c].id & 0xfffu,
                                 device->index & 0xfffu, gi->id * 131u + gi->cis[c].id);
                        *migDevice = h;
                        rc = SUCCESS;
                    }
                    break;
                }
            }
        }
    }
out:
    pthread_mutex_unlock(&lock);
    return rc;
}

nvmlReturn_t nvmlDeviceGetGpuInstanceId(nvmlDevice_t device, unsigned int *id)
{
    int rc = enter("nvmlDeviceGetGpuInstanceId", device);
    if (rc == SUCCESS) {
        if (!device->is_mig) {
            return ERROR_INVALID_ARGUMENT;
        }
        *id = device->gi_id;
    }
    return rc;
}

nvmlReturn_t nvmlDeviceGetComputeInstanceId(nvmlDevice_t device, unsigned int *id)
{
    int rc = enter("nvmlDeviceGetComputeInstanceId", device);
    if (rc == SUCCESS) {
        if (!device->is_mig) {
            return ERROR_INVALID_ARGUMENT;
        }
        *id = device->ci_id;
    }
    return rc;
}

/* processes of INDEX: on the GPU without MIG, on its first MIG device with MIG on */
static nvmlReturn_t processes(const char *function, nvmlDevice_t device, unsigned int *count, int graphics)
{
    int rc = enter(function, device);
    if (rc != SUCCESS) {
        return rc;
    }
    const struct fake_mig *m = &migs[device->index];
    unsigned int n = 0;
    if (!graphics) {
        int first_mig = device->is_mig && device == &m->handles[0];
        n = (m->current && (device->is_mig ? first_mig : 0)) || (!m->current && !device->is_mig) ? m->procs : 0u;
    }
    if (*count < n) {
        *count = n;
        return ERROR_INSUFFICIENT_SIZE;
    }
    *count = n;
    return SUCCESS;
}

nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t device, unsigned int *infoCount, void *infos)
{
    (void) infos;
    return processes("nvmlDeviceGetComputeRunningProcesses_v3", device, infoCount, 0);
}

nvmlReturn_t nvmlDeviceGetGraphicsRunningProcesses_v3(nvmlDevice_t device, unsigned int *infoCount, void *infos)
{
    (void) infos;
    return processes("nvmlDeviceGetGraphicsRunningProcesses_v3", device, infoCount, 1);
}

/* ---- topology ---- */

nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t device1, nvmlDevice_t device2, int *pathInfo)
{
    int rc = enter("nvmlDeviceGetTopologyCommonAncestor", device1);
    if (rc == SUCCESS && device2 == NULL) {
        rc = ERROR_INVALID_ARGUMENT;
    }
    if (rc == SUCCESS) {
        *pathInfo = topo_levels[device1->index][device2->index];
    }
    return rc;
}

nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link, int *isActive)
{
    int rc = enter("nvmlDeviceGetNvLinkState", device);
    if (rc != SUCCESS) {
        return rc;
    }
    if (link >= 18) {
        return ERROR_INVALID_ARGUMENT;
    }
    if (!links[device->index][link].active) {
        return ERROR_NOT_SUPPORTED;
    }
    *isActive = 1;
    return SUCCESS;
}

nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t device, unsigned int link, nvmlPciInfo_t *pci)
{
    int rc = enter("nvmlDeviceGetNvLinkRemotePciInfo_v2", device);
    if (rc != SUCCESS) {
        return rc;
    }
    if (link >= 18 || !links[device->index][link].active || links[device->index][link].bus_id[0] == '\0') {
        return ERROR_NOT_SUPPORTED;
    }
    memset(pci, 0, sizeof *pci);
    snprintf(pci->busId, sizeof pci->busId, "%s", links[device->index][link].bus_id);
    return SUCCESS;
}

nvmlReturn_t nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_t device, unsigned int link, int *type)
{
    int rc = enter("nvmlDeviceGetNvLinkRemoteDeviceType", device);
    if (rc != SUCCESS) {
        return rc;
    }
    if (link >= 18 || !links[device->index][link].active || links[device->index][link].type < 0) {
        return ERROR_NOT_SUPPORTED;
    }
    *type = links[device->index][link].type;
    return SUCCESS;
}
