/*
 * NVML through dlopen: the library is never linked, so the same binary runs (and fails cleanly)
 * on machines without a driver. Independent of jni.h: the JNI glue and gpu-check both use it.
 *
 * Every call returns a vg_status: the NVML return code (0 = success) and the name of the NVML
 * function (or "dlopen") that produced it. Codes are NVML's own nvmlReturn_t values; the two
 * this layer makes up itself are LIBRARY_NOT_FOUND (dlopen failed) and FUNCTION_NOT_FOUND (the
 * loaded library lacks the symbol).
 *
 * Threading: NVML is thread-safe; a vg_nvml may be used from several threads, but the caller
 * must not call vg_nvml_close (or free an event set) while another call on it is in flight.
 * Every call blocks; vg_nvml_event_wait blocks up to its timeout.
 */
#ifndef VGPU_NVML_H
#define VGPU_NVML_H

#include <stddef.h>

#define VG_NVML_DEFAULT_LIBRARY "libnvidia-ml.so.1"

#define VG_NVML_SUCCESS 0
#define VG_NVML_ERROR_UNINITIALIZED 1
#define VG_NVML_ERROR_INVALID_ARGUMENT 2
#define VG_NVML_ERROR_NOT_SUPPORTED 3
#define VG_NVML_ERROR_NOT_FOUND 6
#define VG_NVML_ERROR_INSUFFICIENT_SIZE 7
#define VG_NVML_ERROR_TIMEOUT 10
#define VG_NVML_ERROR_LIBRARY_NOT_FOUND 12
#define VG_NVML_ERROR_FUNCTION_NOT_FOUND 13
#define VG_NVML_ERROR_MEMORY 20
#define VG_NVML_ERROR_UNKNOWN 999

/* NVML_DEVICE_UUID_V2_BUFFER_SIZE, NVML_DEVICE_NAME_V2_BUFFER_SIZE, NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE */
#define VG_NVML_UUID_LEN 96
#define VG_NVML_NAME_LEN 96
#define VG_NVML_BUS_ID_LEN 32
/* NVML_NVLINK_MAX_LINKS */
#define VG_NVML_NVLINK_MAX_LINKS 18
/* NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE */
#define VG_NVML_DRIVER_VERSION_LEN 80

/* nvmlEventTypeXidCriticalError */
#define VG_NVML_EVENT_XID_CRITICAL 0x0000000000000008ULL
/* gpuInstanceId / computeInstanceId when the event is not attributable to a MIG instance */
#define VG_NVML_NO_INSTANCE 0xFFFFFFFFu

typedef struct vg_nvml vg_nvml;
typedef struct vg_nvml_event_set vg_nvml_event_set;

typedef struct {
    int code;             /* nvmlReturn_t; 0 = success */
    const char *function; /* static string: the NVML symbol (or "dlopen") that returned code */
} vg_status;

typedef struct {
    unsigned long long total; /* bytes */
    unsigned long long free;
    unsigned long long used;
} vg_memory;

typedef struct {
    char uuid[VG_NVML_UUID_LEN]; /* UUID of the event's device; "" when NVML gave none or it failed */
    unsigned long long event_type;
    unsigned long long event_data; /* the XID for XidCriticalError events */
    unsigned int gpu_instance_id;  /* VG_NVML_NO_INSTANCE when not MIG-attributable */
    unsigned int compute_instance_id;
} vg_xid_event;

/* dlopen(library or the default) + resolve symbols + nvmlInit_v2. On failure *out is NULL and,
 * when detail is not NULL, detail holds a human-readable reason (dlerror text). */
vg_status vg_nvml_open(const char *library, vg_nvml **out, char *detail, size_t detail_len);
/* nvmlShutdown + dlclose + free; returns nvmlShutdown's status. nvml may be NULL. */
vg_status vg_nvml_close(vg_nvml *nvml);

vg_status vg_nvml_device_count(vg_nvml *nvml, unsigned int *count);
/* NUL-terminated strings; buffers should hold VG_NVML_*_LEN bytes. */
vg_status vg_nvml_device_uuid(vg_nvml *nvml, unsigned int index, char *buf, size_t len);
vg_status vg_nvml_device_name(vg_nvml *nvml, unsigned int index, char *buf, size_t len);
vg_status vg_nvml_device_pci_bus_id(vg_nvml *nvml, unsigned int index, char *buf, size_t len);
vg_status vg_nvml_device_memory(vg_nvml *nvml, unsigned int index, vg_memory *out);
vg_status vg_nvml_device_utilization(vg_nvml *nvml, unsigned int index, unsigned int *gpu_percent,
                                     unsigned int *memory_percent);
/* raw nvmlDeviceGetMigMode: NOT_SUPPORTED on GPUs without MIG (callers treat that as disabled) */
vg_status vg_nvml_device_mig_mode(vg_nvml *nvml, unsigned int index, unsigned int *current,
                                  unsigned int *pending);

/* Identity facts an older driver may lack (FUNCTION_NOT_FOUND) or refuse (NOT_SUPPORTED); the
 * callers decide that such a fact is "unknown". Raw NVML values: architecture is an
 * nvmlDeviceArchitecture_t, brand an nvmlBrandType_t (names: vg_nvml_architecture_name/brand_name). */
vg_status vg_nvml_device_minor_number(vg_nvml *nvml, unsigned int index, unsigned int *minor);
vg_status vg_nvml_device_architecture(vg_nvml *nvml, unsigned int index, unsigned int *architecture);
vg_status vg_nvml_device_brand(vg_nvml *nvml, unsigned int index, unsigned int *brand);
vg_status vg_nvml_device_cuda_compute_capability(vg_nvml *nvml, unsigned int index, int *major, int *minor);
/* system-wide: the driver version as NVML prints it (e.g. "550.54.15"; buffer of
 * VG_NVML_DRIVER_VERSION_LEN bytes) and nvmlSystemGetCudaDriverVersion_v2's 1000*major + 10*minor */
vg_status vg_nvml_system_driver_version(vg_nvml *nvml, char *buf, size_t len);
vg_status vg_nvml_system_cuda_driver_version(vg_nvml *nvml, int *version);

/* ---- MIG (dynamic partitioning). GPU-instance profiles are asked for by their
 * NVML_GPU_INSTANCE_PROFILE_* constant and answer with NVML's profile id, which the placement, create
 * and list calls take; compute-instance profiles are given as NVML_COMPUTE_INSTANCE_PROFILE_*
 * constants (shared engines) and translated here. Instances are named by their ids, never by handle. */
typedef struct {
    unsigned int start;
    unsigned int size;
} vg_placement;

typedef struct {
    unsigned int id; /* NVML's profile id */
    unsigned int slice_count;
    unsigned int instance_count;
    unsigned int multiprocessor_count;
    unsigned long long memory_mib;
} vg_gi_profile;

typedef struct {
    unsigned int id;
    unsigned int profile_id;
    vg_placement placement;
} vg_gi;

typedef struct {
    char uuid[VG_NVML_UUID_LEN];
    unsigned int gpu_instance_id;
    unsigned int compute_instance_id;
} vg_mig_device;

/* nvmlDeviceGetGpuInstanceProfileInfo for one NVML_GPU_INSTANCE_PROFILE_* constant */
vg_status vg_nvml_gi_profile(vg_nvml *nvml, unsigned int index, unsigned int profile, vg_gi_profile *out);
/* nvmlDeviceGetGpuInstancePossiblePlacements_v2; INSUFFICIENT_SIZE (with *count = needed) when
 * capacity is too small */
vg_status vg_nvml_gi_placements(vg_nvml *nvml, unsigned int index, unsigned int profile_id, vg_placement *out,
                                unsigned int capacity, unsigned int *count);
/* nvmlDeviceSetMigMode; a call that succeeds but reports a failed activation returns that status */
vg_status vg_nvml_set_mig_mode(vg_nvml *nvml, unsigned int index, unsigned int enabled);
vg_status vg_nvml_gi_create(vg_nvml *nvml, unsigned int index, unsigned int profile_id, vg_placement placement,
                            unsigned int *gi_id);
vg_status vg_nvml_ci_create(vg_nvml *nvml, unsigned int index, unsigned int gi_id, unsigned int ci_profile,
                            unsigned int *ci_id);
vg_status vg_nvml_ci_destroy(vg_nvml *nvml, unsigned int index, unsigned int gi_id, unsigned int ci_id);
vg_status vg_nvml_gi_destroy(vg_nvml *nvml, unsigned int index, unsigned int gi_id);
/* the GPU instances of one profile id; INSUFFICIENT_SIZE when capacity is too small */
vg_status vg_nvml_gi_list(vg_nvml *nvml, unsigned int index, unsigned int profile_id, vg_gi *out,
                          unsigned int capacity, unsigned int *count);
/* the ids of the compute instances of one NVML_COMPUTE_INSTANCE_PROFILE_* constant inside a GPU instance */
vg_status vg_nvml_ci_list(vg_nvml *nvml, unsigned int index, unsigned int gi_id, unsigned int ci_profile,
                          unsigned int *ids, unsigned int capacity, unsigned int *count);
/* nvmlDeviceGetMaxMigDeviceCount */
vg_status vg_nvml_mig_device_count(vg_nvml *nvml, unsigned int index, unsigned int *count);
/* the MIG device in slot mig_index; NOT_FOUND for an empty slot */
vg_status vg_nvml_mig_device(vg_nvml *nvml, unsigned int index, unsigned int mig_index, vg_mig_device *out);
/* compute + graphics processes of the GPU (mig_index < 0) or of its MIG device mig_index */
vg_status vg_nvml_process_count(vg_nvml *nvml, unsigned int index, int mig_index, unsigned int *count);

/* ---- topology, for NVLink pair scores ---- */
/* nvmlDeviceGetTopologyCommonAncestor: 0 same board, 10 single switch, 20 multiple switches, 30 host
 * bridge, 40 same NUMA node, 50 across the system interconnect */
vg_status vg_nvml_topology_common_ancestor(vg_nvml *nvml, unsigned int index1, unsigned int index2, unsigned int *level);
/* nvmlDeviceGetNvLinkState of link (0 .. VG_NVML_NVLINK_MAX_LINKS - 1): 1 active, 0 not */
vg_status vg_nvml_nvlink_state(vg_nvml *nvml, unsigned int index, unsigned int link, unsigned int *active);
/* nvmlDeviceGetNvLinkRemotePciInfo_v2: the PCI bus id at the other end ("" on failure) */
vg_status vg_nvml_nvlink_remote_bus_id(vg_nvml *nvml, unsigned int index, unsigned int link, char *buf, size_t len);
/* nvmlDeviceGetNvLinkRemoteDeviceType: 0 GPU, 1 IBM NPU, 2 NVSwitch, 255 unknown */
vg_status vg_nvml_nvlink_remote_type(vg_nvml *nvml, unsigned int index, unsigned int link, unsigned int *type);

vg_status vg_nvml_event_set_create(vg_nvml *nvml, vg_nvml_event_set **out);
/* registers XidCriticalError for device index; NOT_SUPPORTED when the device cannot report it */
vg_status vg_nvml_event_register_xid(vg_nvml *nvml, vg_nvml_event_set *set, unsigned int index);
/* waits up to timeout_ms; TIMEOUT when no event arrived */
vg_status vg_nvml_event_wait(vg_nvml *nvml, vg_nvml_event_set *set, unsigned int timeout_ms,
                             vg_xid_event *out);
vg_status vg_nvml_event_set_free(vg_nvml *nvml, vg_nvml_event_set *set);

/* "0000:3b:00.0" (the sysfs directory name) from an NVML bus id such as "00000000:3B:00.0". */
void vg_pci_sysfs_name(const char *bus_id, char *out, size_t len);
/* <sysfs_root>/bus/pci/devices/<sysfs name>/numa_node; missing, unreadable or negative -> 0.
 * sysfs_root NULL or "" means "/sys". */
int vg_numa_node(const char *sysfs_root, const char *bus_id);

/* the architecture name as go-nvlib spells it ("Kepler" ... "Ada Lovelace", "Hopper", "Blackwell", "Orin");
 * "Unknown" for NVML_DEVICE_ARCH_UNKNOWN and
 * for codes this layer does not know (newer or non-server parts) */
const char *vg_nvml_architecture_name(unsigned int architecture);
/* NVML's brand name as go-nvlib spells it ("Tesla", "Quadro", "GeForce", "Nvidia", ...); "Unknown"
 * for NVML_BRAND_UNKNOWN and for codes this layer does not know */
const char *vg_nvml_brand_name(unsigned int brand);

/* the nvmlReturn_t enumerator name, e.g. "NVML_ERROR_NOT_FOUND"; "NVML_ERROR_UNKNOWN_CODE" for others */
const char *vg_nvml_code_name(int code);

#endif
