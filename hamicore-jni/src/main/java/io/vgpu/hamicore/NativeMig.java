package io.vgpu.hamicore;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The loops behind {@link NativeNvml}'s MIG and NVLink methods: which profile constants, MIG slots
 * and links to ask NVML about, and which answers mean "none here" rather than a failure. Called under
 * {@link NativeNvml}'s lifecycle lock with a live handle; every method blocks.
 */
final class NativeMig {

    /** The NVML_COMPUTE_INSTANCE_PROFILE_* constants (1, 2, 3, 4, 7, 8, 6 slices and 1 slice REV1). */
    private static final int COMPUTE_PROFILE_LIMIT = 8;

    private NativeMig() {
    }

    static List<GpuInstanceProfile> profiles(long nvml, int index) {
        List<GpuInstanceProfile> out = new ArrayList<>();
        for (int profile = 0; profile < GpuInstanceProfile.PROFILE_ID_LIMIT; profile++) {
            long[] info;
            try {
                info = NativeBridge.gpuInstanceProfile(nvml, index, profile);
            } catch (NvmlException e) {
                if (absent(e)) {
                    continue;
                }
                throw e;
            }
            int id = (int) info[0];
            int[] flat = NativeBridge.gpuInstancePlacements(nvml, index, id);
            List<InstancePlacement> placements = new ArrayList<>();
            for (int i = 0; i + 1 < flat.length; i += 2) {
                placements.add(new InstancePlacement(flat[i], flat[i + 1]));
            }
            out.add(new GpuInstanceProfile(profile, id, (int) info[1], (int) info[2], (int) info[3], info[4], placements));
        }
        return List.copyOf(out);
    }

    static List<GpuInstance> instances(long nvml, int index) {
        List<GpuInstance> out = new ArrayList<>();
        for (GpuInstanceProfile profile : profiles(nvml, index)) {
            int[] flat = NativeBridge.gpuInstances(nvml, index, profile.id());
            for (int i = 0; i + 3 < flat.length; i += 4) {
                out.add(new GpuInstance(flat[i], flat[i + 1], new InstancePlacement(flat[i + 2], flat[i + 3]),
                        computeInstances(nvml, index, flat[i])));
            }
        }
        out.sort(Comparator.comparingInt(GpuInstance::id));
        return List.copyOf(out);
    }

    private static List<Integer> computeInstances(long nvml, int index, int gpuInstanceId) {
        List<Integer> ids = new ArrayList<>();
        for (int profile = 0; profile < COMPUTE_PROFILE_LIMIT; profile++) {
            try {
                for (int id : NativeBridge.computeInstances(nvml, index, gpuInstanceId, profile)) {
                    ids.add(id);
                }
            } catch (NvmlException e) {
                if (!absent(e)) {
                    throw e;
                }
            }
        }
        return ids.stream().distinct().sorted().toList();
    }

    static List<MigDevice> devices(long nvml, int index) {
        List<MigDevice> out = new ArrayList<>();
        int slots = NativeBridge.migDeviceCount(nvml, index);
        int[] ids = new int[2];
        for (int slot = 0; slot < slots; slot++) {
            byte[] uuid;
            try {
                uuid = NativeBridge.migDevice(nvml, index, slot, ids);
            } catch (NvmlException e) {
                if (emptySlot(e)) {
                    continue;
                }
                throw e;
            }
            out.add(new MigDevice(new String(uuid, StandardCharsets.UTF_8), ids[0], ids[1]));
        }
        return List.copyOf(out);
    }

    static int migProcesses(long nvml, int index) {
        int slots = NativeBridge.migDeviceCount(nvml, index);
        int total = 0;
        for (int slot = 0; slot < slots; slot++) {
            try {
                total += NativeBridge.processCount(nvml, index, slot);
            } catch (NvmlException e) {
                if (!emptySlot(e)) {
                    throw e;
                }
            }
        }
        return total;
    }

    static List<NvLink> nvLinks(long nvml, int index) {
        List<NvLink> out = new ArrayList<>();
        for (int link = 0; link < NvLink.MAX_LINKS; link++) {
            try {
                if (!NativeBridge.nvLinkActive(nvml, index, link)) {
                    continue;
                }
            } catch (NvmlException e) {
                if (absent(e)) {
                    continue;
                }
                throw e;
            }
            String bus = "";
            try {
                bus = new String(NativeBridge.nvLinkRemoteBusId(nvml, index, link), StandardCharsets.UTF_8);
            } catch (NvmlException e) {
                if (!absent(e)) {
                    throw e;
                }
            }
            int type = NvLink.UNREPORTED;
            try {
                type = NativeBridge.nvLinkRemoteType(nvml, index, link);
            } catch (NvmlException e) {
                if (!absent(e)) {
                    throw e;
                }
            }
            out.add(new NvLink(link, bus, type));
        }
        return List.copyOf(out);
    }

    /** This profile (or the whole MIG API) is not available on this GPU or driver. */
    private static boolean absent(NvmlException e) {
        return e.unsupported() || e.returnCode() == NvmlException.INVALID_ARGUMENT;
    }

    /** No MIG device in this slot. */
    private static boolean emptySlot(NvmlException e) {
        return e.returnCode() == NvmlException.NOT_FOUND || e.returnCode() == NvmlException.INVALID_ARGUMENT;
    }
}
