/*
 * gpu-check: lists the GPUs NVML sees (index, UUID, name, memory, NUMA node, MIG mode, XID health,
 * device minor number, architecture, brand, compute capability) and the driver and CUDA versions,
 * through the same dlopen NVML layer the JNI library uses. It only reads: it never changes a GPU
 * setting. Needs no JDK:
 *
 *   gcc -std=gnu11 -O2 -Wall -Wextra -Werror -o gpu-check gpu_check_main.c vgpu_nvml.c -ldl
 *
 * usage: gpu-check [--nvml LIBRARY] [--sysfs ROOT] [--xid-wait-ms N]
 *   --nvml         NVML library to dlopen (default libnvidia-ml.so.1)
 *   --sysfs        sysfs mount for NUMA lookups (default /sys)
 *   --xid-wait-ms  how long to listen for XID events before reporting health (default 0: only
 *                  events already pending)
 *
 * Output: "driver: VERSION, cuda: MAJOR.MINOR", a header line, then one tab-separated line per GPU,
 * then "gpus: N". A fact the driver does not know (NOT_SUPPORTED, or the function is missing from an
 * older NVML) is printed as "unknown"; a fact whose query failed otherwise as "?".
 * Exit status: 0 all GPUs listed and healthy or unknown; 1 NVML unusable or a query failed; 2 usage
 * error; 3 some GPU reported a critical XID.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vgpu_nvml.h"

#define MAX_GPUS 64
#define HEALTH_LEN 96
#define FACT_LEN 32

/* XIDs caused by applications, not hardware; HAMi's device plugin ignores them */
static const unsigned long long APPLICATION_XIDS[] = {13, 31, 43, 45, 68, 109};

typedef struct {
    char uuid[VG_NVML_UUID_LEN];
    char health[HEALTH_LEN];
    int unhealthy;
} gpu_state;

static int usage(const char *self)
{
    fprintf(stderr, "usage: %s [--nvml LIBRARY] [--sysfs ROOT] [--xid-wait-ms N]\n", self);
    return 2;
}

static void report(const char *what, vg_status s)
{
    fprintf(stderr, "gpu-check: %s: %s failed: %s (%d)\n", what, s.function, vg_nvml_code_name(s.code), s.code);
}

static int is_application_xid(unsigned long long xid)
{
    for (size_t i = 0; i < sizeof APPLICATION_XIDS / sizeof APPLICATION_XIDS[0]; i++) {
        if (APPLICATION_XIDS[i] == xid) {
            return 1;
        }
    }
    return 0;
}

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long) ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void mark(gpu_state *gpu, const char *text)
{
    gpu->unhealthy = 1;
    snprintf(gpu->health, sizeof gpu->health, "%s", text);
}

/* Registers XID events for every GPU and applies what arrives within wait_ms to their health. */
static void check_health(vg_nvml *nv, gpu_state *gpus, unsigned int count, long long wait_ms)
{
    vg_nvml_event_set *set = NULL;
    vg_status s = vg_nvml_event_set_create(nv, &set);
    if (s.code != VG_NVML_SUCCESS) {
        report("XID events unavailable", s);
        return; /* health stays "unknown" */
    }
    int registered = 0;
    for (unsigned int i = 0; i < count; i++) {
        s = vg_nvml_event_register_xid(nv, set, i);
        if (s.code == VG_NVML_SUCCESS) {
            snprintf(gpus[i].health, sizeof gpus[i].health, "healthy");
            registered++;
        } else if (s.code == VG_NVML_ERROR_NOT_SUPPORTED) {
            snprintf(gpus[i].health, sizeof gpus[i].health, "unknown(no-xid-events)");
        } else {
            char text[HEALTH_LEN];
            snprintf(text, sizeof text, "unhealthy(%s:%d)", s.function, s.code);
            mark(&gpus[i], text);
        }
    }
    long long deadline = now_ms() + (wait_ms > 0 ? wait_ms : 0);
    while (registered > 0) {
        long long left = deadline - now_ms();
        vg_xid_event event;
        s = vg_nvml_event_wait(nv, set, (unsigned int) (left > 0 ? left : 0), &event);
        if (s.code == VG_NVML_ERROR_TIMEOUT) {
            break;
        }
        if (s.code != VG_NVML_SUCCESS) {
            report("waiting for XID events", s);
            break;
        }
        if ((event.event_type & VG_NVML_EVENT_XID_CRITICAL) != 0 && !is_application_xid(event.event_data)) {
            char text[HEALTH_LEN];
            snprintf(text, sizeof text, "unhealthy(xid-%llu)", event.event_data);
            int matched = 0;
            for (unsigned int i = 0; i < count; i++) {
                if (event.uuid[0] != '\0' && strcmp(event.uuid, gpus[i].uuid) == 0) {
                    mark(&gpus[i], text);
                    matched = 1;
                }
            }
            /* an event without a readable device counts against every GPU (HAMi's rule) */
            for (unsigned int i = 0; !matched && i < count; i++) {
                mark(&gpus[i], text);
            }
        }
        /* once the deadline has passed, waits use timeout 0: pending events drain, then TIMEOUT */
    }
    vg_nvml_event_set_free(nv, set);
}

/* 1 when a fact query answered; else fills text with "unknown" (the driver cannot tell) or "?" (failed) */
static int fact(vg_status s, const char *what, char *text, size_t len, int *failed)
{
    if (s.code == VG_NVML_SUCCESS) {
        return 1;
    }
    if (s.code == VG_NVML_ERROR_NOT_SUPPORTED || s.code == VG_NVML_ERROR_FUNCTION_NOT_FOUND) {
        snprintf(text, len, "unknown");
    } else {
        report(what, s);
        snprintf(text, len, "?");
        *failed = 1;
    }
    return 0;
}

static void print_driver(vg_nvml *nv, int *failed)
{
    char version[VG_NVML_DRIVER_VERSION_LEN];
    char cuda[FACT_LEN];
    int encoded = 0;
    fact(vg_nvml_system_driver_version(nv, version, sizeof version), "cannot read the driver version", version,
         sizeof version, failed);
    if (fact(vg_nvml_system_cuda_driver_version(nv, &encoded), "cannot read the CUDA driver version", cuda,
             sizeof cuda, failed)) {
        /* NVML encodes it as 1000 * major + 10 * minor */
        snprintf(cuda, sizeof cuda, "%d.%d", encoded / 1000, encoded % 1000 / 10);
    }
    printf("driver: %s, cuda: %s\n", version, cuda);
}

/* minor number, architecture, brand and compute capability of GPU i, tab-separated, into out */
static void identity(vg_nvml *nv, unsigned int i, char *out, size_t len, int *failed)
{
    char minor[FACT_LEN], arch[FACT_LEN], brand[FACT_LEN], cc[FACT_LEN];
    unsigned int minor_number = 0, arch_code = 0, brand_code = 0;
    int cc_major = 0, cc_minor = 0;
    if (fact(vg_nvml_device_minor_number(nv, i, &minor_number), "cannot read the minor number", minor, sizeof minor,
             failed)) {
        snprintf(minor, sizeof minor, "%u", minor_number);
    }
    if (fact(vg_nvml_device_architecture(nv, i, &arch_code), "cannot read the architecture", arch, sizeof arch,
             failed)) {
        snprintf(arch, sizeof arch, "%s", vg_nvml_architecture_name(arch_code));
    }
    if (fact(vg_nvml_device_brand(nv, i, &brand_code), "cannot read the brand", brand, sizeof brand, failed)) {
        snprintf(brand, sizeof brand, "%s", vg_nvml_brand_name(brand_code));
    }
    if (fact(vg_nvml_device_cuda_compute_capability(nv, i, &cc_major, &cc_minor),
             "cannot read the compute capability", cc, sizeof cc, failed)) {
        snprintf(cc, sizeof cc, "%d.%d", cc_major, cc_minor);
    }
    snprintf(out, len, "%s\t%s\t%s\t%s", minor, arch, brand, cc);
}

int main(int argc, char **argv)
{
    const char *library = NULL;
    const char *sysfs = "/sys";
    long long wait_ms = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--nvml") == 0 && i + 1 < argc) {
            library = argv[++i];
        } else if (strcmp(argv[i], "--sysfs") == 0 && i + 1 < argc) {
            sysfs = argv[++i];
        } else if (strcmp(argv[i], "--xid-wait-ms") == 0 && i + 1 < argc) {
            char *end = NULL;
            wait_ms = strtoll(argv[++i], &end, 10);
            if (end == NULL || *end != '\0' || wait_ms < 0) {
                return usage(argv[0]);
            }
        } else {
            return usage(argv[0]);
        }
    }

    char detail[512];
    vg_nvml *nv = NULL;
    vg_status s = vg_nvml_open(library, &nv, detail, sizeof detail);
    if (s.code != VG_NVML_SUCCESS) {
        report("cannot use NVML", s);
        if (detail[0] != '\0') {
            fprintf(stderr, "gpu-check: %s\n", detail);
        }
        return 1;
    }
    unsigned int count = 0;
    s = vg_nvml_device_count(nv, &count);
    if (s.code != VG_NVML_SUCCESS) {
        report("cannot count GPUs", s);
        vg_nvml_close(nv);
        return 1;
    }
    if (count > MAX_GPUS) {
        count = MAX_GPUS;
    }

    static gpu_state gpus[MAX_GPUS];
    int failed = 0;
    for (unsigned int i = 0; i < count; i++) {
        snprintf(gpus[i].health, sizeof gpus[i].health, "unknown");
        s = vg_nvml_device_uuid(nv, i, gpus[i].uuid, sizeof gpus[i].uuid);
        if (s.code != VG_NVML_SUCCESS) {
            report("cannot read a UUID", s);
            failed = 1;
        }
    }
    check_health(nv, gpus, count, wait_ms);

    print_driver(nv, &failed);
    /* the identity columns come last so that the older columns keep their positions */
    printf("INDEX\tUUID\tNAME\tMEMORY_TOTAL_MIB\tMEMORY_USED_MIB\tNUMA\tMIG\tHEALTH\tMINOR\tARCH\tBRAND\tCC\n");
    int unhealthy = 0;
    for (unsigned int i = 0; i < count; i++) {
        char name[VG_NVML_NAME_LEN] = "?";
        char bus_id[VG_NVML_BUS_ID_LEN] = "";
        vg_memory memory = {0, 0, 0};
        unsigned int mig_current = 0, mig_pending = 0;
        const char *mig = "disabled";

        if ((s = vg_nvml_device_name(nv, i, name, sizeof name)).code != VG_NVML_SUCCESS) {
            report("cannot read a name", s);
            snprintf(name, sizeof name, "?");
            failed = 1;
        }
        if ((s = vg_nvml_device_memory(nv, i, &memory)).code != VG_NVML_SUCCESS
            && s.code != VG_NVML_ERROR_NOT_SUPPORTED) {
            report("cannot read memory", s);
            failed = 1;
        }
        if ((s = vg_nvml_device_pci_bus_id(nv, i, bus_id, sizeof bus_id)).code != VG_NVML_SUCCESS) {
            report("cannot read the PCI bus id", s);
            failed = 1;
        }
        s = vg_nvml_device_mig_mode(nv, i, &mig_current, &mig_pending);
        if (s.code == VG_NVML_SUCCESS) {
            mig = mig_current ? "enabled" : "disabled";
        } else if (s.code != VG_NVML_ERROR_NOT_SUPPORTED && s.code != VG_NVML_ERROR_FUNCTION_NOT_FOUND) {
            report("cannot read the MIG mode", s);
            mig = "?";
            failed = 1;
        }
        char ident[4 * FACT_LEN];
        identity(nv, i, ident, sizeof ident, &failed);
        unhealthy |= gpus[i].unhealthy;
        printf("%u\t%s\t%s\t%llu\t%llu\t%d\t%s\t%s\t%s\n", i, gpus[i].uuid[0] ? gpus[i].uuid : "?", name,
               memory.total >> 20, memory.used >> 20, vg_numa_node(sysfs, bus_id), mig, gpus[i].health, ident);
    }
    printf("gpus: %u\n", count);
    vg_nvml_close(nv);
    return failed ? 1 : unhealthy ? 3 : 0;
}
