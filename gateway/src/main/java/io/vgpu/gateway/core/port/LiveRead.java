package io.vgpu.gateway.core.port;

/**
 * What one live read of a pod found ({@link PodWriter#readLive}): the pod, the API server's word that it is gone, or
 * nothing known. Callers that release charges on a missing pod act on {@link Gone} only: an unanswered read (rate
 * limit, overload, a timeout) says nothing about the pod.
 */
public sealed interface LiveRead permits LiveRead.Found, LiveRead.Gone, LiveRead.Unread {

    /** The pod as the API server has it now. */
    record Found(ObservedPod pod) implements LiveRead {
    }

    /** 404, or (for an address with a UID) the name now belongs to another UID. */
    record Gone() implements LiveRead {
    }

    /** No usable answer: {@code why} says what happened. */
    record Unread(String why) implements LiveRead {
    }
}
