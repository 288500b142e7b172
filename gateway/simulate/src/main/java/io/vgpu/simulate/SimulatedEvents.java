package io.vgpu.simulate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The simulated API server's Events, kept apart from fabric8's CRUD store: that store scans every object it holds on
 * every request, and a long run writes Events without end (filter and bind outcomes, several per pod), so pod and
 * node calls would slow down with the run's length. Here they are bounded, like a real API server's (which expires
 * Events after {@code --event-ttl}, one hour by default): at most {@code capacity} are kept, the oldest dropped first,
 * and none older than {@code ttl}.
 *
 * <p>Serves what clients of Events use: {@code POST} (create, answered 201 with the stored object), {@code GET} of
 * the list (all namespaces or one; {@code fieldSelector} on {@code involvedObject.name}, {@code .namespace},
 * {@code .uid}, {@code .kind}, {@code reason} and {@code type}, as {@code kubectl describe pod} asks) and of one Event
 * by name. Watches and updates of Events are not served (405). Thread-safe.
 */
final class SimulatedEvents {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> SELECTABLE = List.of("involvedObject.name", "involvedObject.namespace",
            "involvedObject.uid", "involvedObject.kind", "reason", "type");

    private final int capacity;
    private final Duration ttl;
    private final Clock clock;
    private final Deque<Stored> events = new ArrayDeque<>();
    private final AtomicLong versions = new AtomicLong();
    private long created;

    /** One kept Event: its JSON and when it was stored. */
    private record Stored(String namespace, String name, ObjectNode event, Instant at) {
    }

    /**
     * An answer of the Events endpoint.
     *
     * @param status the HTTP status
     * @param body   the JSON body
     */
    record Answer(int status, String body) {
    }

    /**
     * @param capacity at most this many Events are kept
     * @param ttl      and none older than this
     * @param clock    what "older" is measured with
     */
    SimulatedEvents(int capacity, Duration ttl, Clock clock) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1");
        }
        this.capacity = capacity;
        this.ttl = ttl;
        this.clock = clock;
    }

    /** Events kept now. */
    synchronized int size() {
        expire();
        return events.size();
    }

    /** Events created since start, kept or not. */
    synchronized long created() {
        return created;
    }

    /** {@code POST /api/v1/namespaces/{namespace}/events}. */
    Answer create(String namespace, String body) {
        JsonNode parsed;
        try {
            parsed = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            return status(400, "BadRequest", "undecodable Event: " + e.getMessage());
        }
        if (!(parsed instanceof ObjectNode event)) {
            return status(400, "BadRequest", "an Event must be a JSON object");
        }
        ObjectNode metadata = event.has("metadata") && event.get("metadata").isObject()
                ? (ObjectNode) event.get("metadata") : event.putObject("metadata");
        String name = metadata.path("name").asText("");
        if (name.isEmpty()) {
            String prefix = metadata.path("generateName").asText("");
            if (prefix.isEmpty()) {
                return status(422, "Invalid", "Event is invalid: metadata.name: Required value");
            }
            name = prefix + UUID.randomUUID().toString().substring(0, 5);
        }
        String declared = metadata.path("namespace").asText("");
        if (!declared.isEmpty() && !declared.equals(namespace)) {
            return status(400, "BadRequest", "the namespace of the Event (" + declared
                    + ") does not match the namespace of the request (" + namespace + ")");
        }
        Instant now = clock.instant();
        metadata.put("name", name).put("namespace", namespace).put("uid", UUID.randomUUID().toString())
                .put("resourceVersion", Long.toString(versions.incrementAndGet()))
                .put("creationTimestamp", now.truncatedTo(ChronoUnit.SECONDS).toString());
        synchronized (this) {
            expire();
            for (Stored s : events) {
                if (s.namespace().equals(namespace) && s.name().equals(name)) {
                    return status(409, "AlreadyExists", "events \"" + name + "\" already exists");
                }
            }
            events.addLast(new Stored(namespace, name, event, now));
            created++;
            while (events.size() > capacity) {
                events.removeFirst();
            }
        }
        return new Answer(201, event.toString());
    }

    /**
     * {@code GET} of {@code /api/v1/events} or {@code /api/v1/namespaces/{namespace}/events[/{name}]}.
     *
     * @param namespace the namespace, or null for all
     * @param name      one Event's name, or null for the list
     * @param query     the raw query string, or null
     */
    Answer get(String namespace, String name, String query) {
        Map<String, String> selector;
        try {
            selector = fieldSelector(query);
        } catch (IllegalArgumentException e) {
            return status(400, "BadRequest", e.getMessage());
        }
        List<ObjectNode> matching = new ArrayList<>();
        synchronized (this) {
            expire();
            for (Stored s : events) {
                if ((namespace == null || s.namespace().equals(namespace)) && (name == null || s.name().equals(name))
                        && matches(s.event(), selector)) {
                    matching.add(s.event());
                }
            }
        }
        if (name != null) {
            return matching.isEmpty() ? status(404, "NotFound", "events \"" + name + "\" not found")
                    : new Answer(200, matching.get(0).toString());
        }
        ObjectNode list = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "EventList");
        list.putObject("metadata").put("resourceVersion", Long.toString(versions.get()));
        ArrayNode items = list.putArray("items");
        matching.forEach(items::add);
        return new Answer(200, list.toString());
    }

    /** Anything else on Events. */
    Answer unsupported(String method) {
        return status(405, "MethodNotAllowed", method + " of Events is not served by the simulated API server"
                + " (it keeps a bounded, expiring list: create, list and get only)");
    }

    private void expire() {
        Instant oldest = clock.instant().minus(ttl);
        while (!events.isEmpty() && events.peekFirst().at().isBefore(oldest)) {
            events.removeFirst();
        }
    }

    private static boolean matches(ObjectNode event, Map<String, String> selector) {
        for (Map.Entry<String, String> term : selector.entrySet()) {
            JsonNode value = event;
            for (String part : term.getKey().split("\\.")) {
                value = value.path(part);
            }
            if (!value.asText("").equals(term.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** The equality terms of {@code fieldSelector}; unknown fields are refused, as the API server does. */
    private static Map<String, String> fieldSelector(String query) {
        Map<String, String> terms = new LinkedHashMap<>();
        if (query == null) {
            return terms;
        }
        for (String parameter : query.split("&")) {
            if (!parameter.startsWith("fieldSelector=")) {
                continue;
            }
            String selector = URLDecoder.decode(parameter.substring("fieldSelector=".length()), StandardCharsets.UTF_8);
            for (String term : selector.split(",")) {
                if (term.isBlank()) {
                    continue;
                }
                String[] kv = term.split("==?", 2);
                if (kv.length != 2 || !SELECTABLE.contains(kv[0].trim())) {
                    throw new IllegalArgumentException("field selector \"" + term + "\": not a supported field, "
                            + "supported are " + SELECTABLE);
                }
                terms.put(kv[0].trim(), kv[1].trim());
            }
        }
        return terms;
    }

    private static Answer status(int code, String reason, String message) {
        ObjectNode status = JSON.createObjectNode().put("kind", "Status").put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure").put("message", message).put("reason", reason).put("code", code);
        return new Answer(code, status.toString());
    }
}
