package io.vgpu.deviceplugin.mig;

import io.vgpu.deviceplugin.core.gpu.GpuFacts;
import io.vgpu.deviceplugin.core.mig.MigAllowlist;
import io.vgpu.deviceplugin.core.mig.MigKey;
import io.vgpu.hamicore.FakeNvml;
import io.vgpu.hamicore.GpuInfo;
import io.vgpu.state.model.MigPlacement;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** A node of A100s in hamicore's {@link FakeNvml} (MIG off at first) and the dynamic-MIG pieces over it. */
final class MigFixtures {

    static final String MODEL = "NVIDIA A100-SXM4-40GB";
    static final MigAllowlist ALLOWLIST = MigAllowlist.of(List.of("A100-SXM4-40GB"),
            List.of("1g.5gb", "2g.10gb", "3g.20gb", "7g.40gb"));

    final FakeNvml nvml;
    final List<GpuFacts> gpus = new ArrayList<>();

    MigFixtures(int count) {
        List<GpuInfo> infos = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            infos.add(new GpuInfo(i, uuid(i), MODEL, 40L << 30, 0, "00000000:0" + i + ":00.0", 0, false));
            gpus.add(new GpuFacts(uuid(i), i, MODEL, OptionalLong.of(40L << 30), OptionalInt.of(0), true));
        }
        nvml = FakeNvml.withGpus(infos);
        for (int i = 0; i < count; i++) {
            nvml.setMigProfiles(i, FakeNvml.a100Profiles());
        }
    }

    static String uuid(int i) {
        return "GPU-a100a100-0000-4000-8000-00000000000" + i;
    }

    static MigKey key(int gpu, String profile, int start, int size) {
        return new MigKey(uuid(gpu), profile, new MigPlacement(start, size));
    }

    MigManager manager(Path dir) {
        return new MigManager(nvml, gpus, ALLOWLIST, dir.resolve("tmp/hami/hami-mig-apply.lock"));
    }
}
