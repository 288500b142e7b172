package io.vgpu.deviceplugin.cdi;

import java.util.ArrayList;
import java.util.List;

/**
 * The lowest {@code cdiVersion} a spec may declare (the CDI library's {@code MinimumRequiredVersion}):
 * loaders reject a spec whose declared version is below what its fields need, and older runtimes
 * reject versions they do not know, so a spec declares exactly the minimum.
 *
 * <pre>
 *  0.3.0  the base (the earliest version current loaders accept)
 *  0.4.0  a mount with a type
 *  0.5.0  a device name that starts with a digit; a device node with a hostPath
 *  0.6.0  annotations (spec or device); a '.' in the kind's class
 * </pre>
 * (0.7.0 and later add fields this model does not have: additional GIDs, Intel RDT, network devices.)
 */
final class CdiVersions {

    /** The base version. */
    public static final String BASE = "0.3.0";

    private CdiVersions() {
    }

    /** The minimum version for {@code spec}. */
    public static String minimum(CdiSpec spec) {
        List<ContainerEdits> edits = new ArrayList<>();
        edits.add(spec.containerEdits());
        spec.devices().forEach(d -> edits.add(d.containerEdits()));
        boolean annotations = !spec.annotations().isEmpty() || spec.devices().stream().anyMatch(d -> !d.annotations().isEmpty());
        if (annotations || CdiNames.kindClass(spec.kind()).contains(".")) {
            return "0.6.0";
        }
        boolean digitFirst = spec.devices().stream().anyMatch(d -> !Character.isLetter(d.name().charAt(0)));
        boolean hostPath = edits.stream().anyMatch(e -> e.deviceNodes().stream().anyMatch(n -> n.hostPath().isPresent()));
        if (digitFirst || hostPath) {
            return "0.5.0";
        }
        if (edits.stream().anyMatch(e -> e.mounts().stream().anyMatch(m -> m.type().isPresent()))) {
            return "0.4.0";
        }
        return BASE;
    }
}
