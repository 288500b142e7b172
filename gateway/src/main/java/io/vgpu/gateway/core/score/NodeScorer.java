package io.vgpu.gateway.core.score;

import io.vgpu.gateway.core.fit.FitContext;
import io.vgpu.gateway.core.fit.FitResult;
import io.vgpu.gateway.core.fit.GoText;
import io.vgpu.gateway.core.fit.MigSelection;
import io.vgpu.gateway.core.fit.NvidiaFit;
import io.vgpu.gateway.core.reason.NodeReason;
import io.vgpu.gateway.core.reason.NodeRejection;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.Vendor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * HAMi's {@code scoreNode} (spec §9.3): does a pod fit a node, with which devices per container, and
 * what is the node's score. Build one scorer per pod and call {@link #score} for every candidate node;
 * the scorer is immutable, so nodes may be scored concurrently.
 *
 * <pre>
 *   init containers   each on a FRESH copy of the node usage (they run one after another)
 *   node score        default score of the usage BEFORE the pod (spec §10.3)
 *   app containers    cumulatively on one more fresh copy (they run together)
 *   per container     score every device (§10.1) → sort the working copy with the device order (§10.2; the
 *                     copy keeps its order for the next container) → NVIDIA candidates (type contains
 *                     "nvidia", case-insensitive) → NodeInsufficientDevice unless enough (or MIG) → Fit (§9.4)
 *                     → each pick: used+1, usedmem/usedcores += the pick (a MIG pick is resized to its profile)
 *   allocation        init lists then app lists, one per container, [] for containers without a request
 * </pre>
 *
 * <p><b>Deviation from HAMi v2.10 (spec §15.1):</b> HAMi pads containers without a request under every
 * registered device <i>type</i> (the model name), while the allocation is keyed by the vendor word; on real
 * nodes the vendor list therefore loses its placeholders and the annotation its index alignment. This port
 * pads by the vendor word, one entry per container, init first: wire-compatible, and what the Go tests
 * (device type literally {@code NVIDIA}) and the device plugin expect.
 *
 * <p><b>Init peaks:</b> HAMi also folds the per-device peak of the init copies and the app copy back into its
 * per-call usage view. Nothing in the decision reads that again, and the charge a reservation holds is the
 * collapse of the allocation (spec §8.2: max of the init peak and the app sum per device), so the verdict
 * carries the allocation only.
 *
 * <p><b>Quota:</b> Fit's quota gate sees all earlier containers of the pod in pod order (init lists, then
 * the app lists so far) with the pod's init count. HAMi hands it only the lists of the current phase, so in
 * the app phase it ignores the init containers and treats the first app containers as init ones; the
 * collapse of the whole pod is what the quota reservation charges, so this port checks that.
 */
public final class NodeScorer {

    private static final String VENDOR_LOWER = GoText.toLower(Vendor.NVIDIA);

    private final PodDemand pod;
    private final FitContext podContext;
    private final DeviceOrder order;

    /** Prepares the pod-wide parts (selectors, policy flags, device order) once. */
    public NodeScorer(PodDemand pod) {
        this.pod = pod;
        this.podContext = FitContext.forPod(pod.annotations(), pod.namespace(), pod.gpuPolicy(), pod.quota());
        this.order = new DeviceOrder(pod.gpuPolicy(), pod.numaBind());
    }

    /**
     * Whether {@link #score} reads the node's pair scores: only the {@code topology-aware} GPU policy does, so for
     * every other pod the caller may pass {@link io.vgpu.gateway.core.fit.PairScores#NONE} and skip building them.
     */
    public boolean usesPairScores() {
        return podContext.needTopology();
    }

    /**
     * Scores the pod on one node.
     *
     * @param node the node's usage view
     * @return {@link NodeVerdict.Fits} with the node score and the allocation, or
     *         {@link NodeVerdict.Unschedulable} with the first failing container's rejection
     */
    public NodeVerdict score(NodeDevices node) {
        FitContext ctx = podContext.onNode(node.annotations(), node.pairScores());
        List<ContainerRequest> containers = pod.containers();
        List<List<ContainerDevice>> allocation = new ArrayList<>(containers.size());
        List<MigAssignment> mig = new ArrayList<>(0);
        for (int c = 0; c < pod.initCount(); c++) {
            ContainerRequest request = containers.get(c);
            if (request.nums() <= 0) {
                allocation.add(List.of());
                continue;
            }
            NodeRejection failure = fitContainer(new Copy(node.devices()), request, ctx, allocation, node.node(), mig);
            if (failure != null) {
                return new NodeVerdict.Unschedulable(failure);
            }
        }
        float score = NodeScore.defaultScore(node.devices());
        Copy app = new Copy(node.devices());
        for (int c = pod.initCount(); c < containers.size(); c++) {
            ContainerRequest request = containers.get(c);
            if (request.nums() <= 0) {
                allocation.add(List.of());
                continue;
            }
            NodeRejection failure = fitContainer(app, request, ctx, allocation, node.node(), mig);
            if (failure != null) {
                return new NodeVerdict.Unschedulable(failure);
            }
        }
        return new NodeVerdict.Fits(score, allocation, mig);
    }

    /**
     * HAMi's {@code fitInDevices} for one container: on success appends the container's picks to
     * {@code allocation} and updates {@code copy}; on failure returns the rejection.
     */
    private NodeRejection fitContainer(Copy copy, ContainerRequest request, FitContext ctx,
                                List<List<ContainerDevice>> allocation, String nodeName, List<MigAssignment> mig) {
        if (!Vendor.NVIDIA.equals(request.type())) {
            return NodeReason.DEVICE_TYPE_NOT_FOUND;
        }
        DeviceUsage[] devs = copy.devices;
        int n = devs.length;
        for (int i = 0; i < n; i++) {
            copy.scores[i] = DeviceScore.of(devs[i], request, pod.weights());
        }
        order.sort(devs, copy.scores, n);

        DeviceUsage[] candidates = new DeviceUsage[n];
        int count = 0;
        boolean anyMig = false;
        for (DeviceUsage d : devs) {
            if (typeMatches(d.type())) {
                candidates[count++] = d;
                anyMig |= d.isMig();
            }
        }
        boolean migRequest = anyMig && !ctx.filters().excludesMig();
        if (request.nums() > count && !migRequest) {
            return NodeReason.NODE_INSUFFICIENT_DEVICE;
        }
        FitResult fit = NvidiaFit.fit(Arrays.asList(candidates).subList(0, count), request, ctx, allocation,
                pod.initCount());
        if (!fit.fit()) {
            return fit.rejection();
        }

        int containerIndex = allocation.size();
        List<ContainerDevice> picks = new ArrayList<>(fit.picks());
        for (int p = 0; p < picks.size(); p++) {
            ContainerDevice pick = picks.get(p);
            int at = indexOf(devs, pick.uuid());
            if (at < 0) {
                return new NodeRejection.Inconsistent("Device with UUID " + GoText.quote(pick.uuid())
                        + " not found on node " + nodeName + " after Fit");
            }
            DeviceUsage d = devs[at];
            if (d.isMig()) {
                MigSelection.Choice choice = MigSelection.select(d.migProfiles(),
                        MigSelection.placements(d.migUsed()), pick.usedmem());
                if (choice == null) {
                    return new NodeRejection.Inconsistent("AddResourceUsage failed for device " + d.id()
                            + ": MIG profile and placement allocation failed");
                }
                pick = new ContainerDevice(pick.idx(), pick.uuid(), pick.type(), choice.profile().memoryMB(),
                        choice.profile().core());
                picks.set(p, pick);
                d = d.withMigUse(choice.use());
                if (!choice.profile().name().isEmpty() && choice.placement().size() != 0) {
                    mig.add(new MigAssignment(containerIndex, p, pick.uuid(), choice.profile().name(),
                            choice.placement()));
                }
            }
            devs[at] = d.plus(1, pick.usedmem(), pick.usedcores());
        }
        allocation.add(List.copyOf(picks));
        return null;
    }

    /** HAMi's {@code getNodeResources} filter: the device type, lower-cased, contains "nvidia". */
    static boolean typeMatches(String type) {
        if (!asciiOnly(type)) {
            return GoText.toLower(type).contains(VENDOR_LOWER);
        }
        // ASCII fast path without building a lower-cased copy per device and container
        int len = VENDOR_LOWER.length();
        for (int i = 0; i + len <= type.length(); i++) {
            if (type.regionMatches(true, i, VENDOR_LOWER, 0, len)) {
                return true;
            }
        }
        return false;
    }

    private static boolean asciiOnly(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(DeviceUsage[] devs, String uuid) {
        for (int i = 0; i < devs.length; i++) {
            if (devs[i].id().equals(uuid)) {
                return i;
            }
        }
        return -1;
    }

    /** A working copy of a node's usage: devices in their current order, with the scores of the last sort. */
    private static final class Copy {
        final DeviceUsage[] devices;
        final float[] scores;

        Copy(List<DeviceUsage> base) {
            devices = base.toArray(new DeviceUsage[0]);
            scores = new float[devices.length];
        }
    }
}
