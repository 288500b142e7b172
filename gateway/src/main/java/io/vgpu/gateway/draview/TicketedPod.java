package io.vgpu.gateway.draview;

import io.vgpu.gateway.core.quota.QuotaTicket;

import java.util.Objects;

/**
 * A pod that carries a quota ticket, trimmed to what the ticket's life needs.
 *
 * @param namespace       metadata.namespace
 * @param name            metadata.name
 * @param uid             metadata.uid
 * @param ticket          its {@code vgpu.io/quota-ticket}
 * @param finished        phase Succeeded or Failed: it holds no GPU any more
 * @param resourceVersion metadata.resourceVersion, compared for equality only
 */
record TicketedPod(String namespace, String name, String uid, QuotaTicket ticket, boolean finished,
                   String resourceVersion) {

    TicketedPod {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(ticket, "ticket");
        uid = uid == null ? "" : uid;
        resourceVersion = resourceVersion == null ? "" : resourceVersion;
    }
}
