package io.vgpu.gateway.draview;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.vgpu.gateway.core.draview.DraClaim;
import io.vgpu.gateway.core.port.QuotaTickets;
import io.vgpu.gateway.core.quota.QuotaTicket;
import io.vgpu.state.dra.DraNames;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/** fabric8's objects → the trimmed values the DRA view and the tickets work on. Pure functions. */
final class DraObjects {

    private DraObjects() {
    }

    /** The claim's allocated results on this driver (none when it is not allocated). */
    static DraClaim claim(ResourceClaim claim) {
        String ns = Objects.toString(claim.getMetadata().getNamespace(), "");
        String name = Objects.toString(claim.getMetadata().getName(), "");
        List<String> pods = new ArrayList<>();
        List<DraClaim.Result> results = new ArrayList<>();
        var status = claim.getStatus();
        if (status != null && status.getReservedFor() != null) {
            for (ResourceClaimConsumerReference r : status.getReservedFor()) {
                if ("pods".equals(r.getResource()) && r.getName() != null) {
                    pods.add(r.getName());
                }
            }
        }
        if (status != null && status.getAllocation() != null && status.getAllocation().getDevices() != null
                && status.getAllocation().getDevices().getResults() != null) {
            for (DeviceRequestAllocationResult r : status.getAllocation().getDevices().getResults()) {
                if (DraNames.DRIVER.equals(r.getDriver()) && r.getPool() != null && r.getDevice() != null) {
                    Map<String, Quantity> consumed = r.getConsumedCapacity() == null ? Map.of()
                            : r.getConsumedCapacity();
                    results.add(new DraClaim.Result(r.getPool(), r.getDevice(), whole(consumed.get("memory")),
                            whole(consumed.get("cores")), whole(consumed.get("slots"))));
                }
            }
        }
        pods.sort(null);
        return new DraClaim(ns, name, pods, results);
    }

    /** The pod's ticket, if it carries one this gateway wrote. */
    static Optional<TicketedPod> ticketed(Pod pod) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String raw = annotations == null ? null : annotations.get(QuotaTickets.ANNOTATION);
        if (raw == null) {
            return Optional.empty();
        }
        return QuotaTicket.decode(raw).map(t -> {
            String phase = pod.getStatus() == null ? "" : Objects.toString(pod.getStatus().getPhase(), "");
            return new TicketedPod(pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                    pod.getMetadata().getUid(), t, "Succeeded".equals(phase) || "Failed".equals(phase),
                    pod.getMetadata().getResourceVersion());
        });
    }

    /** A quantity as a whole number, rounded up (the allocator's direction); empty when absent or unreadable. */
    private static OptionalLong whole(Quantity q) {
        if (q == null) {
            return OptionalLong.empty();
        }
        try {
            BigDecimal amount = Quantity.getAmountInBytes(q);
            return OptionalLong.of(amount.setScale(0, RoundingMode.CEILING).longValueExact());
        } catch (ArithmeticException | IllegalArgumentException e) {
            return OptionalLong.empty();
        }
    }
}
