package io.vgpu.gateway.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.vgpu.gateway.core.health.HandshakeRule;
import io.vgpu.gateway.core.health.HandshakeStep;
import io.vgpu.gateway.core.health.HealthVerdict;
import io.vgpu.gateway.core.health.NodeHealthMemory;
import io.vgpu.gateway.core.health.NvidiaHealth;
import io.vgpu.gateway.core.nodelock.LockNode;
import io.vgpu.gateway.core.nodelock.LockRetry;
import io.vgpu.gateway.core.nodelock.LockStep;
import io.vgpu.gateway.core.nodelock.NodeRead;
import io.vgpu.gateway.core.nodelock.OwnerLookup;
import io.vgpu.gateway.core.nodelock.NamespacedName;
import io.vgpu.gateway.core.nodelock.ReleaseNodeLock;
import io.vgpu.gateway.core.nodelock.ReleaseStep;
import io.vgpu.gateway.core.nodelock.SetNodeLock;
import io.vgpu.gateway.core.nodelock.SetStep;
import io.vgpu.state.codec.Decoded;
import io.vgpu.state.codec.GoDuration;
import io.vgpu.state.codec.HamiAnnotations;
import io.vgpu.state.codec.HandshakeCodec;
import io.vgpu.state.codec.NodeLock;
import io.vgpu.state.codec.NodeLockCodec;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kind {@code nodelock_health}: the node lock protocol and the handshake health rules.
 *
 * <p>Time placeholders are expanded against a fixed clock ({@link #NOW}) in the JVM's default zone,
 * which stands for the scheduler's local zone. {@code lock_node} and {@code release_node_lock} run the
 * pure decisions of {@code io.vgpu.gateway.core.nodelock} against a one-node in-memory API ({@link FakeNode}),
 * exactly as an adapter would drive them. Runner conventions (the vectors leave them implicit):
 * <ul>
 *   <li>{@code <node>} in expected messages is the node name the runner uses;</li>
 *   <li>a {@code release_node_lock} case whose expected {@code lock_after} is a lock different from
 *       {@code current_lock} describes a concurrent writer: that value is written between the releaser's
 *       read and its guarded patch (which then conflicts), as in HAMi's
 *       {@code TestReleaseNodeLockPreservesConcurrentLockAfterConflict};</li>
 *   <li>the live {@code GET node} of the handshake rule succeeds unless {@code input.node_get_ok} says
 *       otherwise or the case comes from a Go unit test ({@code source.file} ends in {@code _test.go} and
 *       {@code source.test} is not {@code code-derived}), which runs without an API server.</li>
 * </ul>
 */
public final class NodelockHealthVectors implements VectorFamily {

    static final Instant NOW = Instant.parse("2026-08-01T06:00:00Z");
    static final ZoneId ZONE = ZoneId.systemDefault();
    static final String NODE = "node-1";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{now(?:-(\\d+)s)?(?::([^}]*))?}(@legacy)?");

    /** Used reflectively by the conformance harness. */
    public NodelockHealthVectors() {
    }

    @Override
    public List<String> check(JsonNode defaults, JsonNode testCase) {
        JsonNode in = testCase.path("input");
        JsonNode expect = testCase.path("expect");
        Mismatches m = new Mismatches();
        switch (testCase.path("op").asText()) {
            case "pod_namespace_name" -> m.expect("value", expect.path("value").asText(), NodeLockCodec.podNamespaceName(
                    in.path("namespace").asText(), in.path("name").asText(), in.path("sep").asText()));
            case "lock_value" -> {
                OffsetDateTime now = OffsetDateTime.parse(in.path("now").asText());
                m.expect("value", expect.path("value").asText(), NodeLockCodec.value(now.toInstant(), now.getOffset(),
                        in.path("namespace").asText(), in.path("name").asText()));
            }
            case "parse_lock" -> parseLock(in, expect, m);
            case "lock_node" -> lockNode(defaults, in, expect, m);
            case "release_node_lock" -> releaseNodeLock(in, expect, m);
            case "handshake_check" -> {
                HealthVerdict v = handshake(testCase, in, m);
                expectVerdict(expect, v, m);
            }
            case "nvidia_check_health" -> {
                HealthVerdict generic = handshake(testCase, in, null);
                NodeHealthMemory memory = new NodeHealthMemory(in.path("reported_count").asLong(),
                        textOrNull(in, "cached_register_annotation"));
                NvidiaHealth.Result r = NvidiaHealth.check(generic, in.path("allocatable_count").asLong(),
                        textOrNull(in, "register_annotation"), memory);
                expectVerdict(expect, r.verdict(), m);
            }
            default -> m.fail("unknown op " + testCase.path("op"));
        }
        return m.list();
    }

    // ---------------------------------------------------------------- node lock

    private static void parseLock(JsonNode in, JsonNode expect, Mismatches m) {
        Decoded<NodeLock> lock = NodeLockCodec.parse(expand(in.path("value").asText()));
        m.expect("ok", expect.path("ok").asBoolean(), lock.isOk());
        if (lock.isOk() && expect.path("ok").asBoolean()) {
            m.expect("time", Instant.parse(expect.path("time").asText()), lock.value().time());
            m.expect("namespace", expect.path("namespace").asText(), lock.value().namespace());
            m.expect("name", expect.path("name").asText(), lock.value().name());
        } else if (!lock.isOk()) {
            if (expect.has("error")) {
                m.expect("error", expect.get("error").asText(), lock.error());
            }
            if ("time_parse".equals(expect.path("error_kind").asText()) && !lock.error().startsWith("parsing time ")) {
                m.fail("expected a time parse error but was: " + lock.error());
            }
        }
    }

    private static void lockNode(JsonNode defaults, JsonNode in, JsonNode expect, Mismatches m) {
        Decoded<Duration> timeout = GoDuration.parse(VectorJson.field(in, defaults, "timeout").asText());
        if (!timeout.isOk()) {
            m.fail("timeout: " + timeout.error());
            return;
        }
        FakeNode node = new FakeNode(in.path("node_exists").asBoolean(), expand(textOrNull(in, "current_lock")));
        NamespacedName requester = requester(in);
        Outcome outcome = lock(node, requester, timeout.value(), in.get("lock_owner_pod_exists"));
        expectOutcome(expect, outcome, node, m);
    }

    private static Outcome lock(FakeNode node, NamespacedName requester, Duration timeout, JsonNode ownerExists) {
        LockStep step = LockNode.decide(node.get(), NODE, requester, timeout, NOW);
        if (step instanceof LockStep.LookUpOwner lookUp) {
            if (ownerExists == null || ownerExists.isNull()) {
                return new Outcome("error", "vector does not say whether owner " + lookUp.owner() + " exists");
            }
            step = lookUp.resolve(ownerExists.asBoolean() ? new OwnerLookup.Exists() : new OwnerLookup.NotFound());
        }
        if (step instanceof LockStep.AlreadyHeld) {
            return new Outcome("already_held", null);
        }
        if (step instanceof LockStep.Contended c) {
            return new Outcome("contention", c.message());
        }
        if (step instanceof LockStep.Failed f) {
            return new Outcome("error", f.message());
        }
        LockStep.Acquire acquire = (LockStep.Acquire) step;
        if (acquire.staleLock() != null) {
            Outcome released = release(node, requester, true);
            if (!released.result().equals("ok")) {
                return released;
            }
        }
        return set(node, requester);
    }

    private static Outcome set(FakeNode node, NamespacedName requester) {
        SetStep pre = SetNodeLock.precheck(node.get(), NODE);
        if (pre instanceof SetStep.Contended c) {
            return new Outcome("contention", c.message());
        }
        if (pre instanceof SetStep.Failed f) {
            return new Outcome("error", f.message());
        }
        String cause = "no attempt made";
        for (int attempt = 1; attempt <= LockRetry.HAMI.steps(); attempt++) {
            SetStep step = SetNodeLock.attempt(node.get(), NODE, requester, NOW, ZONE);
            if (step instanceof SetStep.Done) {
                return new Outcome("acquired", null);
            }
            if (step instanceof SetStep.Contended c) {
                return new Outcome("contention", SetNodeLock.exhausted(NODE, c.message()));
            }
            if (step instanceof SetStep.Retry r) {
                cause = r.error();
            } else if (step instanceof SetStep.Patch p) {
                if (node.patch(p.value())) {
                    return new Outcome("acquired", null);
                }
                cause = FakeNode.CONFLICT;
            }
        }
        return new Outcome("error", SetNodeLock.exhausted(NODE, cause));
    }

    private static void releaseNodeLock(JsonNode in, JsonNode expect, Mismatches m) {
        String current = expand(textOrNull(in, "current_lock"));
        FakeNode node = new FakeNode(in.path("node_exists").asBoolean(), current);
        String after = expand(textOrNull(expect, "lock_after"));
        if (after != null && !after.equals(current)) {
            node.concurrentWrite = after;
        }
        Outcome outcome = release(node, requester(in), in.path("skip_owner_check").asBoolean(false));
        expectOutcome(expect, outcome, node, m);
    }

    private static Outcome release(FakeNode node, NamespacedName releaser, boolean skipOwnerCheck) {
        ReleaseStep first = ReleaseNodeLock.firstLook(node.get(), releaser, skipOwnerCheck);
        if (first instanceof ReleaseStep.Failed f) {
            return new Outcome("error", f.message());
        }
        if (first instanceof ReleaseStep.Leave) {
            return new Outcome("ok", null);
        }
        String expected = ((ReleaseStep.Remove) first).expectedLock();
        String cause = "no attempt made";
        for (int attempt = 1; attempt <= LockRetry.HAMI.steps(); attempt++) {
            ReleaseStep step = ReleaseNodeLock.recheck(node.get(), expected, releaser, skipOwnerCheck);
            if (step instanceof ReleaseStep.Leave) {
                return new Outcome("ok", null);
            }
            if (step instanceof ReleaseStep.Retry r) {
                cause = r.error();
            } else if (step instanceof ReleaseStep.Patch) {
                if (node.patch(null)) {
                    return new Outcome("ok", null);
                }
                cause = FakeNode.CONFLICT;
            }
        }
        return new Outcome("error", ReleaseNodeLock.exhausted(NODE, cause));
    }

    private static void expectOutcome(JsonNode expect, Outcome outcome, FakeNode node, Mismatches m) {
        m.expect("result", expect.path("result").asText(), outcome.result());
        if (expect.has("error")) {
            m.expect("error", expect.get("error").asText().replace("<node>", NODE), outcome.message());
        }
        if (expect.has("error_contains")) {
            String part = expect.get("error_contains").asText().replace("<node>", NODE);
            if (outcome.message() == null || !outcome.message().contains(part)) {
                m.fail("error: expected to contain <" + part + "> but was <" + outcome.message() + ">");
            }
        }
        if (expect.has("lock_after")) {
            m.expect("lock_after", expand(textOrNull(expect, "lock_after")), node.lock);
        }
    }

    private static NamespacedName requester(JsonNode in) {
        return new NamespacedName(in.path("requester").path("namespace").asText(), in.path("requester").path("name").asText());
    }

    /** What one lock or release call ended in. */
    private record Outcome(String result, String message) {
    }

    /** One node of an in-memory API server: live reads, guarded patches that a concurrent writer can make conflict. */
    private static final class FakeNode {
        static final String CONFLICT = "Operation cannot be fulfilled on nodes \"" + NODE
                + "\": the object has been modified; please apply your changes to the latest version and try again";
        private final boolean exists;
        private String lock;
        private String concurrentWrite;

        FakeNode(boolean exists, String lock) {
            this.exists = exists;
            this.lock = lock;
        }

        NodeRead get() {
            return exists ? new NodeRead.Found(lock) : new NodeRead.Failed("nodes \"" + NODE + "\" not found");
        }

        /** Sets (or with null removes) the lock; false when a concurrent writer got there first (409). */
        boolean patch(String value) {
            if (concurrentWrite != null) {
                lock = concurrentWrite;
                concurrentWrite = null;
                return false;
            }
            lock = value;
            return true;
        }
    }

    // ---------------------------------------------------------------- health

    private static HealthVerdict handshake(JsonNode testCase, JsonNode in, Mismatches m) {
        HandshakeStep step = HandshakeRule.check(expand(textOrNull(in, "handshake")), in.path("allocatable_count").asLong(),
                NOW, ZONE);
        if (step instanceof HandshakeStep.Settled settled) {
            if (m != null && testCase.path("expect").has("patch")) {
                m.fail("expected a handshake patch but none was written");
            }
            return settled.verdict();
        }
        HandshakeStep.Stamp stamp = (HandshakeStep.Stamp) step;
        boolean nodeRead = nodeGetSucceeds(testCase, in);
        if (m != null) {
            JsonNode expected = testCase.path("expect").get("patch");
            Map<String, String> written = nodeRead ? Map.of(HamiAnnotations.NODE_HANDSHAKE, stamp.value()) : Map.of();
            if (expected != null) {
                expected.fields().forEachRemaining(e -> m.expect("patch " + e.getKey(), expand(e.getValue().asText()),
                        written.get(e.getKey())));
            } else if (!written.isEmpty()) {
                m.fail("unexpected handshake patch " + written);
            }
        }
        return stamp.afterNodeGet(nodeRead);
    }

    private static boolean nodeGetSucceeds(JsonNode testCase, JsonNode in) {
        if (in.has("node_get_ok")) {
            return in.get("node_get_ok").asBoolean();
        }
        JsonNode source = testCase.path("source");
        boolean goUnitTest = source.path("file").asText().endsWith("_test.go")
                && !source.path("test").asText().startsWith("code-derived");
        return !goUnitTest;
    }

    private static void expectVerdict(JsonNode expect, HealthVerdict v, Mismatches m) {
        m.expect("healthy", expect.path("healthy").asBoolean(), v.healthy());
        m.expect("need_update", expect.path("need_update").asBoolean(), v.needUpdate());
    }

    // ---------------------------------------------------------------- placeholders

    /** Expands {@code {now}}, {@code {now-Ns}}, {@code {now:<layout>}}, {@code {now-Ns:<layout>}} and {@code {now}@legacy}. */
    static String expand(String text) {
        if (text == null) {
            return null;
        }
        Matcher matcher = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            Instant t = matcher.group(1) == null ? NOW : NOW.minusSeconds(Long.parseLong(matcher.group(1)));
            String layout = matcher.group(2);
            String formatted;
            if (layout == null) {
                formatted = NodeLockCodec.legacyValue(t, ZONE); // a bare RFC3339 time in the local zone
            } else if (layout.equals("2006-01-02 15:04:05")) {
                formatted = HandshakeCodec.stampTime(t, ZONE);
            } else {
                throw new IllegalArgumentException("unsupported time layout in placeholder: " + layout);
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(formatted));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    private static String textOrNull(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
