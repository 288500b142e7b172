package io.vgpu.loadtest.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vgpu.state.codec.HamiAnnotations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The load: pods created through {@code /webhook}, several kube-schedulers ({@code /filter} then {@code /bind},
 * each call to a random replica, aimed at few nodes), the HAMi device plugin after each bind (checks that the node
 * lock names the pod, sets {@code bind-phase=success}, removes the lock), and churn (pods run briefly, then some end
 * {@code Succeeded} and all are deleted; every 40th pod of the first third runs 120 s, across a restart of every
 * replica), keeping at most {@link ChaosSettings#livePods()} pods alive.
 *
 * <p>Like kube-scheduler, a scheduler worker re-queues a pod after no fit or an error with a back-off, and after a
 * failed bind it checks the API first, since the bind may have landed although its answer was lost with a dying
 * replica. A call that finds its replica down goes to another replica (as a Service would once the endpoint is
 * removed).
 *
 * <p>Two side scenarios probe what the main load cannot reach: every {@link ChaosSettings#abandonEvery()} a pod is
 * filtered onto the idle nodes and never bound (kube-scheduler gave up on it) until its reservation is long expired,
 * so that only the owner's sweeper can remove it; and every {@link ChaosSettings#duplicateBindEvery()}-th placed pod
 * is bound again to another node (a scheduler whose cache has not seen the binding), which the gateway must refuse
 * without a Binding.
 */
final class Workload {

    private static final Logger LOG = LoggerFactory.getLogger(Workload.class);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);
    private static final int REPLICA_TRIES = 6;
    private static final String CONFLICT = "reservation conflict";
    private static final int KUBELETS = 4;
    private static final long EVENT_TTL_MILLIS = 10_000;
    private static final long ALL_DOWN_PAUSE_MILLIS = 500;
    /** Every this-many-th pod of the first third runs {@link #LONG_RUN} ({@link #runMillis}). */
    private static final int LONG_RUN_EVERY = 40;
    private static final Duration LONG_RUN = Duration.ofSeconds(120);

    private final ChaosCluster cluster;
    /** Restarts of every replica completed, and when the last one was (for the long pods). */
    private final AtomicInteger fullRestarts = new AtomicInteger();
    private volatile long lastFullRestartMillis;
    private final ChaosSettings settings;
    private final ChaosStats stats;
    private final Violations violations;
    private final KubernetesClient kube;
    private final GatewayHttp http;
    private final Map<String, PodRecord> pods = new ConcurrentHashMap<>();
    private final DelayQueue<Due> pending = new DelayQueue<>();
    private final DelayQueue<Due> kubelet = new DelayQueue<>();
    private final AtomicInteger live = new AtomicInteger();
    private final AtomicInteger created = new AtomicInteger();
    private final AtomicInteger finished = new AtomicInteger();
    private final Map<Integer, Long> downUntil = new ConcurrentHashMap<>();
    private final AtomicReference<KillWindow> window = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();
    private final String nodeNamesJson;
    private final String idleNodeNamesJson;
    /** Abandoned pods not deleted yet, oldest first. */
    private final Queue<PodRecord> abandoned = new ConcurrentLinkedQueue<>();
    private volatile boolean stopping;

    Workload(ChaosCluster cluster, ChaosStats stats, Violations violations) {
        this.cluster = cluster;
        this.settings = cluster.settings();
        this.stats = stats;
        this.violations = violations;
        this.kube = cluster.kube();
        this.http = cluster.http();
        this.nodeNamesJson = namesJson(cluster.nodeNames());
        this.idleNodeNamesJson = namesJson(cluster.idleNodeNames());
    }

    private static String namesJson(List<String> nodes) {
        ArrayNode names = GatewayHttp.JSON.createArrayNode();
        nodes.forEach(names::add);
        return names.toString();
    }

    /** Every pod the run created, by name (the checker reads them). */
    Map<String, PodRecord> pods() {
        return pods;
    }

    /** Starts the creator, the scheduler workers and the kubelet workers. */
    void start() {
        thread("creator", this::createPods);
        for (int i = 0; i < settings.schedulers(); i++) {
            long seed = settings.seed() * 31 + i;
            thread("scheduler-" + i, () -> schedule(new SplittableRandom(seed)));
        }
        thread("event-ttl", this::expireEvents);
        if (!settings.abandonEvery().isZero() && !cluster.idleNodeNames().isEmpty()) {
            thread("abandoner", this::abandonPods);
        }
        for (int i = 0; i < KUBELETS; i++) {
            long seed = settings.seed() * 17 + i;
            thread("kubelet-" + i, () -> kubelet(new SplittableRandom(seed)));
        }
    }

    /** Whether every pod has been created, placed, run and deleted. */
    boolean done() {
        return created.get() >= settings.pods() && finished.get() >= settings.pods();
    }

    int created() {
        return created.get();
    }

    int finished() {
        return finished.get();
    }

    /** Stops every thread and deletes the abandoned pods still waiting (other pods still alive stay in the API). */
    void stop() {
        stopping = true;
        threads.forEach(Thread::interrupt);
        for (Thread t : threads) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (PodRecord p = abandoned.poll(); p != null; p = abandoned.poll()) {
            deleteAbandoned(p);
        }
    }

    /** From now on, failed calls and slow answers count towards this kill's record. */
    void watchKill(KillWindow w) {
        window.set(w);
    }

    void endKillWatch() {
        KillWindow w = window.getAndSet(null);
        if (w != null) {
            w.close();
        }
    }

    /** The replica is down: calls skip it for a moment (a Service drops a failing endpoint). */
    void markDown(int replica, long millis) {
        downUntil.put(replica, System.currentTimeMillis() + millis);
    }

    void markUp(int replica) {
        downUntil.remove(replica);
    }

    // ------------------------------------------------------------------ creator

    private void createPods() {
        SplittableRandom random = new SplittableRandom(settings.seed());
        while (!stopping && created.get() < settings.pods()) {
            if (live.get() >= settings.livePods()) {
                pause(5);
                continue;
            }
            PodRecord record = createPod("p-" + created.get(), random);
            if (record == null) {
                pause(50);
                continue;
            }
            live.incrementAndGet();
            created.incrementAndGet();
            stats.podsCreated.increment();
            pending.add(new Due(record, 0));
        }
    }

    /** Creates a pod through the webhook and the API server; null when either failed. */
    private PodRecord createPod(String name, SplittableRandom random) {
        try {
            Pod admitted = admit(podTemplate(name, random), random);
            Pod stored = kube.pods().inNamespace(ChaosCluster.NAMESPACE).resource(admitted).create();
            PodRecord record = new PodRecord(name, stored, System.currentTimeMillis());
            pods.put(name, record);
            return record;
        } catch (IOException | KubernetesClientException | IllegalStateException e) {
            LOG.debug("creating {} failed, retrying: {}", name, e.toString());
            return null;
        }
    }

    private Pod podTemplate(String name, SplittableRandom random) {
        int mem = 1_000 * (2 + random.nextInt(5));
        int cores = 10 * random.nextInt(4);
        ContainerBuilder c = new ContainerBuilder().withName("cuda").withImage("nvidia/cuda").withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                .addToLimits("nvidia.com/gpumem", new Quantity(Integer.toString(mem)))
                .addToLimits("nvidia.com/gpucores", new Quantity(Integer.toString(cores))).endResources();
        // half the pods pack (all racing for the fullest node), half spread (racing for the emptiest)
        String policy = random.nextBoolean() ? "binpack" : "spread";
        return new PodBuilder().withNewMetadata().withNamespace(ChaosCluster.NAMESPACE).withName(name)
                .addToAnnotations(HamiAnnotations.NODE_SCHEDULER_POLICY, policy).endMetadata()
                .withNewSpec().withSchedulerName("default-scheduler").addToContainers(c.build()).endSpec().build();
    }

    /** What the API server does with a new pod: the CREATE review to {@code /webhook}, then its JSONPatch. */
    private Pod admit(Pod pod, SplittableRandom random) throws IOException {
        JsonNode object = GatewayHttp.JSON.readTree(kube.getKubernetesSerialization().asJson(pod));
        ObjectNode review = GatewayHttp.JSON.createObjectNode().put("apiVersion", "admission.k8s.io/v1")
                .put("kind", "AdmissionReview");
        review.putObject("request").put("uid", UUID.randomUUID().toString())
                .put("namespace", ChaosCluster.NAMESPACE).put("operation", "CREATE").set("object", object);
        stats.webhookCalls.increment();
        JsonNode response = call(random, "/webhook", review.toString()).json().path("response");
        if (!response.path("allowed").asBoolean()) {
            throw new IllegalStateException("webhook refused " + pod.getMetadata().getName() + ": " + response);
        }
        if (response.has("patch")) {
            JsonNode patch = GatewayHttp.JSON.readTree(new String(Base64.getDecoder()
                    .decode(response.get("patch").asText()), StandardCharsets.UTF_8));
            JsonPatch.apply(object, patch);
        }
        Pod admitted = kube.getKubernetesSerialization().unmarshal(object.toString(), Pod.class);
        if (!ChaosCluster.SCHEDULER.equals(admitted.getSpec().getSchedulerName())) {
            throw new IllegalStateException("the webhook did not hand the pod to " + ChaosCluster.SCHEDULER);
        }
        return admitted;
    }

    // ------------------------------------------------------------------ kube-schedulers

    private void schedule(SplittableRandom random) {
        while (!stopping) {
            Due due;
            try {
                due = pending.poll(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (due != null) {
                try {
                    scheduleOnce(due.pod, random);
                } catch (RuntimeException e) {
                    LOG.warn("scheduling {} failed unexpectedly", due.pod.name, e);
                    retryLater(due.pod, 500);
                }
            }
        }
    }

    private void scheduleOnce(PodRecord p, SplittableRandom random) {
        if (p.verifyBeforeFilter && boundMeanwhile(p)) {
            return;
        }
        p.verifyBeforeFilter = false;
        p.attempts++;
        long start = System.nanoTime();
        JsonNode filtered;
        try {
            stats.filterCalls.increment();
            filtered = call(random, "/filter", "{\"Pod\":" + kube.getKubernetesSerialization().asJson(p.pod)
                    + ",\"Nodes\":null,\"NodeNames\":" + nodeNamesJson + "}").json();
        } catch (IOException e) {
            stats.filterErrors.increment();
            retryLater(p, 1_000); // kube-scheduler backs off an unreachable extender
            return;
        }
        if (!filtered.path("Error").asText("").isEmpty()) {
            stats.filterErrors.increment();
            retryLater(p, 200);
            return;
        }
        JsonNode chosen = filtered.path("NodeNames");
        if (!chosen.isArray() || chosen.isEmpty()) {
            stats.noFit.increment();
            if (filtered.path("FailedNodes").toString().contains(CONFLICT)) {
                stats.noFitAfterConflict.increment();
            }
            retryLater(p, 100 + random.nextInt(200));
            return;
        }
        stats.reservations.increment();
        bind(p, chosen.get(0).asText(), start, random);
    }

    private void bind(PodRecord p, String node, long start, SplittableRandom random) {
        String body = GatewayHttp.JSON.createObjectNode().put("PodName", p.name)
                .put("PodNamespace", ChaosCluster.NAMESPACE).put("PodUID", p.uid()).put("Node", node).toString();
        p.bindInFlight = true;
        try {
            stats.bindCalls.increment();
            String error = call(random, "/bind", body).json().path("Error").asText("");
            if (error.isEmpty()) {
                stats.decided(start);
                if (settings.duplicateBindEvery() > 0 && stats.decisions.sum() % settings.duplicateBindEvery() == 0) {
                    bindElsewhere(p, node, random);
                }
                bound(p, node);
                return;
            }
            stats.bindErrors.increment();
            p.bindFailed = true;
        } catch (IOException e) {
            stats.bindErrors.increment();
            p.bindInterrupted = true;
            p.bindInFlight = false;
            // the answer died with its replica, but the binding may have landed: the kubelet would see the pod
            // bound at once, whatever the scheduler does next, so it looks now
            p.verifyBeforeFilter = true;
            kubelet.add(new Due(p, 500));
            return;
        } finally {
            p.bindInFlight = false;
        }
        // kube-scheduler: forget the pod, back off, and skip it if it turns out to be assigned meanwhile
        p.verifyBeforeFilter = true;
        retryLater(p, 1_000);
    }

    /**
     * A second scheduler whose cache has not seen the binding yet binds the pod to another node: the gateway must
     * answer an error, and must not try the Binding (the API server records any attempt).
     */
    private void bindElsewhere(PodRecord p, String node, SplittableRandom random) {
        List<String> others = cluster.nodeNames().stream().filter(n -> !n.equals(node)).toList();
        if (others.isEmpty()) {
            return;
        }
        String other = others.get(random.nextInt(others.size()));
        String body = GatewayHttp.JSON.createObjectNode().put("PodName", p.name)
                .put("PodNamespace", ChaosCluster.NAMESPACE).put("PodUID", p.uid()).put("Node", other).toString();
        stats.duplicateBinds.increment();
        try {
            if (call(random, "/bind", body).json().path("Error").asText("").isEmpty()) {
                violations.add("second-placement", p.uid(), "pod " + p.name + ", bound to " + node
                        + ", was bound again to " + other + " and the gateway answered success");
            }
        } catch (IOException e) {
            LOG.debug("late bind of {} to {} failed: {}", p.name, other, e.toString());
        }
    }

    /** A live read: an earlier bind may have landed although its answer was lost. */
    private boolean boundMeanwhile(PodRecord p) {
        Pod current;
        try {
            current = kube.pods().inNamespace(ChaosCluster.NAMESPACE).withName(p.name).get();
        } catch (KubernetesClientException e) {
            retryLater(p, 500);
            return true;
        }
        if (current == null) {
            throw new IllegalStateException("pod " + p.name + " vanished while pending");
        }
        p.pod = current;
        String node = current.getSpec().getNodeName();
        if (node == null || node.isEmpty()) {
            return false;
        }
        stats.boundDespiteError.increment();
        bound(p, node);
        return true;
    }

    private void bound(PodRecord p, String node) {
        p.placedAtMillis = System.currentTimeMillis();
        p.node = node;
        p.phase = PodRecord.Phase.BOUND;
        kubelet.add(new Due(p, 5 + (System.nanoTime() & 15)));
    }

    private void retryLater(PodRecord p, long millis) {
        if (!stopping) {
            pending.add(new Due(p, millis));
        }
    }

    // ------------------------------------------------------------------ kubelet + device plugin, churn

    private void kubelet(SplittableRandom random) {
        while (!stopping) {
            Due due;
            try {
                due = kubelet.poll(200, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (due == null) {
                continue;
            }
            PodRecord p = due.pod;
            try {
                if (p.phase == PodRecord.Phase.PENDING) {
                    if (!boundMeanwhile(p)) {
                        retryLater(p, 500);
                    }
                } else if (p.phase == PodRecord.Phase.BOUND) {
                    allocate(p, due.tries);
                    if (p.phase == PodRecord.Phase.RUNNING) {
                        kubelet.add(new Due(p, runMillis(p, random)));
                    }
                } else if (p.phase == PodRecord.Phase.RUNNING) {
                    if (longRunOver(p)) {
                        complete(p, random);
                    } else {
                        kubelet.add(new Due(p, 1_000));
                    }
                }
            } catch (KubernetesClientException e) {
                LOG.debug("kubelet step for {} failed, retrying: {}", p.name, e.toString());
                Due again = new Due(p, 100);
                again.tries = due.tries;
                kubelet.add(again);
            }
        }
    }

    /**
     * HAMi's device plugin on Allocate: the node lock must name the pod; then {@code bind-phase=success} and the
     * lock is removed (guarded by the node's resourceVersion, so a lock taken meanwhile is never removed).
     */
    private void allocate(PodRecord p, int tries) {
        Node node = kube.nodes().withName(p.node).get();
        String lock = node.getMetadata().getAnnotations() == null ? null
                : node.getMetadata().getAnnotations().get(HamiAnnotations.NODE_LOCK);
        String owner = "," + ChaosCluster.NAMESPACE + "," + p.name;
        if (lock == null || !lock.endsWith(owner)) {
            if (tries < 30) {
                Due again = new Due(p, 100);
                again.tries = tries + 1;
                kubelet.add(again);
                return;
            }
            // HAMi's plugin fails Allocate; the kubelet fails the pod
            stats.allocateWithoutLock.increment();
            violations.add("unlocked-bind", p.uid(), "device plugin on " + p.node + ": the node lock " + lock
                    + " does not name " + p.name + ", bound there (HAMi's Allocate fails such a pod)");
            p.endingAtMillis = System.currentTimeMillis();
            patchPod(p, "{\"metadata\":{\"annotations\":{\"hami.io/bind-phase\":\"failed\"}},"
                    + "\"status\":{\"phase\":\"Failed\"}}");
            p.phase = PodRecord.Phase.RUNNING;
            return;
        }
        patchPod(p, "{\"metadata\":{\"annotations\":{\"hami.io/bind-phase\":\"success\"}}}");
        String rv = node.getMetadata().getResourceVersion();
        kube.nodes().withName(p.node).patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"metadata\":{\"resourceVersion\":\"" + rv + "\",\"annotations\":{\"hami.io/mutex.lock\":null}}}");
        stats.pluginAllocations.increment();
        p.phase = PodRecord.Phase.RUNNING;
    }

    /**
     * How long a pod runs: 0.2–1.2 s, except every {@value #LONG_RUN_EVERY}th of the first third of the pods, which
     * runs until it has outlived a restart of every replica ({@link #longRunOver}): the rebuilt state must charge it
     * again from the API server (the "uncharged" invariant; a brief pod is gone before the replicas are back). Only
     * the first third, so that they end long before the last pod, and none once no such restart is to come.
     */
    private long runMillis(PodRecord p, SplittableRandom random) {
        int index = p.name.startsWith("p-") ? Integer.parseInt(p.name.substring(2)) : 0;
        int restartsSoFar = fullRestarts.get();
        if (index < settings.pods() / 3 && index % LONG_RUN_EVERY == LONG_RUN_EVERY - 1
                && restartsSoFar < plannedFullRestarts()) {
            p.longRunUntilMillis = System.currentTimeMillis() + LONG_RUN.toMillis();
            p.fullRestartsBeforeRun = restartsSoFar;
            return 1_000;
        }
        return 200 + random.nextInt(1_000);
    }

    /**
     * Whether a pod may end now: a brief one always; a long one after {@link #LONG_RUN}, or earlier once a restart of
     * every replica that began after it started running has been complete for {@link #afterFullRestart()}: long
     * enough for a check to flag its charge missing from the rebuilt state. A fixed 120 s run made the CI-sized run
     * wait about 40 s for its last long pods after every other pod was done, and longer on a slower machine.
     */
    private boolean longRunOver(PodRecord p) {
        if (p.longRunUntilMillis == 0) {
            return true;
        }
        long now = System.currentTimeMillis();
        return now >= p.longRunUntilMillis || fullRestarts.get() > p.fullRestartsBeforeRun
                && now >= lastFullRestartMillis + afterFullRestart().toMillis();
    }

    /**
     * How long a long pod outlives a restart of every replica: {@link ChargedWherePlaced} flags a missing charge once
     * its owner was seen for one ingest and the slack (twice the stale replica's delay more on its nodes); a check
     * period before the first round sees the new owner, two more for a round past that bound to run.
     */
    private Duration afterFullRestart() {
        return ChargedOnce.MOVE_BOUND.plus(ChaosSettings.SLACK).plus(settings.informerDelay().multipliedBy(2))
                .plus(settings.checkEvery().multipliedBy(3));
    }

    private int plannedFullRestarts() {
        return settings.fullRestartEvery() == 0 ? 0 : settings.kills() / settings.fullRestartEvery();
    }

    /** A restart of every replica is complete (every replica formed and safe again): long pods may end soon. */
    void fullRestartDone() {
        lastFullRestartMillis = System.currentTimeMillis();
        fullRestarts.incrementAndGet();
    }

    private void complete(PodRecord p, SplittableRandom random) {
        p.endingAtMillis = System.currentTimeMillis();
        if (random.nextInt(10) < 3) {
            patchPod(p, "{\"status\":{\"phase\":\"Succeeded\"}}");
        }
        kube.pods().inNamespace(ChaosCluster.NAMESPACE).withName(p.name).delete();
        p.deletedAtMillis = System.currentTimeMillis();
        p.phase = PodRecord.Phase.DELETED;
        stats.podsDeleted.increment();
        live.decrementAndGet();
        finished.incrementAndGet();
    }

    // ------------------------------------------------------------------ abandoned filters

    /**
     * Every {@link ChaosSettings#abandonEvery()}: a pod filtered onto the idle nodes and never bound (kube-scheduler
     * gave up on it: another plugin refused the node, or it crashed). It stays pending until its reservation is long
     * past the sweep bound; nothing but the owner's sweeper removes that reservation (no other reserve, confirm or
     * bind touches an idle node), then it is deleted. No new one once the load is done.
     */
    private void abandonPods() {
        SplittableRandom random = new SplittableRandom(settings.seed() * 13 + 5);
        long abandonFor = settings.abandonFor().toMillis();
        long next = System.currentTimeMillis() + settings.abandonEvery().toMillis();
        int seq = 0;
        while (!stopping) {
            pause(200);
            long now = System.currentTimeMillis();
            PodRecord oldest = abandoned.peek();
            if (oldest != null && now - oldest.createdAtMillis > abandonFor && abandoned.remove(oldest)) {
                deleteAbandoned(oldest);
            }
            if (now < next || done() || stopping) {
                continue;
            }
            next = now + settings.abandonEvery().toMillis();
            PodRecord p = createPod("a-" + seq++, random);
            if (p == null) {
                continue;
            }
            p.abandoned = true;
            abandoned.add(p);
            stats.abandoned.increment();
            try {
                JsonNode filtered = call(random, "/filter", "{\"Pod\":" + kube.getKubernetesSerialization()
                        .asJson(p.pod) + ",\"Nodes\":null,\"NodeNames\":" + idleNodeNamesJson + "}").json();
                if (filtered.path("NodeNames").size() > 0) {
                    stats.abandonedReserved.increment();
                }
            } catch (IOException e) {
                LOG.debug("filter of abandoned {} failed: {}", p.name, e.toString());
            }
        }
    }

    private void deleteAbandoned(PodRecord p) {
        try {
            kube.pods().inNamespace(ChaosCluster.NAMESPACE).withName(p.name).delete();
            p.deletedAtMillis = System.currentTimeMillis();
            p.phase = PodRecord.Phase.DELETED;
        } catch (KubernetesClientException e) {
            LOG.warn("deleting abandoned {} failed: {}", p.name, e.toString());
        }
    }

    private void patchPod(PodRecord p, String mergePatch) {
        kube.pods().inNamespace(ChaosCluster.NAMESPACE).withName(p.name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    /**
     * The API server's event TTL (1 h by default; {@link #EVENT_TTL_MILLIS} here): the scheduling Events the
     * gateways write would otherwise pile up in the mock, whose cost grows with its object count.
     */
    private void expireEvents() {
        while (!stopping) {
            pause(EVENT_TTL_MILLIS);
            try {
                stats.eventsExpired.add(kube.v1().events().inNamespace(ChaosCluster.NAMESPACE).delete().size());
            } catch (KubernetesClientException e) {
                LOG.debug("expiring events failed: {}", e.toString());
            }
        }
    }

    // ------------------------------------------------------------------ calls to replicas

    /** POSTs to a random replica that is not known to be down; another one when it turns out to be down. */
    private GatewayHttp.Reply call(SplittableRandom random, String path, String body) throws IOException {
        IOException last = null;
        int n = settings.replicas();
        int first = random.nextInt(n);
        for (int i = 0; i < REPLICA_TRIES; i++) {
            int index = (first + i) % n;
            Long down = downUntil.get(index);
            if (down != null && down > System.currentTimeMillis() && i < n) {
                continue;
            }
            GatewayReplica replica = cluster.replicas().get(index);
            long start = System.nanoTime();
            try {
                GatewayHttp.Reply reply = http.post(replica.apiPort(), path, body, CALL_TIMEOUT);
                observe(start, reply.status() == 200);
                return reply;
            } catch (IOException e) {
                observe(start, false);
                last = e;
                stats.failoverRetries.increment();
                markDown(index, 1_000);
                if (!"/webhook".equals(path) && !"/filter".equals(path) && isMidCall(e)) {
                    throw e; // a bind may have been half done: the caller must check before retrying
                }
            }
        }
        // every replica is down (all killed at once): this caller backs off instead of spinning
        pause(ALL_DOWN_PAUSE_MILLIS);
        throw last == null ? new IOException("every replica is down") : last;
    }

    /** The connection broke after the request went out (not refused). */
    private static boolean isMidCall(IOException e) {
        String text = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return !(e instanceof ConnectException) && !text.contains("connection refused");
    }

    private void observe(long startNanos, boolean ok) {
        KillWindow w = window.get();
        if (w != null) {
            w.record((System.nanoTime() - startNanos) / 1_000_000, ok);
        }
    }

    private void thread(String name, Runnable body) {
        Thread t = new Thread(body, "chaos-" + name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What the driver saw while a kill was being absorbed: failed calls, the slowest answer, the longest outage. */
    static final class KillWindow {
        private long failed;
        private long slowest;
        private long lastOkNanos = System.nanoTime();
        private long longestGapNanos;
        private long closedNanos;

        synchronized void record(long millis, boolean ok) {
            if (closedNanos != 0) {
                return;
            }
            if (!ok) {
                failed++;
            } else {
                long now = System.nanoTime();
                longestGapNanos = Math.max(longestGapNanos, now - lastOkNanos);
                lastOkNanos = now;
            }
            slowest = Math.max(slowest, millis);
        }

        /** Stops recording (the survivors are safe again). */
        synchronized void close() {
            if (closedNanos == 0) {
                closedNanos = System.nanoTime();
            }
        }

        /** The longest time without any successful answer between the kill and {@link #close}, in ms. */
        synchronized long longestGap() {
            long end = closedNanos == 0 ? System.nanoTime() : closedNanos;
            return Math.max(longestGapNanos, end - lastOkNanos) / 1_000_000;
        }

        synchronized long failed() {
            return failed;
        }

        synchronized long slowest() {
            return slowest;
        }
    }

    /** A pod due for its next step at a time. */
    private static final class Due implements Delayed {
        private final PodRecord pod;
        private final long atNanos;
        private int tries;

        Due(PodRecord pod, long delayMillis) {
            this.pod = pod;
            this.atNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis);
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(atNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(atNanos, ((Due) other).atNanos);
        }
    }
}
