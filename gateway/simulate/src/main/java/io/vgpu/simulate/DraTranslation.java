package io.vgpu.simulate;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.CapacityRequirementsBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceConstraintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelector;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSelectorBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequestBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpecBuilder;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.vgpu.gateway.core.PodSpec;
import io.vgpu.gateway.core.request.PodRequests;
import io.vgpu.gateway.core.request.RequestDeriver;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.dra.DraNames;
import io.vgpu.state.dra.SliceBuilder;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.Vendor;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The simulator's stand-in for the webhook's DRA translation (issue 13 item 1) until the gateway's own
 * lands: each GPU container of an admitted HAMi pod becomes one request on DeviceClass {@code gpu.vgpu.io}
 * of a ResourceClaimTemplate named by a hash of its content ({@code vgpu-<hash>}):
 * <pre>
 *   nvidia.com/gpu N                 exactly.count N (N &gt; 1: distinctAttribute uuid)
 *   gpumem M                         capacity memory M Mi
 *   gpumem-percentage P              firstAvailable, one subrequest per card size S of the cluster
 *                                    (smallest first, at most 8): memory ⌈P·S/100⌉ Mi on cards of size S
 *   gpucores C                       capacity cores min(C, 100); C = 100 also slots 1000 (the whole card)
 *   use-gputype / nouse-gputype      CEL on productName (case-insensitive substring, as HAMi matches)
 *   use-gpuuuid / nouse-gpuuuid      CEL on uuid
 *   numa-bind true                   matchAttribute numa over the container's request
 * </pre>
 * Pure and deterministic.
 */
final class DraTranslation {

    /** Subrequests of a percentage request; more card sizes than this are refused. */
    static final int MAX_SUBREQUESTS = 8;
    private static final String NUMA_BIND = "nvidia.com/numa-bind";
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private DraTranslation() {
    }

    /** What the translation makes of one pod. */
    sealed interface Result {
        /** The pod asks for no NVIDIA GPU: it is left alone. */
        record NoGpu() implements Result {
        }

        /** The pod cannot be expressed in DRA terms. */
        record Refused(String message) implements Result {
        }

        /**
         * The claim template and the container each request belongs to.
         *
         * @param templateName {@code vgpu-<hash>}
         * @param spec         the template's claim spec
         */
        record Translated(String templateName, ResourceClaimSpec spec) implements Result {
        }
    }

    /**
     * @param admitted  the pod as the webhook admitted it (defaults applied)
     * @param requests  its derived GPU requests
     * @param cardSizes the cluster's card sizes in MiB, smallest first
     */
    static Result translate(PodSpec admitted, PodRequests requests, List<Long> cardSizes) {
        List<DeviceRequest> out = new ArrayList<>();
        List<DeviceConstraint> constraints = new ArrayList<>();
        List<String> selectors = selectors(admitted.annotations());
        boolean numa = "true".equalsIgnoreCase(admitted.annotations().getOrDefault(NUMA_BIND, "").strip());
        int first = requests.initCount();
        for (int i = 0; i < requests.containers().size(); i++) {
            ContainerRequest r = requests.request(i, Vendor.NVIDIA).orElse(null);
            if (r == null || r.nums() <= 0) {
                continue;
            }
            String name = "gpu-" + i + (i < first ? "-init" : "");
            if (r.memreq() <= 0 && cardSizes.size() > MAX_SUBREQUESTS) {
                return new Result.Refused("a percentage of GPU memory needs one subrequest per card size, and the "
                        + "cluster has " + cardSizes.size() + " sizes (at most " + MAX_SUBREQUESTS + ")");
            }
            out.add(request(name, r, selectors, cardSizes));
            if (r.nums() > 1) {
                constraints.add(new DeviceConstraintBuilder().withRequests(name)
                        .withDistinctAttribute(DraNames.DRIVER + "/uuid").build());
            }
            if (numa) {
                constraints.add(new DeviceConstraintBuilder().withRequests(name)
                        .withMatchAttribute(DraNames.DRIVER + "/numa").build());
            }
        }
        if (out.isEmpty()) {
            return new Result.NoGpu();
        }
        ResourceClaimSpec spec = new ResourceClaimSpecBuilder().withNewDevices().withRequests(out)
                .withConstraints(constraints).endDevices().build();
        return new Result.Translated("vgpu-" + hash(JSON.asJson(spec)), spec);
    }

    private static DeviceRequest request(String name, ContainerRequest r, List<String> selectors, List<Long> sizes) {
        int cores = Math.min(100, Math.max(0, r.coresreq()));
        DeviceRequestBuilder b = new DeviceRequestBuilder().withName(name);
        if (r.memreq() > 0) {
            return b.withNewExactly().withDeviceClassName(DraCluster.DEVICE_CLASS).withCount((long) r.nums())
                    .withSelectors(cel(selectors)).withCapacity(capacity(r.memreq(), cores).build()).endExactly()
                    .build();
        }
        int pct = r.mempercentagereq() > 100 ? 100 : r.mempercentagereq();
        for (long size : sizes) {
            List<String> own = new ArrayList<>(selectors);
            own.add("device.capacity['" + DraNames.DRIVER + "']." + SliceBuilder.MEMORY + ".compareTo(quantity('"
                    + size + "Mi')) == 0");
            long mib = (size * pct + 99) / 100;
            b.addToFirstAvailable(new DeviceSubRequestBuilder().withName("s" + size)
                    .withDeviceClassName(DraCluster.DEVICE_CLASS).withCount((long) r.nums()).withSelectors(cel(own))
                    .withCapacity(capacity(mib, cores).build()).build());
        }
        return b.build();
    }

    private static CapacityRequirementsBuilder capacity(long mib, int cores) {
        CapacityRequirementsBuilder c = new CapacityRequirementsBuilder()
                .addToRequests(SliceBuilder.MEMORY, new Quantity(mib + "Mi"))
                .addToRequests(SliceBuilder.CORES, new Quantity(Integer.toString(cores)));
        if (cores >= 100) {
            c.addToRequests(SliceBuilder.SLOTS, new Quantity(Long.toString(SliceBuilder.SLOTS_PER_GPU)));
        }
        return c;
    }

    private static List<DeviceSelector> cel(List<String> expressions) {
        return expressions.stream().map(e -> new DeviceSelectorBuilder().withNewCel().withExpression(e).endCel().build())
                .toList();
    }

    /** HAMi's pod-level GPU filters as CEL. */
    private static List<String> selectors(Map<String, String> annotations) {
        List<String> out = new ArrayList<>();
        String attrs = "device.attributes['" + DraNames.DRIVER + "']";
        any(annotations.get(HamiAnnotations.USE_GPU_TYPE), v -> attrs + ".productName.lowerAscii().contains('"
                + v.toLowerCase(Locale.ROOT) + "')", false, out);
        any(annotations.get(HamiAnnotations.NOUSE_GPU_TYPE), v -> attrs + ".productName.lowerAscii().contains('"
                + v.toLowerCase(Locale.ROOT) + "')", true, out);
        any(annotations.get(HamiAnnotations.USE_GPU_UUID), v -> attrs + ".uuid == '" + v + "'", false, out);
        any(annotations.get(HamiAnnotations.NOUSE_GPU_UUID), v -> attrs + ".uuid == '" + v + "'", true, out);
        return out;
    }

    private static void any(String list, java.util.function.UnaryOperator<String> term, boolean negate,
                            List<String> out) {
        if (list == null || list.isBlank()) {
            return;
        }
        List<String> terms = new ArrayList<>();
        for (String v : list.split(",")) {
            String value = v.strip().replace("\\", "").replace("'", "");
            if (!value.isEmpty()) {
                terms.add(term.apply(value));
            }
        }
        if (!terms.isEmpty()) {
            String joined = String.join(" || ", terms);
            out.add(negate ? "!(" + joined + ")" : joined);
        }
    }

    private static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 5);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing", e);
        }
    }
}
