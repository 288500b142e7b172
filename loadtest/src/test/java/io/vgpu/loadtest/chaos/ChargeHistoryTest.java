package io.vgpu.loadtest.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** An over-commit's report says how the node's charges changed between its owners' dumps. */
class ChargeHistoryTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ChargeHistory history = new ChargeHistory(0);

    @Test
    void tellsWhichChargesCameWentOrChangedFromOneOwnersDumpToTheNext() {
        history.owner("replica-1", node(7, "a Bound A", "b Reserved B"), 1_000);
        assertThat(history.of("n1")).isEqualTo("none");

        history.owner("replica-1", node(8, "a Bound A", "b Bound B"), 2_000);
        history.owner("replica-0", node(9, "b Bound B"), 3_500);
        history.owner("replica-0", node(9, "b Bound B"), 4_000); // unchanged: nothing kept
        history.owner("replica-0", node(10, "b Bound B", "a Bound A"), 5_000);

        assertThat(history.of("n1")).isEqualTo("[+2.0 s replica-1 v8] ~b Reserved B -> b Bound B"
                + " | [+3.5 s replica-0 v9] -a Bound A"
                + " | [+5.0 s replica-0 v10] +a Bound A");
        assertThat(history.of("n2")).isEqualTo("none");
    }

    /** A node dump with charges given as "name state devices" (the pod's name is its UID here). */
    private static JsonNode node(long version, String... charges) {
        ObjectNode node = JSON.createObjectNode().put("name", "n1").put("version", version);
        ArrayNode out = node.putArray("charges");
        for (String c : charges) {
            String[] f = c.split(" ");
            out.addObject().put("uid", f[0]).put("name", f[0]).put("state", f[1]).put("devices", f[2]);
        }
        return node;
    }
}
