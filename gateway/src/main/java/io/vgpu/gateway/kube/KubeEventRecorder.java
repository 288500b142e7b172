package io.vgpu.gateway.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.vgpu.gateway.core.port.EventSink;
import io.vgpu.gateway.core.port.PodAddress;
import io.vgpu.gateway.core.port.SchedulerEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link EventSink} writing core/v1 Events, as client-go's recorder does for HAMi: involvedObject = the pod,
 * {@code source.component} = the scheduler name, name {@code <pod>.<hex nanos>}. Never blocks and never
 * queues without bound: past {@code maxInFlight} writes, or when the API client has no rate token free at
 * once, the event is dropped (and counted), so that Events never delay filters and binds.
 */
public final class KubeEventRecorder implements EventSink {

    private static final Logger LOG = LoggerFactory.getLogger(KubeEventRecorder.class);
    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ISO_INSTANT;

    private final KubeApi api;
    private final String component;
    private final int maxInFlight;
    private final Clock clock;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong lastNanos = new AtomicLong();

    /**
     * @param api         the gateway's API client
     * @param component   the event source component: the scheduler name
     * @param maxInFlight event writes allowed in flight; more are dropped
     * @param clock       time source for timestamps and names
     */
    public KubeEventRecorder(KubeApi api, String component, int maxInFlight, Clock clock) {
        this.api = api;
        this.component = component;
        this.maxInFlight = maxInFlight;
        this.clock = clock;
    }

    @Override
    public CompletionStage<Boolean> record(PodAddress pod, SchedulerEvent event) {
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            return drop(pod, event, "too many event writes in flight");
        }
        String body;
        try {
            body = api.serialization().asJson(toEvent(pod, event, clock.instant()));
        } catch (RuntimeException e) {
            inFlight.decrementAndGet();
            return drop(pod, event, e.toString());
        }
        return api.post(KubePaths.events(pod.namespace()), body, KubeApi.Priority.BEST_EFFORT).thenApply(r -> {
            inFlight.decrementAndGet();
            if (!r.ok()) {
                dropped.incrementAndGet();
                LOG.debug("event {} for {} not written: {}", event.reason(), pod, r.error());
            }
            return r.ok();
        });
    }

    /**
     * False, counting the event as dropped, when its write would be dropped at once: too many event writes in flight,
     * or the API client would refuse it (no rate token, too many calls in flight; counted in its metrics as such).
     */
    @Override
    public boolean admits(PodAddress pod) {
        if (inFlight.get() < maxInFlight && api.admitsBestEffort("POST", KubePaths.events(pod.namespace()))) {
            return true;
        }
        dropped.incrementAndGet();
        return false;
    }

    /** Events dropped or refused since start (for metrics). */
    public long dropped() {
        return dropped.get();
    }

    private CompletionStage<Boolean> drop(PodAddress pod, SchedulerEvent event, String why) {
        dropped.incrementAndGet();
        LOG.debug("event {} for {} dropped: {}", event.reason(), pod, why);
        return CompletableFuture.completedFuture(false);
    }

    /** The Event object; timestamps in whole seconds (MicroTime is not used by core/v1 Events). */
    Event toEvent(PodAddress pod, SchedulerEvent event, Instant now) {
        String stamp = RFC3339.format(now.truncatedTo(ChronoUnit.SECONDS));
        return new EventBuilder()
                .withNewMetadata().withName(pod.name() + "." + Long.toHexString(uniqueNanos(now)))
                .withNamespace(pod.namespace()).endMetadata()
                .withNewInvolvedObject().withApiVersion("v1").withKind("Pod").withNamespace(pod.namespace())
                .withName(pod.name()).withUid(pod.uid().isEmpty() ? null : pod.uid()).endInvolvedObject()
                .withReason(event.reason())
                .withMessage(event.message())
                .withType(event.type().name())
                .withNewSource().withComponent(component).endSource()
                .withReportingComponent(component)
                .withFirstTimestamp(stamp)
                .withLastTimestamp(stamp)
                .withCount(1)
                .build();
    }

    /** Nanoseconds since the epoch, strictly increasing within this recorder (names must not collide). */
    private long uniqueNanos(Instant now) {
        long nanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
        return lastNanos.updateAndGet(last -> Math.max(last + 1, nanos));
    }
}
