package io.vgpu.loadtest.chaos;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.vgpu.gateway.testing.SchedulerNameFields;
import io.vgpu.testsupport.MockWatchCloser;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;

/**
 * Makes the CRUD mock's pod watches lose no deletion. An informer lists, then watches from the list's
 * resourceVersion; a real API server replays every event since that version, but the mock only sends the objects
 * that exist when the watch opens, so a pod deleted between the list and the watch stays in that informer's cache
 * forever (a replica that restarts under churn would keep charging it). This keeps the pod deletions of the last
 * {@link #KEEP_NANOS} and sends them as {@code DELETED} to every pod watch that opens, where they match its
 * selection; a deletion of a pod the informer never had is a no-op for it.
 *
 * <p>Test-only reflection on the mock's internals (the set of open watches and their package-private listener
 * class), like {@link SchedulerNameFields}: if a fabric8 upgrade renames them, the first watch fails loudly.
 */
final class WatchReplay {

    private static final long KEEP_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final KubernetesSerialization JSON = new KubernetesSerialization();

    private final KubernetesCrudDispatcher crud;
    private final SchedulerNameFields extractor;
    private final Set<Object> watches;
    private final ConcurrentLinkedDeque<Tombstone> deleted = new ConcurrentLinkedDeque<>();
    private final Object watchOpening = new Object();
    /** Watches close off the mock's loop; one that closes leaves the open watches at once (nothing more is sent). */
    private final MockWatchCloser closer;

    private record Tombstone(long atNanos, String json, AttributeSet attributes) {
    }

    @SuppressWarnings("unchecked")
    WatchReplay(KubernetesCrudDispatcher crud, SchedulerNameFields extractor) {
        this.crud = crud;
        this.extractor = extractor;
        try {
            Field field = KubernetesCrudDispatcher.class.getDeclaredField("watchEventListeners");
            field.setAccessible(true);
            this.watches = (Set<Object>) field.get(crud);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach the CRUD mock's watches (fabric8 changed?)", e);
        }
        this.closer = new MockWatchCloser(watches::remove);
    }

    /** A pod DELETE: applied by the mock, remembered when it removed something. */
    MockResponse delete(RecordedRequest request) {
        String path = request.getPath();
        int query = path.indexOf('?');
        MockResponse before = crud.handleGet(query < 0 ? path : path.substring(0, query));
        MockResponse response = crud.dispatch(request);
        if (before.code() == 200 && response.code() / 100 == 2) {
            String json = new String(before.getBody().getBytes(), StandardCharsets.UTF_8);
            Pod pod = JSON.unmarshal(json, Pod.class);
            long now = System.nanoTime();
            deleted.addLast(new Tombstone(now, json, extractor.extract(pod)));
            while (!deleted.isEmpty() && now - deleted.peekFirst().atNanos() > KEEP_NANOS) {
                deleted.pollFirst();
            }
        }
        return response;
    }

    /** A pod watch: opened by the mock, then handed the recent deletions that match it. */
    MockResponse watch(RecordedRequest request) {
        List<Object> opened = new ArrayList<>();
        MockResponse response;
        synchronized (watchOpening) {
            Set<Object> before = new HashSet<>(watches);
            response = crud.dispatch(request);
            for (Object w : watches) {
                if (!before.contains(w)) {
                    opened.add(w);
                }
            }
        }
        long now = System.nanoTime();
        for (Object listener : opened) {
            for (Tombstone t : deleted) {
                if (now - t.atNanos() <= KEEP_NANOS && matches(listener, t.attributes())) {
                    send(listener, t.json());
                }
            }
        }
        return offloadClose(response);
    }

    /**
     * The mock closes a failed or closing watch by waiting (up to a minute) for its send executor, on the web
     * server's only event loop, which the pending sends need: every request stalls meanwhile. This runs those
     * callbacks on a thread of their own instead.
     */
    MockResponse offloadClose(MockResponse response) {
        return closer.wrap(response);
    }

    void close() {
        closer.close();
    }

    private static boolean matches(Object listener, AttributeSet attributes) {
        try {
            Method m = listener.getClass().getMethod("attributeMatches", AttributeSet.class);
            m.setAccessible(true);
            return (Boolean) m.invoke(listener, attributes);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot match a CRUD mock watch (fabric8 changed?)", e);
        }
    }

    private static void send(Object listener, String json) {
        try {
            Method m = listener.getClass().getMethod("sendWebSocketResponse", String.class, Watcher.Action.class);
            m.setAccessible(true);
            m.invoke(listener, json, Watcher.Action.DELETED);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot send on a CRUD mock watch (fabric8 changed?)", e);
        }
    }
}
