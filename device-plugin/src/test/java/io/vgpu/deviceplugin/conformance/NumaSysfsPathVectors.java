package io.vgpu.deviceplugin.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.deviceplugin.core.NvmlText;

import java.util.List;

/** {@code numa_sysfs_path}: the sysfs file read for a GPU's NUMA node. */
public final class NumaSysfsPathVectors implements NodeVectorFamily {

    @Override
    public List<String> check(JsonNode document, JsonNode vector) {
        return new Checks().expect("sysfs_path", vector.path("expected").path("sysfs_path").asText(),
                NvmlText.numaNodePath("/sys", vector.path("input").path("pci_bus_id").asText())).list();
    }
}
