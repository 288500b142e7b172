/* NVML through dlopen; see vgpu_nvml.h for the contract. */
#include "vgpu_nvml.h"

#include <ctype.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The few NVML types this layer needs, laid out as in nvml.h (x86_64 and aarch64 alike). */
typedef struct nvmlDevice_st *nvml_device_t;
typedef struct nvmlEventSet_st *nvml_event_set_t;

typedef struct {
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
} nvml_memory_t;

typedef struct {
    unsigned int gpu;
    unsigned int memory;
} nvml_utilization_t;

typedef struct {                /* nvmlPciInfo_t as filled by nvmlDeviceGetPciInfo_v3 */
    char bus_id_legacy[16];
    unsigned int domain;
    unsigned int bus;
    unsigned int device;
    unsigned int pci_device_id;
    unsigned int pci_sub_system_id;
    char bus_id[VG_NVML_BUS_ID_LEN];
} nvml_pci_info_t;

typedef struct {                /* nvmlEventData_t (the _v2 wait fills the instance ids) */
    nvml_device_t device;
    unsigned long long event_type;
    unsigned long long event_data;
    unsigned int gpu_instance_id;
    unsigned int compute_instance_id;
} nvml_event_data_t;

typedef struct nvmlGpuInstance_st *nvml_gi_t;
typedef struct nvmlComputeInstance_st *nvml_ci_t;

typedef struct {
    unsigned int start;
    unsigned int size;
} nvml_placement_t;

typedef struct {                /* nvmlGpuInstanceProfileInfo_t (v1) */
    unsigned int id;
    unsigned int is_p2p_supported;
    unsigned int slice_count;
    unsigned int instance_count;
    unsigned int multiprocessor_count;
    unsigned int copy_engine_count;
    unsigned int decoder_count;
    unsigned int encoder_count;
    unsigned int jpeg_count;
    unsigned int ofa_count;
    unsigned long long memory_size_mb;
} nvml_gi_profile_info_t;

typedef struct {                /* nvmlGpuInstanceInfo_t */
    nvml_device_t device;
    unsigned int id;
    unsigned int profile_id;
    nvml_placement_t placement;
} nvml_gi_info_t;

typedef struct {                /* nvmlComputeInstanceProfileInfo_t (v1) */
    unsigned int id;
    unsigned int slice_count;
    unsigned int instance_count;
    unsigned int multiprocessor_count;
    unsigned int shared_copy_engine_count;
    unsigned int shared_decoder_count;
    unsigned int shared_encoder_count;
    unsigned int shared_jpeg_count;
    unsigned int shared_ofa_count;
} nvml_ci_profile_info_t;

typedef struct {                /* nvmlComputeInstanceInfo_t (the v2 call also fills the placement) */
    nvml_device_t device;
    nvml_gi_t gpu_instance;
    unsigned int id;
    unsigned int profile_id;
    nvml_placement_t placement;
} nvml_ci_info_t;

/* NVML_COMPUTE_INSTANCE_ENGINE_PROFILE_SHARED */
#define CI_ENGINE_SHARED 0u
/* more than any GPU holds: 7 MIG devices today, 8 slices at most */
#define MAX_INSTANCES 64u

struct vg_nvml {
    void *lib;
    int (*init)(void);
    int (*shutdown)(void);
    int (*device_count)(unsigned int *);
    int (*device_handle)(unsigned int, nvml_device_t *);
    int (*device_uuid)(nvml_device_t, char *, unsigned int);
    int (*device_name)(nvml_device_t, char *, unsigned int);
    int (*device_memory)(nvml_device_t, nvml_memory_t *);
    int (*device_utilization)(nvml_device_t, nvml_utilization_t *);
    int (*device_pci_info)(nvml_device_t, nvml_pci_info_t *);
    int (*device_mig_mode)(nvml_device_t, unsigned int *, unsigned int *);
    int (*device_minor_number)(nvml_device_t, unsigned int *);
    /* nvmlDeviceArchitecture_t is an unsigned int; nvmlBrandType_t an enum of int size, all >= 0 */
    int (*device_architecture)(nvml_device_t, unsigned int *);
    int (*device_brand)(nvml_device_t, unsigned int *);
    int (*device_compute_capability)(nvml_device_t, int *, int *);
    int (*driver_version)(char *, unsigned int);
    int (*cuda_driver_version_v2)(int *);
    int (*gi_profile_info)(nvml_device_t, unsigned int, nvml_gi_profile_info_t *);
    int (*gi_placements_v2)(nvml_device_t, unsigned int, nvml_placement_t *, unsigned int *);
    int (*set_mig_mode)(nvml_device_t, unsigned int, int *);
    int (*gi_create)(nvml_device_t, unsigned int, const nvml_placement_t *, nvml_gi_t *);
    int (*gi_by_id)(nvml_device_t, unsigned int, nvml_gi_t *);
    int (*gi_info)(nvml_gi_t, nvml_gi_info_t *);
    int (*gi_list)(nvml_device_t, unsigned int, nvml_gi_t *, unsigned int *);
    int (*gi_destroy)(nvml_gi_t);
    int (*ci_profile_info)(nvml_gi_t, unsigned int, unsigned int, nvml_ci_profile_info_t *);
    int (*ci_create)(nvml_gi_t, unsigned int, nvml_ci_t *);
    int (*ci_by_id)(nvml_gi_t, unsigned int, nvml_ci_t *);
    int (*ci_info_v2)(nvml_ci_t, nvml_ci_info_t *);
    int (*ci_info)(nvml_ci_t, nvml_ci_info_t *);
    int (*ci_list)(nvml_gi_t, unsigned int, nvml_ci_t *, unsigned int *);
    int (*ci_destroy)(nvml_ci_t);
    int (*max_mig_devices)(nvml_device_t, unsigned int *);
    int (*mig_device_by_index)(nvml_device_t, unsigned int, nvml_device_t *);
    int (*mig_gi_id)(nvml_device_t, unsigned int *);
    int (*mig_ci_id)(nvml_device_t, unsigned int *);
    int (*compute_processes_v3)(nvml_device_t, unsigned int *, void *);
    int (*graphics_processes_v3)(nvml_device_t, unsigned int *, void *);
    int (*common_ancestor)(nvml_device_t, nvml_device_t, int *);
    int (*nvlink_state)(nvml_device_t, unsigned int, int *);
    int (*nvlink_remote_pci_v2)(nvml_device_t, unsigned int, nvml_pci_info_t *);
    int (*nvlink_remote_type)(nvml_device_t, unsigned int, int *);
    int (*event_set_create)(nvml_event_set_t *);
    int (*supported_event_types)(nvml_device_t, unsigned long long *);
    int (*register_events)(nvml_device_t, unsigned long long, nvml_event_set_t);
    int (*event_set_wait_v2)(nvml_event_set_t, nvml_event_data_t *, unsigned int);
    int (*event_set_wait)(nvml_event_set_t, nvml_event_data_t *, unsigned int);
    int (*event_set_free)(nvml_event_set_t);
};

struct vg_nvml_event_set {
    nvml_event_set_t set;
};

static const char FN_INIT[] = "nvmlInit_v2";
static const char FN_SHUTDOWN[] = "nvmlShutdown";
static const char FN_COUNT[] = "nvmlDeviceGetCount_v2";
static const char FN_HANDLE[] = "nvmlDeviceGetHandleByIndex_v2";
static const char FN_UUID[] = "nvmlDeviceGetUUID";
static const char FN_NAME[] = "nvmlDeviceGetName";
static const char FN_MEMORY[] = "nvmlDeviceGetMemoryInfo";
static const char FN_UTILIZATION[] = "nvmlDeviceGetUtilizationRates";
static const char FN_PCI[] = "nvmlDeviceGetPciInfo_v3";
static const char FN_MIG[] = "nvmlDeviceGetMigMode";
static const char FN_MINOR[] = "nvmlDeviceGetMinorNumber";
static const char FN_ARCHITECTURE[] = "nvmlDeviceGetArchitecture";
static const char FN_BRAND[] = "nvmlDeviceGetBrand";
static const char FN_COMPUTE_CAPABILITY[] = "nvmlDeviceGetCudaComputeCapability";
static const char FN_DRIVER_VERSION[] = "nvmlSystemGetDriverVersion";
static const char FN_CUDA_DRIVER_VERSION[] = "nvmlSystemGetCudaDriverVersion_v2";
static const char FN_GI_PROFILE[] = "nvmlDeviceGetGpuInstanceProfileInfo";
static const char FN_GI_PLACEMENTS[] = "nvmlDeviceGetGpuInstancePossiblePlacements_v2";
static const char FN_SET_MIG[] = "nvmlDeviceSetMigMode";
static const char FN_GI_CREATE[] = "nvmlDeviceCreateGpuInstanceWithPlacement";
static const char FN_GI_BY_ID[] = "nvmlDeviceGetGpuInstanceById";
static const char FN_GI_INFO[] = "nvmlGpuInstanceGetInfo";
static const char FN_GI_LIST[] = "nvmlDeviceGetGpuInstances";
static const char FN_GI_DESTROY[] = "nvmlGpuInstanceDestroy";
static const char FN_CI_PROFILE[] = "nvmlGpuInstanceGetComputeInstanceProfileInfo";
static const char FN_CI_CREATE[] = "nvmlGpuInstanceCreateComputeInstance";
static const char FN_CI_BY_ID[] = "nvmlGpuInstanceGetComputeInstanceById";
static const char FN_CI_INFO_V2[] = "nvmlComputeInstanceGetInfo_v2";
static const char FN_CI_INFO[] = "nvmlComputeInstanceGetInfo";
static const char FN_CI_LIST[] = "nvmlGpuInstanceGetComputeInstances";
static const char FN_CI_DESTROY[] = "nvmlComputeInstanceDestroy";
static const char FN_MAX_MIG[] = "nvmlDeviceGetMaxMigDeviceCount";
static const char FN_MIG_BY_INDEX[] = "nvmlDeviceGetMigDeviceHandleByIndex";
static const char FN_MIG_GI_ID[] = "nvmlDeviceGetGpuInstanceId";
static const char FN_MIG_CI_ID[] = "nvmlDeviceGetComputeInstanceId";
static const char FN_COMPUTE_PROCS[] = "nvmlDeviceGetComputeRunningProcesses_v3";
static const char FN_GRAPHICS_PROCS[] = "nvmlDeviceGetGraphicsRunningProcesses_v3";
static const char FN_COMMON_ANCESTOR[] = "nvmlDeviceGetTopologyCommonAncestor";
static const char FN_NVLINK_STATE[] = "nvmlDeviceGetNvLinkState";
static const char FN_NVLINK_REMOTE_PCI[] = "nvmlDeviceGetNvLinkRemotePciInfo_v2";
static const char FN_NVLINK_REMOTE_TYPE[] = "nvmlDeviceGetNvLinkRemoteDeviceType";
static const char FN_EVENT_CREATE[] = "nvmlEventSetCreate";
static const char FN_SUPPORTED_EVENTS[] = "nvmlDeviceGetSupportedEventTypes";
static const char FN_REGISTER[] = "nvmlDeviceRegisterEvents";
static const char FN_WAIT_V2[] = "nvmlEventSetWait_v2";
static const char FN_WAIT[] = "nvmlEventSetWait";
static const char FN_EVENT_FREE[] = "nvmlEventSetFree";

static vg_status status(int code, const char *function)
{
    vg_status s = {code, function};
    return s;
}

static vg_status missing(const char *function)
{
    return status(VG_NVML_ERROR_FUNCTION_NOT_FOUND, function);
}

/* dlsym returns an object pointer; copying it into a function pointer is what POSIX prescribes */
#define RESOLVE(nv, field, name) \
    do { void *sym_ = dlsym((nv)->lib, (name)); memcpy(&(nv)->field, &sym_, sizeof sym_); } while (0)

static void copy_detail(char *detail, size_t len, const char *text)
{
    if (detail != NULL && len > 0) {
        snprintf(detail, len, "%s", text != NULL ? text : "");
    }
}

vg_status vg_nvml_open(const char *library, vg_nvml **out, char *detail, size_t detail_len)
{
    *out = NULL;
    copy_detail(detail, detail_len, "");
    if (library == NULL || library[0] == '\0') {
        library = VG_NVML_DEFAULT_LIBRARY;
    }
    dlerror();
    void *lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        copy_detail(detail, detail_len, dlerror());
        return status(VG_NVML_ERROR_LIBRARY_NOT_FOUND, "dlopen");
    }
    vg_nvml *nv = calloc(1, sizeof *nv);
    if (nv == NULL) {
        dlclose(lib);
        return status(VG_NVML_ERROR_MEMORY, "calloc");
    }
    nv->lib = lib;
    RESOLVE(nv, init, FN_INIT);
    RESOLVE(nv, shutdown, FN_SHUTDOWN);
    RESOLVE(nv, device_count, FN_COUNT);
    RESOLVE(nv, device_handle, FN_HANDLE);
    RESOLVE(nv, device_uuid, FN_UUID);
    RESOLVE(nv, device_name, FN_NAME);
    RESOLVE(nv, device_memory, FN_MEMORY);
    RESOLVE(nv, device_utilization, FN_UTILIZATION);
    RESOLVE(nv, device_pci_info, FN_PCI);
    RESOLVE(nv, device_mig_mode, FN_MIG);
    RESOLVE(nv, device_minor_number, FN_MINOR);
    RESOLVE(nv, device_architecture, FN_ARCHITECTURE);
    RESOLVE(nv, device_brand, FN_BRAND);
    RESOLVE(nv, device_compute_capability, FN_COMPUTE_CAPABILITY);
    RESOLVE(nv, driver_version, FN_DRIVER_VERSION);
    RESOLVE(nv, cuda_driver_version_v2, FN_CUDA_DRIVER_VERSION);
    RESOLVE(nv, gi_profile_info, FN_GI_PROFILE);
    RESOLVE(nv, gi_placements_v2, FN_GI_PLACEMENTS);
    RESOLVE(nv, set_mig_mode, FN_SET_MIG);
    RESOLVE(nv, gi_create, FN_GI_CREATE);
    RESOLVE(nv, gi_by_id, FN_GI_BY_ID);
    RESOLVE(nv, gi_info, FN_GI_INFO);
    RESOLVE(nv, gi_list, FN_GI_LIST);
    RESOLVE(nv, gi_destroy, FN_GI_DESTROY);
    RESOLVE(nv, ci_profile_info, FN_CI_PROFILE);
    RESOLVE(nv, ci_create, FN_CI_CREATE);
    RESOLVE(nv, ci_by_id, FN_CI_BY_ID);
    RESOLVE(nv, ci_info_v2, FN_CI_INFO_V2);
    RESOLVE(nv, ci_info, FN_CI_INFO);
    RESOLVE(nv, ci_list, FN_CI_LIST);
    RESOLVE(nv, ci_destroy, FN_CI_DESTROY);
    RESOLVE(nv, max_mig_devices, FN_MAX_MIG);
    RESOLVE(nv, mig_device_by_index, FN_MIG_BY_INDEX);
    RESOLVE(nv, mig_gi_id, FN_MIG_GI_ID);
    RESOLVE(nv, mig_ci_id, FN_MIG_CI_ID);
    RESOLVE(nv, compute_processes_v3, FN_COMPUTE_PROCS);
    RESOLVE(nv, graphics_processes_v3, FN_GRAPHICS_PROCS);
    RESOLVE(nv, common_ancestor, FN_COMMON_ANCESTOR);
    RESOLVE(nv, nvlink_state, FN_NVLINK_STATE);
    RESOLVE(nv, nvlink_remote_pci_v2, FN_NVLINK_REMOTE_PCI);
    RESOLVE(nv, nvlink_remote_type, FN_NVLINK_REMOTE_TYPE);
    RESOLVE(nv, event_set_create, FN_EVENT_CREATE);
    RESOLVE(nv, supported_event_types, FN_SUPPORTED_EVENTS);
    RESOLVE(nv, register_events, FN_REGISTER);
    RESOLVE(nv, event_set_wait_v2, FN_WAIT_V2);
    RESOLVE(nv, event_set_wait, FN_WAIT);
    RESOLVE(nv, event_set_free, FN_EVENT_FREE);

    if (nv->init == NULL || nv->shutdown == NULL) {
        const char *absent = nv->init == NULL ? FN_INIT : FN_SHUTDOWN;
        char text[PATH_MAX + 64];
        snprintf(text, sizeof text, "%s has no symbol %s: not an NVML library", library, absent);
        copy_detail(detail, detail_len, text);
        dlclose(lib);
        free(nv);
        return missing(absent);
    }
    int rc = nv->init();
    if (rc != VG_NVML_SUCCESS) {
        dlclose(lib);
        free(nv);
        return status(rc, FN_INIT);
    }
    *out = nv;
    return status(VG_NVML_SUCCESS, FN_INIT);
}

vg_status vg_nvml_close(vg_nvml *nv)
{
    if (nv == NULL) {
        return status(VG_NVML_SUCCESS, FN_SHUTDOWN);
    }
    int rc = nv->shutdown();
    dlclose(nv->lib);
    free(nv);
    return status(rc, FN_SHUTDOWN);
}

vg_status vg_nvml_device_count(vg_nvml *nv, unsigned int *count)
{
    *count = 0;
    if (nv->device_count == NULL) {
        return missing(FN_COUNT);
    }
    return status(nv->device_count(count), FN_COUNT);
}

/* the handle of GPU index for a call of the NVML function name: FUNCTION_NOT_FOUND for name when
 * the loaded NVML lacks it (present == 0), else the status of the handle lookup */
static vg_status device_for(vg_nvml *nv, unsigned int index, int present, const char *name, nvml_device_t *device)
{
    *device = NULL;
    if (!present) {
        return missing(name);
    }
    if (nv->device_handle == NULL) {
        return missing(FN_HANDLE);
    }
    return status(nv->device_handle(index, device), FN_HANDLE);
}

/* NVML writes at most len bytes including the NUL; force termination anyway */
static vg_status device_string(vg_nvml *nv, unsigned int index, char *buf, size_t len,
                               int (*fn)(nvml_device_t, char *, unsigned int), const char *name)
{
    if (len == 0) {
        return status(VG_NVML_ERROR_INVALID_ARGUMENT, name);
    }
    buf[0] = '\0';
    nvml_device_t device;
    vg_status s = device_for(nv, index, fn != NULL, name, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    int rc = fn(device, buf, (unsigned int) (len > UINT_MAX ? UINT_MAX : len));
    buf[len - 1] = '\0';
    if (rc != VG_NVML_SUCCESS) {
        buf[0] = '\0';
    }
    return status(rc, name);
}

vg_status vg_nvml_device_uuid(vg_nvml *nv, unsigned int index, char *buf, size_t len)
{
    return device_string(nv, index, buf, len, nv->device_uuid, FN_UUID);
}

vg_status vg_nvml_device_name(vg_nvml *nv, unsigned int index, char *buf, size_t len)
{
    return device_string(nv, index, buf, len, nv->device_name, FN_NAME);
}

vg_status vg_nvml_device_pci_bus_id(vg_nvml *nv, unsigned int index, char *buf, size_t len)
{
    if (len == 0) {
        return status(VG_NVML_ERROR_INVALID_ARGUMENT, FN_PCI);
    }
    buf[0] = '\0';
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->device_pci_info != NULL, FN_PCI, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    nvml_pci_info_t info;
    memset(&info, 0, sizeof info);
    int rc = nv->device_pci_info(device, &info);
    if (rc == VG_NVML_SUCCESS) {
        info.bus_id[sizeof info.bus_id - 1] = '\0';
        snprintf(buf, len, "%s", info.bus_id);
    }
    return status(rc, FN_PCI);
}

vg_status vg_nvml_device_memory(vg_nvml *nv, unsigned int index, vg_memory *out)
{
    memset(out, 0, sizeof *out);
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->device_memory != NULL, FN_MEMORY, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    nvml_memory_t memory;
    memset(&memory, 0, sizeof memory);
    int rc = nv->device_memory(device, &memory);
    if (rc == VG_NVML_SUCCESS) {
        out->total = memory.total;
        out->free = memory.free;
        out->used = memory.used;
    }
    return status(rc, FN_MEMORY);
}

vg_status vg_nvml_device_utilization(vg_nvml *nv, unsigned int index, unsigned int *gpu_percent,
                                     unsigned int *memory_percent)
{
    *gpu_percent = 0;
    *memory_percent = 0;
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->device_utilization != NULL, FN_UTILIZATION, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    nvml_utilization_t rates = {0, 0};
    int rc = nv->device_utilization(device, &rates);
    if (rc == VG_NVML_SUCCESS) {
        *gpu_percent = rates.gpu;
        *memory_percent = rates.memory;
    }
    return status(rc, FN_UTILIZATION);
}

vg_status vg_nvml_device_mig_mode(vg_nvml *nv, unsigned int index, unsigned int *current,
                                  unsigned int *pending)
{
    *current = 0;
    *pending = 0;
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->device_mig_mode != NULL, FN_MIG, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    return status(nv->device_mig_mode(device, current, pending), FN_MIG);
}

static vg_status device_uint(vg_nvml *nv, unsigned int index, unsigned int *out,
                             int (*fn)(nvml_device_t, unsigned int *), const char *name)
{
    *out = 0;
    nvml_device_t device;
    vg_status s = device_for(nv, index, fn != NULL, name, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    unsigned int value = 0;
    int rc = fn(device, &value);
    if (rc == VG_NVML_SUCCESS) {
        *out = value;
    }
    return status(rc, name);
}

vg_status vg_nvml_device_minor_number(vg_nvml *nv, unsigned int index, unsigned int *minor)
{
    return device_uint(nv, index, minor, nv->device_minor_number, FN_MINOR);
}

vg_status vg_nvml_device_architecture(vg_nvml *nv, unsigned int index, unsigned int *architecture)
{
    return device_uint(nv, index, architecture, nv->device_architecture, FN_ARCHITECTURE);
}

vg_status vg_nvml_device_brand(vg_nvml *nv, unsigned int index, unsigned int *brand)
{
    return device_uint(nv, index, brand, nv->device_brand, FN_BRAND);
}

vg_status vg_nvml_device_cuda_compute_capability(vg_nvml *nv, unsigned int index, int *major, int *minor)
{
    *major = 0;
    *minor = 0;
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->device_compute_capability != NULL, FN_COMPUTE_CAPABILITY, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    int cc_major = 0, cc_minor = 0;
    int rc = nv->device_compute_capability(device, &cc_major, &cc_minor);
    if (rc == VG_NVML_SUCCESS) {
        *major = cc_major;
        *minor = cc_minor;
    }
    return status(rc, FN_COMPUTE_CAPABILITY);
}

vg_status vg_nvml_system_driver_version(vg_nvml *nv, char *buf, size_t len)
{
    if (len == 0) {
        return status(VG_NVML_ERROR_INVALID_ARGUMENT, FN_DRIVER_VERSION);
    }
    buf[0] = '\0';
    if (nv->driver_version == NULL) {
        return missing(FN_DRIVER_VERSION);
    }
    int rc = nv->driver_version(buf, (unsigned int) (len > UINT_MAX ? UINT_MAX : len));
    buf[len - 1] = '\0';
    if (rc != VG_NVML_SUCCESS) {
        buf[0] = '\0';
    }
    return status(rc, FN_DRIVER_VERSION);
}

vg_status vg_nvml_system_cuda_driver_version(vg_nvml *nv, int *version)
{
    *version = 0;
    if (nv->cuda_driver_version_v2 == NULL) {
        return missing(FN_CUDA_DRIVER_VERSION);
    }
    int value = 0;
    int rc = nv->cuda_driver_version_v2(&value);
    if (rc == VG_NVML_SUCCESS) {
        *version = value;
    }
    return status(rc, FN_CUDA_DRIVER_VERSION);
}

/* ---- topology ---- */

vg_status vg_nvml_topology_common_ancestor(vg_nvml *nv, unsigned int index1, unsigned int index2, unsigned int *level)
{
    *level = 0;
    nvml_device_t d1, d2;
    vg_status s = device_for(nv, index1, nv->common_ancestor != NULL, FN_COMMON_ANCESTOR, &d1);
    if (s.code == VG_NVML_SUCCESS) {
        s = device_for(nv, index2, 1, FN_COMMON_ANCESTOR, &d2);
    }
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    int value = 0;
    int rc = nv->common_ancestor(d1, d2, &value);
    if (rc == VG_NVML_SUCCESS) {
        *level = (unsigned int) value;
    }
    return status(rc, FN_COMMON_ANCESTOR);
}

vg_status vg_nvml_nvlink_state(vg_nvml *nv, unsigned int index, unsigned int link, unsigned int *active)
{
    *active = 0;
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->nvlink_state != NULL, FN_NVLINK_STATE, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    int value = 0;
    int rc = nv->nvlink_state(device, link, &value);
    if (rc == VG_NVML_SUCCESS) {
        *active = value != 0;
    }
    return status(rc, FN_NVLINK_STATE);
}

vg_status vg_nvml_nvlink_remote_bus_id(vg_nvml *nv, unsigned int index, unsigned int link, char *buf, size_t len)
{
    if (len == 0) {
        return status(VG_NVML_ERROR_INVALID_ARGUMENT, FN_NVLINK_REMOTE_PCI);
    }
    buf[0] = '\0';
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->nvlink_remote_pci_v2 != NULL, FN_NVLINK_REMOTE_PCI, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    nvml_pci_info_t info;
    memset(&info, 0, sizeof info);
    int rc = nv->nvlink_remote_pci_v2(device, link, &info);
    if (rc == VG_NVML_SUCCESS) {
        info.bus_id[sizeof info.bus_id - 1] = '\0';
        snprintf(buf, len, "%s", info.bus_id);
    }
    return status(rc, FN_NVLINK_REMOTE_PCI);
}

vg_status vg_nvml_nvlink_remote_type(vg_nvml *nv, unsigned int index, unsigned int link, unsigned int *type)
{
    *type = 0;
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->nvlink_remote_type != NULL, FN_NVLINK_REMOTE_TYPE, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    int value = 0;
    int rc = nv->nvlink_remote_type(device, link, &value);
    if (rc == VG_NVML_SUCCESS) {
        *type = (unsigned int) value;
    }
    return status(rc, FN_NVLINK_REMOTE_TYPE);
}

/* ---- MIG ---- */

vg_status vg_nvml_gi_profile(vg_nvml *nv, unsigned int index, unsigned int profile, vg_gi_profile *out)
{
    memset(out, 0, sizeof *out);
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->gi_profile_info != NULL, FN_GI_PROFILE, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    nvml_gi_profile_info_t info;
    memset(&info, 0, sizeof info);
    int rc = nv->gi_profile_info(device, profile, &info);
    if (rc == VG_NVML_SUCCESS) {
        out->id = info.id;
        out->slice_count = info.slice_count;
        out->instance_count = info.instance_count;
        out->multiprocessor_count = info.multiprocessor_count;
        out->memory_mib = info.memory_size_mb;
    }
    return status(rc, FN_GI_PROFILE);
}

vg_status vg_nvml_gi_placements(vg_nvml *nv, unsigned int index, unsigned int profile_id, vg_placement *out,
                                unsigned int capacity, unsigned int *count)
{
    *count = 0;
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->gi_placements_v2 != NULL, FN_GI_PLACEMENTS, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    nvml_placement_t placements[MAX_INSTANCES];
    unsigned int n = MAX_INSTANCES;
    int rc = nv->gi_placements_v2(device, profile_id, placements, &n);
    if (rc != VG_NVML_SUCCESS) {
        return status(rc, FN_GI_PLACEMENTS);
    }
    *count = n;
    if (n > capacity) {
        return status(VG_NVML_ERROR_INSUFFICIENT_SIZE, FN_GI_PLACEMENTS);
    }
    for (unsigned int i = 0; i < n; i++) {
        out[i].start = placements[i].start;
        out[i].size = placements[i].size;
    }
    return status(rc, FN_GI_PLACEMENTS);
}

vg_status vg_nvml_set_mig_mode(vg_nvml *nv, unsigned int index, unsigned int enabled)
{
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->set_mig_mode != NULL, FN_SET_MIG, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    int activation = VG_NVML_SUCCESS;
    int rc = nv->set_mig_mode(device, enabled ? 1u : 0u, &activation);
    return status(rc != VG_NVML_SUCCESS ? rc : activation, FN_SET_MIG);
}

vg_status vg_nvml_gi_create(vg_nvml *nv, unsigned int index, unsigned int profile_id, vg_placement placement,
                            unsigned int *gi_id)
{
    *gi_id = 0;
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->gi_create != NULL && nv->gi_info != NULL, FN_GI_CREATE, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    nvml_placement_t where = {placement.start, placement.size};
    nvml_gi_t gi = NULL;
    int rc = nv->gi_create(device, profile_id, &where, &gi);
    if (rc != VG_NVML_SUCCESS) {
        return status(rc, FN_GI_CREATE);
    }
    nvml_gi_info_t info;
    memset(&info, 0, sizeof info);
    rc = nv->gi_info(gi, &info);
    if (rc != VG_NVML_SUCCESS) {
        /* an instance whose id cannot be read cannot be named later: undo it here */
        if (nv->gi_destroy != NULL) {
            nv->gi_destroy(gi);
        }
        return status(rc, FN_GI_INFO);
    }
    *gi_id = info.id;
    return status(VG_NVML_SUCCESS, FN_GI_CREATE);
}

/* the GPU instance gi_id of GPU index */
static vg_status gi_for(vg_nvml *nv, unsigned int index, unsigned int gi_id, int present, const char *name, nvml_gi_t *gi)
{
    *gi = NULL;
    nvml_device_t device;
    vg_status s = device_for(nv, index, present && nv->gi_by_id != NULL, name, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    return status(nv->gi_by_id(device, gi_id, gi), FN_GI_BY_ID);
}

/* NVML's id of compute-instance profile constant ci_profile inside gi */
static vg_status ci_profile_id(vg_nvml *nv, nvml_gi_t gi, unsigned int ci_profile, unsigned int *id)
{
    *id = 0;
    if (nv->ci_profile_info == NULL) {
        return missing(FN_CI_PROFILE);
    }
    nvml_ci_profile_info_t info;
    memset(&info, 0, sizeof info);
    int rc = nv->ci_profile_info(gi, ci_profile, CI_ENGINE_SHARED, &info);
    if (rc == VG_NVML_SUCCESS) {
        *id = info.id;
    }
    return status(rc, FN_CI_PROFILE);
}

static vg_status ci_id_of(vg_nvml *nv, nvml_ci_t ci, unsigned int *id)
{
    nvml_ci_info_t info;
    memset(&info, 0, sizeof info);
    int rc;
    const char *name;
    if (nv->ci_info_v2 != NULL) {
        name = FN_CI_INFO_V2;
        rc = nv->ci_info_v2(ci, &info);
    } else if (nv->ci_info != NULL) {
        name = FN_CI_INFO;
        rc = nv->ci_info(ci, &info);
    } else {
        return missing(FN_CI_INFO_V2);
    }
    *id = info.id;
    return status(rc, name);
}

vg_status vg_nvml_ci_create(vg_nvml *nv, unsigned int index, unsigned int gi_id, unsigned int ci_profile,
                            unsigned int *ci_id)
{
    *ci_id = 0;
    nvml_gi_t gi;
    vg_status s = gi_for(nv, index, gi_id, nv->ci_create != NULL, FN_CI_CREATE, &gi);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    unsigned int profile_id;
    s = ci_profile_id(nv, gi, ci_profile, &profile_id);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    nvml_ci_t ci = NULL;
    int rc = nv->ci_create(gi, profile_id, &ci);
    if (rc != VG_NVML_SUCCESS) {
        return status(rc, FN_CI_CREATE);
    }
    s = ci_id_of(nv, ci, ci_id);
    if (s.code != VG_NVML_SUCCESS && nv->ci_destroy != NULL) {
        nv->ci_destroy(ci);
    }
    return s.code != VG_NVML_SUCCESS ? s : status(VG_NVML_SUCCESS, FN_CI_CREATE);
}

vg_status vg_nvml_ci_destroy(vg_nvml *nv, unsigned int index, unsigned int gi_id, unsigned int ci_id)
{
    nvml_gi_t gi;
    vg_status s = gi_for(nv, index, gi_id, nv->ci_destroy != NULL && nv->ci_by_id != NULL, FN_CI_DESTROY, &gi);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    nvml_ci_t ci = NULL;
    int rc = nv->ci_by_id(gi, ci_id, &ci);
    if (rc != VG_NVML_SUCCESS) {
        return status(rc, FN_CI_BY_ID);
    }
    return status(nv->ci_destroy(ci), FN_CI_DESTROY);
}

vg_status vg_nvml_gi_destroy(vg_nvml *nv, unsigned int index, unsigned int gi_id)
{
    nvml_gi_t gi;
    vg_status s = gi_for(nv, index, gi_id, nv->gi_destroy != NULL, FN_GI_DESTROY, &gi);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    return status(nv->gi_destroy(gi), FN_GI_DESTROY);
}

vg_status vg_nvml_gi_list(vg_nvml *nv, unsigned int index, unsigned int profile_id, vg_gi *out,
                          unsigned int capacity, unsigned int *count)
{
    *count = 0;
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->gi_list != NULL && nv->gi_info != NULL, FN_GI_LIST, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    nvml_gi_t gis[MAX_INSTANCES];
    unsigned int n = MAX_INSTANCES;
    int rc = nv->gi_list(device, profile_id, gis, &n);
    if (rc != VG_NVML_SUCCESS) {
        return status(rc, FN_GI_LIST);
    }
    *count = n;
    if (n > capacity) {
        return status(VG_NVML_ERROR_INSUFFICIENT_SIZE, FN_GI_LIST);
    }
    for (unsigned int i = 0; i < n; i++) {
        nvml_gi_info_t info;
        memset(&info, 0, sizeof info);
        rc = nv->gi_info(gis[i], &info);
        if (rc != VG_NVML_SUCCESS) {
            *count = 0;
            return status(rc, FN_GI_INFO);
        }
        out[i].id = info.id;
        out[i].profile_id = info.profile_id;
        out[i].placement.start = info.placement.start;
        out[i].placement.size = info.placement.size;
    }
    return status(VG_NVML_SUCCESS, FN_GI_LIST);
}

vg_status vg_nvml_ci_list(vg_nvml *nv, unsigned int index, unsigned int gi_id, unsigned int ci_profile,
                          unsigned int *ids, unsigned int capacity, unsigned int *count)
{
    *count = 0;
    nvml_gi_t gi;
    vg_status s = gi_for(nv, index, gi_id, nv->ci_list != NULL, FN_CI_LIST, &gi);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    unsigned int profile_id;
    s = ci_profile_id(nv, gi, ci_profile, &profile_id);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    nvml_ci_t cis[MAX_INSTANCES];
    unsigned int n = MAX_INSTANCES;
    int rc = nv->ci_list(gi, profile_id, cis, &n);
    if (rc != VG_NVML_SUCCESS) {
        return status(rc, FN_CI_LIST);
    }
    if (n > capacity) {
        *count = n;
        return status(VG_NVML_ERROR_INSUFFICIENT_SIZE, FN_CI_LIST);
    }
    for (unsigned int i = 0; i < n; i++) {
        s = ci_id_of(nv, cis[i], &ids[i]);
        if (s.code != VG_NVML_SUCCESS) {
            return s;
        }
    }
    *count = n;
    return status(VG_NVML_SUCCESS, FN_CI_LIST);
}

vg_status vg_nvml_mig_device_count(vg_nvml *nv, unsigned int index, unsigned int *count)
{
    *count = 0;
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->max_mig_devices != NULL, FN_MAX_MIG, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    return status(nv->max_mig_devices(device, count), FN_MAX_MIG);
}

/* the MIG device handle in slot mig_index of GPU index */
static vg_status mig_for(vg_nvml *nv, unsigned int index, unsigned int mig_index, nvml_device_t *mig)
{
    *mig = NULL;
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->mig_device_by_index != NULL, FN_MIG_BY_INDEX, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    return status(nv->mig_device_by_index(device, mig_index, mig), FN_MIG_BY_INDEX);
}

vg_status vg_nvml_mig_device(vg_nvml *nv, unsigned int index, unsigned int mig_index, vg_mig_device *out)
{
    memset(out, 0, sizeof *out);
    nvml_device_t mig;
    vg_status s = mig_for(nv, index, mig_index, &mig);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    if (nv->mig_gi_id == NULL || nv->mig_ci_id == NULL || nv->device_uuid == NULL) {
        return missing(nv->mig_gi_id == NULL ? FN_MIG_GI_ID : nv->mig_ci_id == NULL ? FN_MIG_CI_ID : FN_UUID);
    }
    int rc = nv->mig_gi_id(mig, &out->gpu_instance_id);
    if (rc != VG_NVML_SUCCESS) {
        return status(rc, FN_MIG_GI_ID);
    }
    rc = nv->mig_ci_id(mig, &out->compute_instance_id);
    if (rc != VG_NVML_SUCCESS) {
        return status(rc, FN_MIG_CI_ID);
    }
    rc = nv->device_uuid(mig, out->uuid, sizeof out->uuid);
    out->uuid[sizeof out->uuid - 1] = '\0';
    if (rc != VG_NVML_SUCCESS) {
        out->uuid[0] = '\0';
    }
    return status(rc, FN_UUID);
}

/* processes of one kind on a device handle: a zero-sized query answers SUCCESS (none) or
 * INSUFFICIENT_SIZE with the number present */
static vg_status processes_of(nvml_device_t device, int (*fn)(nvml_device_t, unsigned int *, void *),
                              const char *name, unsigned int *count)
{
    unsigned int n = 0;
    int rc = fn(device, &n, NULL);
    if (rc == VG_NVML_ERROR_INSUFFICIENT_SIZE) {
        *count += n;
        return status(VG_NVML_SUCCESS, name);
    }
    return status(rc, name);
}

vg_status vg_nvml_process_count(vg_nvml *nv, unsigned int index, int mig_index, unsigned int *count)
{
    *count = 0;
    nvml_device_t device;
    vg_status s;
    int present = nv->compute_processes_v3 != NULL && nv->graphics_processes_v3 != NULL;
    if (!present) {
        return missing(nv->compute_processes_v3 == NULL ? FN_COMPUTE_PROCS : FN_GRAPHICS_PROCS);
    }
    if (mig_index < 0) {
        s = device_for(nv, index, 1, FN_COMPUTE_PROCS, &device);
    } else {
        s = mig_for(nv, index, (unsigned int) mig_index, &device);
    }
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    s = processes_of(device, nv->compute_processes_v3, FN_COMPUTE_PROCS, count);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    return processes_of(device, nv->graphics_processes_v3, FN_GRAPHICS_PROCS, count);
}

vg_status vg_nvml_event_set_create(vg_nvml *nv, vg_nvml_event_set **out)
{
    *out = NULL;
    if (nv->event_set_create == NULL) {
        return missing(FN_EVENT_CREATE);
    }
    vg_nvml_event_set *set = calloc(1, sizeof *set);
    if (set == NULL) {
        return status(VG_NVML_ERROR_MEMORY, "calloc");
    }
    int rc = nv->event_set_create(&set->set);
    if (rc != VG_NVML_SUCCESS) {
        free(set);
        return status(rc, FN_EVENT_CREATE);
    }
    *out = set;
    return status(rc, FN_EVENT_CREATE);
}

vg_status vg_nvml_event_register_xid(vg_nvml *nv, vg_nvml_event_set *set, unsigned int index)
{
    if (set == NULL) {
        return status(VG_NVML_ERROR_INVALID_ARGUMENT, FN_REGISTER);
    }
    nvml_device_t device;
    vg_status s = device_for(nv, index, nv->register_events != NULL, FN_REGISTER, &device);
    if (s.code != VG_NVML_SUCCESS) {
        return s;
    }
    if (nv->supported_event_types != NULL) {
        unsigned long long supported = 0;
        int rc = nv->supported_event_types(device, &supported);
        if (rc != VG_NVML_SUCCESS) {
            return status(rc, FN_SUPPORTED_EVENTS);
        }
        if ((supported & VG_NVML_EVENT_XID_CRITICAL) == 0) {
            return status(VG_NVML_ERROR_NOT_SUPPORTED, FN_SUPPORTED_EVENTS);
        }
    }
    return status(nv->register_events(device, VG_NVML_EVENT_XID_CRITICAL, set->set), FN_REGISTER);
}

vg_status vg_nvml_event_wait(vg_nvml *nv, vg_nvml_event_set *set, unsigned int timeout_ms,
                             vg_xid_event *out)
{
    memset(out, 0, sizeof *out);
    out->gpu_instance_id = VG_NVML_NO_INSTANCE;
    out->compute_instance_id = VG_NVML_NO_INSTANCE;
    if (set == NULL) {
        return status(VG_NVML_ERROR_INVALID_ARGUMENT, FN_WAIT_V2);
    }
    nvml_event_data_t data;
    memset(&data, 0, sizeof data);
    /* the v1 wait does not write the instance ids: preset them to "whole GPU" */
    data.gpu_instance_id = VG_NVML_NO_INSTANCE;
    data.compute_instance_id = VG_NVML_NO_INSTANCE;
    const char *name;
    int rc;
    if (nv->event_set_wait_v2 != NULL) {
        name = FN_WAIT_V2;
        rc = nv->event_set_wait_v2(set->set, &data, timeout_ms);
    } else if (nv->event_set_wait != NULL) {
        name = FN_WAIT;
        rc = nv->event_set_wait(set->set, &data, timeout_ms);
    } else {
        return missing(FN_WAIT_V2);
    }
    if (rc != VG_NVML_SUCCESS) {
        return status(rc, name);
    }
    out->event_type = data.event_type;
    out->event_data = data.event_data;
    out->gpu_instance_id = data.gpu_instance_id;
    out->compute_instance_id = data.compute_instance_id;
    /* an unreadable UUID stays "": the caller cannot attribute the event to a device */
    if (data.device != NULL && nv->device_uuid != NULL) {
        if (nv->device_uuid(data.device, out->uuid, sizeof out->uuid) != VG_NVML_SUCCESS) {
            out->uuid[0] = '\0';
        }
        out->uuid[sizeof out->uuid - 1] = '\0';
    }
    return status(rc, name);
}

vg_status vg_nvml_event_set_free(vg_nvml *nv, vg_nvml_event_set *set)
{
    if (set == NULL) {
        return status(VG_NVML_SUCCESS, FN_EVENT_FREE);
    }
    int rc = nv->event_set_free != NULL ? nv->event_set_free(set->set) : VG_NVML_ERROR_FUNCTION_NOT_FOUND;
    free(set);
    return status(rc, FN_EVENT_FREE);
}

void vg_pci_sysfs_name(const char *bus_id, char *out, size_t len)
{
    unsigned int domain, bus, device, function;
    char tail;
    if (len == 0) {
        return;
    }
    /* NVML: "00000000:3B:00.0" (8-digit domain, upper case); sysfs: "0000:3b:00.0" */
    if (sscanf(bus_id, "%x:%x:%x.%x%c", &domain, &bus, &device, &function, &tail) == 4) {
        snprintf(out, len, "%04x:%02x:%02x.%x", domain, bus, device, function);
        return;
    }
    size_t i = 0;
    for (; bus_id[i] != '\0' && i + 1 < len; i++) {
        out[i] = (char) tolower((unsigned char) bus_id[i]);
    }
    out[i] = '\0';
}

int vg_numa_node(const char *sysfs_root, const char *bus_id)
{
    char name[64];
    char path[PATH_MAX];
    if (bus_id == NULL || bus_id[0] == '\0') {
        return 0;
    }
    vg_pci_sysfs_name(bus_id, name, sizeof name);
    if (strchr(name, '/') != NULL) {
        return 0;
    }
    if (sysfs_root == NULL || sysfs_root[0] == '\0') {
        sysfs_root = "/sys";
    }
    int n = snprintf(path, sizeof path, "%s/bus/pci/devices/%s/numa_node", sysfs_root, name);
    if (n < 0 || (size_t) n >= sizeof path) {
        return 0;
    }
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return 0;
    }
    int node = 0;
    if (fscanf(f, "%d", &node) != 1) {
        node = 0;
    }
    fclose(f);
    /* the kernel writes -1 when the platform has no NUMA information */
    return node < 0 ? 0 : node;
}

const char *vg_nvml_architecture_name(unsigned int architecture)
{
    /* nvmlDeviceArchitecture_t values (nvml.h NVML_DEVICE_ARCH_*), named as NVIDIA's go-nvlib names them
       (GetArchitectureAsString): the DRA attribute "architecture" must match what gpu.nvidia.com
       publishes, since users copy CEL selectors from NVIDIA's documentation */
    switch (architecture) {
    case 2: return "Kepler";
    case 3: return "Maxwell";
    case 4: return "Pascal";
    case 5: return "Volta";
    case 6: return "Turing";
    case 7: return "Ampere";
    case 8: return "Ada Lovelace";
    case 9: return "Hopper";
    case 10: return "Blackwell";
    case 11: return "Orin"; /* NVML_DEVICE_ARCH_T23X */
    default: return "Unknown";
    }
}

const char *vg_nvml_brand_name(unsigned int brand)
{
    /* nvmlBrandType_t values (nvml.h NVML_BRAND_*); 11 is also the deprecated NVML_BRAND_NVIDIA_VGAMING */
    switch (brand) {
    case 1: return "Quadro";
    case 2: return "Tesla";
    case 3: return "NVS";
    case 4: return "Grid";
    case 5: return "GeForce";
    case 6: return "Titan";
    case 7: return "NvidiaVApps";
    case 8: return "NvidiaVPC";
    case 9: return "NvidiaVCS";
    case 10: return "NvidiaVWS";
    case 11: return "NvidiaCloudGaming";
    case 12: return "QuadroRTX";
    case 13: return "NvidiaRTX";
    case 14: return "Nvidia";
    case 15: return "GeForceRTX";
    case 16: return "TitanRTX";
    default: return "Unknown";
    }
}

const char *vg_nvml_code_name(int code)
{
    switch (code) {
    case 0: return "NVML_SUCCESS";
    case 1: return "NVML_ERROR_UNINITIALIZED";
    case 2: return "NVML_ERROR_INVALID_ARGUMENT";
    case 3: return "NVML_ERROR_NOT_SUPPORTED";
    case 4: return "NVML_ERROR_NO_PERMISSION";
    case 5: return "NVML_ERROR_ALREADY_INITIALIZED";
    case 6: return "NVML_ERROR_NOT_FOUND";
    case 7: return "NVML_ERROR_INSUFFICIENT_SIZE";
    case 8: return "NVML_ERROR_INSUFFICIENT_POWER";
    case 9: return "NVML_ERROR_DRIVER_NOT_LOADED";
    case 10: return "NVML_ERROR_TIMEOUT";
    case 11: return "NVML_ERROR_IRQ_ISSUE";
    case 12: return "NVML_ERROR_LIBRARY_NOT_FOUND";
    case 13: return "NVML_ERROR_FUNCTION_NOT_FOUND";
    case 14: return "NVML_ERROR_CORRUPTED_INFOROM";
    case 15: return "NVML_ERROR_GPU_IS_LOST";
    case 16: return "NVML_ERROR_RESET_REQUIRED";
    case 17: return "NVML_ERROR_OPERATING_SYSTEM";
    case 18: return "NVML_ERROR_LIB_RM_VERSION_MISMATCH";
    case 19: return "NVML_ERROR_IN_USE";
    case 20: return "NVML_ERROR_MEMORY";
    case 21: return "NVML_ERROR_NO_DATA";
    case 22: return "NVML_ERROR_VGPU_ECC_NOT_SUPPORTED";
    case 23: return "NVML_ERROR_INSUFFICIENT_RESOURCES";
    case 24: return "NVML_ERROR_FREQ_NOT_SUPPORTED";
    case 25: return "NVML_ERROR_ARGUMENT_VERSION_MISMATCH";
    case 26: return "NVML_ERROR_DEPRECATED";
    case 27: return "NVML_ERROR_NOT_READY";
    case 28: return "NVML_ERROR_GPU_NOT_FOUND";
    case 29: return "NVML_ERROR_INVALID_STATE";
    case 999: return "NVML_ERROR_UNKNOWN";
    default: return "NVML_ERROR_UNKNOWN_CODE";
    }
}
