package io.vgpu.deviceplugin.core.mode;

import io.vgpu.state.codec.HamiAnnotations;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * When a node may change mode (issue 12 item 1): not while anything of the mode it leaves is running or
 * on its way, because stopping that mode's kubelet plugin would strand it. Pure.
 *
 * <pre>
 *  device-plugin → DRA refused while  vGPU pods run on the node           (they hold device-plugin shares)
 *                                     vGPU pods are bound but Pending      (kubelet still calls Allocate)
 *                                     pods are placed but not bound yet    (HAMi annotation hami.io/vgpu-node)
 *                                     the node lock is held                (a bind is in progress)
 *                                     this agent has DRA mode disabled
 *  DRA → device-plugin refused while  claims are prepared on the node      (containers use them)
 *                                     claims are allocated to the node but not prepared yet
 * </pre>
 */
public final class SwitchRule {

    /** Why an agent with DRA mode disabled does not switch. */
    public static final String DRA_DISABLED =
            "DRA mode is disabled on this agent (VGPU_DRA_ENABLED=false; chart value devicePlugin.dra.enabled)";

    private static final int NAMED = 5;

    private SwitchRule() {
    }

    /**
     * Why {@code from → to} cannot happen now; empty when it can (or when there is no change).
     *
     * @param draEnabled this agent may serve DRA mode at all
     */
    public static List<String> blockers(AgentMode from, AgentMode to, ModeSnapshot s, boolean draEnabled) {
        List<String> out = new ArrayList<>();
        if (from == to) {
            return out;
        }
        if (to == AgentMode.DRA) {
            if (!draEnabled) {
                out.add(DRA_DISABLED);
            }
            List<String> running = new ArrayList<>();
            List<String> pending = new ArrayList<>();
            List<String> placed = new ArrayList<>();
            for (ModeSnapshot.Pod p : s.pods()) {
                if (finished(p) || !vgpu(p, s.node())) {
                    continue;
                }
                if (p.nodeName().equals(s.node())) {
                    (p.phase().isEmpty() || "Pending".equals(p.phase()) ? pending : running).add(p.key());
                } else if (p.nodeName().isEmpty()) {
                    placed.add(p.key());
                }
            }
            add(out, running, "vGPU pod(s) of device-plugin mode running");
            add(out, pending, "vGPU pod(s) bound to the node and still Pending");
            add(out, placed, "vGPU pod(s) placed on the node by the scheduler and not bound yet (live reservations)");
            String lock = s.nodeAnnotations().get(HamiAnnotations.NODE_LOCK);
            if (lock != null && !lock.isEmpty()) {
                out.add("the node lock " + HamiAnnotations.NODE_LOCK + " is held (" + lock + "): a bind is in progress");
            }
        } else {
            Set<String> allocated = new LinkedHashSet<>();
            List<String> prepared = new ArrayList<>();
            List<String> unprepared = new ArrayList<>();
            for (ModeSnapshot.Claim c : s.claims()) {
                allocated.add(c.uid());
                (s.prepared().contains(c.uid()) ? prepared : unprepared).add(c.key());
            }
            for (String uid : s.prepared()) {
                if (!allocated.contains(uid)) {
                    prepared.add("uid " + uid);
                }
            }
            add(out, prepared, "ResourceClaim(s) prepared on the node (in use, or not unprepared yet)");
            add(out, unprepared, "ResourceClaim(s) allocated to the node and not prepared yet");
        }
        return out;
    }

    /** The refusal as one line: what blocks it, with up to five names per kind. */
    public static String describe(String node, AgentMode from, AgentMode to, List<String> blockers) {
        return "switch of node " + node + " from " + from + " to " + to + " refused: " + String.join("; ", blockers)
                + "; it is tried again until nothing blocks it";
    }

    private static boolean finished(ModeSnapshot.Pod p) {
        return "Succeeded".equals(p.phase()) || "Failed".equals(p.phase());
    }

    /** A pod of device-plugin mode: it asks for the vGPU resource, or the HAMi scheduler placed it here. */
    private static boolean vgpu(ModeSnapshot.Pod p, String node) {
        return p.requestsVgpu() || node.equals(p.annotations().get(HamiAnnotations.VGPU_NODE))
                || p.annotations().containsKey(HamiAnnotations.DEVICES_ALLOCATED);
    }

    private static void add(List<String> out, List<String> names, String what) {
        if (names.isEmpty()) {
            return;
        }
        List<String> shown = names.subList(0, Math.min(NAMED, names.size()));
        out.add(names.size() + " " + what + " (" + String.join(", ", shown) + (names.size() > NAMED ? ", …" : "") + ")");
    }
}
