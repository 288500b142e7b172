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
 * Without a .conf file there are two default GPUs (an A100 and a V100 with their real facts).
 *
 * Built twice: compiled with -DFAKE_NVML_LEGACY the library lacks the identity symbols
 * (nvmlDeviceGetMinorNumber, ...Architecture, ...Brand, ...CudaComputeCapability,
 * nvmlSystemGetDriverVersion, nvmlSystemGetCudaDriverVersion_v2), like a driver too old to have them.
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
#define ERROR_TIMEOUT 10

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

static void load_config(void)
{
    char path[PATH_MAX];
    char conf[PATH_MAX + 8];
    device_count = 0;
    rule_count = 0;
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
        char uuid[96], bus[32], function[64], version[80];
        unsigned long long total, used;
        int mig, index, code, offset = 0, brand, cc_major, cc_minor;
        unsigned int util_gpu, util_mem, minor, arch;
        if (sscanf(line, "init_error %d", &code) == 1) {
            init_error = code;
        } else if (sscanf(line, "facts %d %u %u %d %d %d", &index, &minor, &arch, &brand, &cc_major, &cc_minor) == 6
                   && index >= 0) {
            set_facts((unsigned int) index, minor, arch, brand, cc_major, cc_minor);
        } else if (sscanf(line, "driver %79s %d", version, &code) == 2) {
            snprintf(driver_version, sizeof driver_version, "%s", version);
            cuda_driver_version = code;
        } else if (sscanf(line, "gpu %95s %31s %llu %llu %d %u %u %n", uuid, bus, &total, &used, &mig, &util_gpu,
                          &util_mem, &offset) == 7 && offset > 0) {
            add_gpu(uuid, bus, total, used, mig, util_gpu, util_mem, line + offset);
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
    if (device->mig < 0) {
        return ERROR_NOT_SUPPORTED;
    }
    *current = (unsigned int) device->mig;
    *pending = (unsigned int) device->mig;
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
