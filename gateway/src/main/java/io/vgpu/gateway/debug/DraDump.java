package io.vgpu.gateway.debug;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vgpu.gateway.core.draview.DraCard;
import io.vgpu.gateway.core.draview.DraShare;
import io.vgpu.gateway.core.draview.DraSnapshot;

import java.util.function.Predicate;

/**
 * The {@code dra} part of {@code /debug/state}:
 * <pre>
 * "dra":{"mode":"dra",
 *        "cards":[{"node":"n2","device":"gpu-0","uuid":"GPU-…","index":0,"type":"NVIDIA A100","owned":true,
 *                  "healthy":true,"memoryMiB":81920,"cores":100,"splitCount":10,"usedMemoryMiB":4096,"usedCores":30,
 *                  "usedSlots":100,"shares":[{"namespace":"ns","claim":"p-gpu-x1","pods":["p"],"memoryMiB":4096,
 *                                             "cores":30,"slots":100}]}],
 *        "orphans":[…shares of devices no slice publishes, with "node" and "device"…]}
 * </pre>
 */
final class DraDump {

    private DraDump() {
    }

    static void write(ObjectNode out, DraSnapshot snapshot, Predicate<String> owned) {
        out.put("mode", "dra");
        ArrayNode cards = out.putArray("cards");
        for (DraCard c : snapshot.cards()) {
            ObjectNode card = cards.addObject();
            card.put("node", c.node()).put("device", c.device()).put("uuid", c.uuid()).put("index", c.index())
                    .put("type", c.productName()).put("owned", owned.test(c.node())).put("healthy", c.healthy())
                    .put("memoryMiB", c.memoryMiB()).put("cores", c.cores()).put("splitCount", c.splitCount())
                    .put("usedMemoryMiB", c.usedMemoryMiB()).put("usedCores", c.usedCores())
                    .put("usedSlots", c.usedSlots());
            ArrayNode shares = card.putArray("shares");
            c.shares().forEach(s -> share(shares.addObject(), s));
        }
        ArrayNode orphans = out.putArray("orphans");
        snapshot.orphans().forEach(s -> share(orphans.addObject(), s).put("node", s.node()).put("device", s.device()));
    }

    private static ObjectNode share(ObjectNode out, DraShare s) {
        out.put("namespace", s.namespace()).put("claim", s.claim());
        ArrayNode pods = out.putArray("pods");
        s.pods().forEach(pods::add);
        return out.put("memoryMiB", s.memoryMiB()).put("cores", s.cores()).put("slots", s.slots());
    }
}
