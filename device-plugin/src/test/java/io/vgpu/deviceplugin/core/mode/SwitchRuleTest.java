package io.vgpu.deviceplugin.core.mode;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Every refusal case of a mode switch, and what does not block one. */
class SwitchRuleTest {

    private static final String NODE = "n1";
    private static final AgentMode DP = AgentMode.DEVICE_PLUGIN;
    private static final AgentMode DRA = AgentMode.DRA;

    private static ModeSnapshot snapshot(Map<String, String> nodeAnnotations, List<ModeSnapshot.Pod> pods,
                                         List<ModeSnapshot.Claim> claims, Set<String> prepared) {
        return new ModeSnapshot(NODE, nodeAnnotations, pods, claims, prepared);
    }

    private static ModeSnapshot pods(ModeSnapshot.Pod... pods) {
        return snapshot(Map.of(), List.of(pods), List.of(), Set.of());
    }

    private static ModeSnapshot.Pod vgpu(String key, String phase, String nodeName) {
        return new ModeSnapshot.Pod(key, phase, nodeName, Map.of(), true);
    }

    @Test
    void anIdleNodeSwitchesBothWays() {
        ModeSnapshot idle = pods(new ModeSnapshot.Pod("ns/web", "Running", NODE, Map.of(), false),
                vgpu("ns/done", "Succeeded", NODE), vgpu("ns/failed", "Failed", NODE), vgpu("ns/elsewhere", "Running", "n2"));
        assertThat(SwitchRule.blockers(DP, DRA, idle, true)).isEmpty();
        assertThat(SwitchRule.blockers(DRA, DP, idle, true)).isEmpty();
        assertThat(SwitchRule.blockers(DRA, DRA, idle, false)).as("no change, nothing to check").isEmpty();
    }

    @Test
    void runningVgpuPodsBlockLeavingDevicePluginMode() {
        List<String> blockers = SwitchRule.blockers(DP, DRA, pods(vgpu("ns/train", "Running", NODE),
                new ModeSnapshot.Pod("ns/annotated", "Running", NODE, Map.of("hami.io/vgpu-devices-allocated", "x"), false)), true);
        assertThat(blockers).containsExactly("2 vGPU pod(s) of device-plugin mode running (ns/train, ns/annotated)");
        assertThat(SwitchRule.blockers(DRA, DP, pods(vgpu("ns/train", "Running", NODE)), true))
                .as("they do not block going the other way").isEmpty();
    }

    @Test
    void boundButPendingVgpuPodsBlockLeavingDevicePluginMode() {
        assertThat(SwitchRule.blockers(DP, DRA, pods(vgpu("ns/starting", "Pending", NODE), vgpu("ns/new", "", NODE)), true))
                .containsExactly("2 vGPU pod(s) bound to the node and still Pending (ns/starting, ns/new)");
    }

    @Test
    void liveReservationsBlockLeavingDevicePluginMode() {
        ModeSnapshot.Pod placed = new ModeSnapshot.Pod("ns/placed", "Pending", "", Map.of("hami.io/vgpu-node", NODE), false);
        assertThat(SwitchRule.blockers(DP, DRA, pods(placed), true)).containsExactly(
                "1 vGPU pod(s) placed on the node by the scheduler and not bound yet (live reservations) (ns/placed)");
    }

    @Test
    void aHeldNodeLockBlocksLeavingDevicePluginMode() {
        ModeSnapshot locked = snapshot(Map.of("hami.io/mutex.lock", "2026-12-01T10:00:00Z,ns,p"), List.of(), List.of(), Set.of());
        assertThat(SwitchRule.blockers(DP, DRA, locked, true)).singleElement().asString()
                .contains("the node lock hami.io/mutex.lock is held (2026-12-01T10:00:00Z,ns,p)");
        assertThat(SwitchRule.blockers(DP, DRA, snapshot(Map.of("hami.io/mutex.lock", ""), List.of(), List.of(), Set.of()), true))
                .as("an empty lock value is no lock").isEmpty();
    }

    @Test
    void anAgentWithDraDisabledNeverEntersIt() {
        assertThat(SwitchRule.blockers(DP, DRA, pods(), false)).containsExactly(SwitchRule.DRA_DISABLED);
    }

    @Test
    void preparedAndAllocatedClaimsBlockLeavingDraMode() {
        ModeSnapshot s = snapshot(Map.of(), List.of(), List.of(new ModeSnapshot.Claim("ns/a", "uid-a"),
                new ModeSnapshot.Claim("ns/b", "uid-b")), Set.of("uid-a", "uid-gone"));
        assertThat(SwitchRule.blockers(DRA, DP, s, true)).containsExactly(
                "2 ResourceClaim(s) prepared on the node (in use, or not unprepared yet) (ns/a, uid uid-gone)",
                "1 ResourceClaim(s) allocated to the node and not prepared yet (ns/b)");
        assertThat(SwitchRule.blockers(DP, DRA, s, true)).as("claims do not block entering DRA mode").isEmpty();
    }

    @Test
    void namesAtMostFiveOfAKind() {
        ModeSnapshot.Pod[] many = new ModeSnapshot.Pod[7];
        for (int i = 0; i < many.length; i++) {
            many[i] = vgpu("ns/p" + i, "Running", NODE);
        }
        assertThat(SwitchRule.blockers(DP, DRA, pods(many), true))
                .containsExactly("7 vGPU pod(s) of device-plugin mode running (ns/p0, ns/p1, ns/p2, ns/p3, ns/p4, …)");
    }

    @Test
    void theLabelWinsOverTheLocalSetting() {
        assertThat(AgentMode.desired(Map.of("vgpu.io/mode", "dra"), DP)).isEqualTo(DRA);
        assertThat(AgentMode.desired(Map.of("vgpu.io/mode", "device-plugin"), DRA)).isEqualTo(DP);
        assertThat(AgentMode.desired(Map.of("vgpu.io/mode", "DRA"), DRA)).as("any other value").isEqualTo(DP);
        assertThat(AgentMode.desired(Map.of(), DRA)).isEqualTo(DRA);
        assertThat(AgentMode.desired(Map.of(), DP)).isEqualTo(DP);
    }
}
